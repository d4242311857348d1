/* opts: the flag forms every subcommand shares: `--name value` and
 * `--name=value`, with range-checked integers and one-line errors. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdint.h>

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

#endif
