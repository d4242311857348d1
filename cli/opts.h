/* opts: the flag forms every subcommand shares: `--name value` and
 * `--name=value`, with range-checked integers and one-line errors. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/elem.h"

/* If argv[*i] is flag `name` (either form), store its value in *val,
 * advance *i past it and return 1. Return 0 if it is another argument.
 * Return -1 (after printing an error for `cmd`) if the value is missing. */
int opt_value(const char *cmd, char **argv, int argc, int *i,
	      const char *name, const char **val);

/* Parse an unsigned integer in [lo, hi]; -1 and an error naming the flag. */
int opt_u64(const char *cmd, const char *flag, const char *s,
	    uint64_t lo, uint64_t hi, uint64_t *out);

/* 1 if argv[i] is -h or --help. */
int opt_is_help(const char *arg);

/* ---- table-driven parsing ------------------------------------------------ */

enum opt_kind {
	OPT_NUM,     /* a uint64_t in [lo, hi] */
	OPT_NUM32,   /* a uint32_t in [lo, hi] */
	OPT_ELEM,    /* an opt_elem: an element width as common/elem.h reads it */
	OPT_STR,     /* a const char * */
	OPT_SWITCH,  /* an int set to 1 */
	OPT_REFUSE,  /* a flag that belongs to another command: `why` says which */
};

typedef struct {
	const char *flag;    /* "--rows" */
	enum opt_kind kind;
	size_t off;          /* where in the options struct */
	uint64_t lo, hi;     /* OPT_NUM's and OPT_NUM32's range */
	const char *why;     /* OPT_REFUSE's message; for OPT_SWITCH, a second spelling ("-v") */
} opt_spec;

/* An element width as given (OPT_ELEM). */
typedef struct {
	const char *text;    /* "f32"; NULL: not given */
	unsigned bits;       /* 0: not given */
	elem_unit unit;
} opt_elem;

#define OPT_HELP (-1)

/* Parse argv[1..] into *opts by table t: every flag in either form, anything
 * else not starting with '-' into pos[] (room for argc entries), counted in
 * *npos. `-h`/`--help` prints usage to stdout and returns OPT_HELP; an
 * unknown, malformed or refused flag, or one given twice (in any spelling),
 * prints one line and returns EXIT_USAGE; otherwise 0. At most 64 flags. */
int opt_parse(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
	      const char **pos, int *npos, void (*usage)(FILE *));

/* A table of flags and the struct it fills; `given` gets bit k for t[k]. */
typedef struct {
	const opt_spec *t;
	size_t n;
	void *base;
	uint64_t given;
} opt_table;

/* opt_parse over several tables (a command's own flags, the shape flags of
 * cli/opts_shape.h), searched in order. */
int opt_parse_tables(const char *cmd, int argc, char **argv, opt_table *tabs, size_t ntabs, const char **pos,
		     int *npos, void (*usage)(FILE *));
#endif
