/* opts: the flag forms every subcommand shares: `--name value` and
 * `--name=value`, with range-checked integers and one-line errors. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/elem.h"
#include "rig/shape.h"

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
	OPT_ELEM,    /* a uint64_t element width in bits, as common/elem.h reads it */
	OPT_WIDTH,   /* a uint32_t element width in bytes, as common/elem.h reads it, and as given (opt_shape's --elem) */
	OPT_STR,     /* a const char * */
	OPT_SWITCH,  /* an int set to 1 */
	OPT_REFUSE,  /* a flag that belongs to another command: `why` says which */
};

typedef struct {
	const char *flag;    /* "--rows" */
	enum opt_kind kind;
	size_t off;          /* where in the options struct */
	uint64_t lo, hi;     /* OPT_NUM's range */
	const char *why;     /* OPT_REFUSE's message; for OPT_SWITCH, a second spelling ("-v") */
} opt_spec;

#define OPT_HELP (-1)

/* Parse argv[1..] into *opts by table t: every flag in either form, anything
 * else not starting with '-' into pos[] (room for argc entries), counted in
 * *npos. `-h`/`--help` prints usage to stdout and returns OPT_HELP; an
 * unknown, malformed or refused flag, or one given twice (in any spelling),
 * prints one line and returns EXIT_USAGE; otherwise 0. At most 64 flags. */
int opt_parse(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
	      const char **pos, int *npos, void (*usage)(FILE *));

/* ---- the shape flags ------------------------------------------------------ */

/* The flags of a problem (opts_shape.c): one table, with their help lines,
 * for every command that takes a shape; each command names the groups it
 * takes. A new problem field is one row there, filling a field of the desc. */
enum {
	OPT_SH_DIMS = 1u << 0,   /* --rows --cols --ld-in --ld-out */
	OPT_SH_BATCH = 1u << 1,  /* --batch --stride-in --stride-out */
	OPT_SH_ELEM = 1u << 2,   /* --elem */
	OPT_SH_OFFSET = 1u << 3, /* --offset */
	OPT_SH_ALIGN = 1u << 4,  /* --align-in --align-out */
	OPT_SH_ANY = 1u << 5,    /* take numbers of any size: the library's check of the problem
				  * names what is out of range (plan), not the flag's range */
};

/* What the shape flags fill. */
typedef struct {
	rig_shape s;         /* s.p: the problem, as the library takes it; s.offset */
	const char *elem;    /* --elem as given ("f32"), and its unit */
	elem_unit elem_unit;
	uint64_t given;      /* the flags given, a bit each (opt_shape_given) */
} opt_shape;

/* An opt_shape with nothing given: s is rig_shape_of(0, 0, 0) (batch 1). */
opt_shape opt_shape_init(void);

/* 1 if flag ("--rows") was given. */
int opt_shape_given(const opt_shape *sh, const char *flag);

/* 1 if any flag of the groups was given. */
int opt_shape_any(const opt_shape *sh, unsigned groups);

/* The help lines of the groups' flags. */
void opt_shape_help(FILE *f, unsigned groups);

/* For opt_parse: 1 if a is flag s in any of its forms. */
int opt_is_flag(const opt_spec *s, const char *a);
/* For opt_parse: 1 if a is a shape flag of the groups, its row (the range
 * widened under OPT_SH_ANY) in *s and its bit in *k. */
int opt_shape_find(const char *a, unsigned groups, opt_spec *s, size_t *k);

/* For commands that take one shape or a list (check, bench): EXIT_USAGE
 * after one line when a shape flag comes without --rows and --cols, or with
 * a --shapes list (`shapes` not NULL); else 0. */
int opt_shape_alone(const char *cmd, const opt_shape *sh, const char *shapes);

/* ... and their shapes: sh's one (of any width: --elem chooses the files)
 * when --rows and --cols were given, else the list (rig_shape_select). */
px_status opt_shape_select(const opt_shape *sh, const char *list, rig_shape **out, size_t *n, char *err,
			   size_t errlen);

/* opt_parse, with the shape flags of `groups` (OPT_SH_*) into *sh too. */
int opt_parse_shape(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
		    opt_shape *sh, unsigned groups, const char **pos, int *npos, void (*usage)(FILE *));
#endif
