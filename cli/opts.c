#include "cli/opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/elem.h"

int opt_value(const char *cmd, char **argv, int argc, int *i,
	      const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n])
		return 0;
	if (*i + 1 >= argc) {
		cli_err(cmd, "%s needs a value", name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

int opt_u64(const char *cmd, const char *flag, const char *s,
	    uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = (*s >= '0' && *s <= '9') ? strtoull(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || errno || *end || v < lo || v > hi) {
		cli_err(cmd, "%s: expected an integer from %llu to %llu, got '%s'", flag,
			(unsigned long long)lo, (unsigned long long)hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

int opt_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/* One flag's value stored by its kind; -1 after an error. A shape's
 * element width (into sh) notes how it was given. */
static int store(const char *cmd, const opt_spec *s, const char *v, char *base, opt_shape *sh)
{
	uint64_t *num = (uint64_t *)(base + s->off), n;
	if (s->kind == OPT_STR) {
		*(const char **)(base + s->off) = v;
		return 0;
	}
	if (s->kind == OPT_NUM)
		return opt_u64(cmd, s->flag, v, s->lo, s->hi, num);
	if (s->kind == OPT_NUM32) {
		if (opt_u64(cmd, s->flag, v, s->lo, s->hi, &n))
			return -1;
		*(uint32_t *)(base + s->off) = (uint32_t)n;
		return 0;
	}
	unsigned bits;
	char why[512];
	if (elem_parse(v, &bits, sh ? &sh->elem_unit : NULL, why, sizeof why)) {
		cli_err(cmd, "%s %s", s->flag, why);
		return -1;
	}
	if (s->kind != OPT_WIDTH) {
		*num = bits;
		return 0;
	}
	*(uint32_t *)(base + s->off) = bits / 8;
	sh->elem = v;
	return 0;
}

int opt_is_flag(const opt_spec *s, const char *a)
{
	size_t fl = strlen(s->flag);
	if (s->kind == OPT_SWITCH)
		return !strcmp(a, s->flag) || (s->why && !strcmp(a, s->why));
	return !strncmp(a, s->flag, fl) && (a[fl] == '\0' || a[fl] == '=');
}

int opt_parse(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
	      const char **pos, int *npos, void (*usage)(FILE *))
{
	return opt_parse_shape(cmd, argc, argv, t, n, opts, NULL, 0, pos, npos, usage);
}

/* Flag s at argv[*i] into base, its bit k of *given; -1 after an error. */
static int take(const char *cmd, char **argv, int argc, int *i, const opt_spec *s, char *base, uint64_t *given,
		size_t k, opt_shape *sh)
{
	const char *v;
	if (s->kind == OPT_REFUSE) {
		cli_err(cmd, "%s: %s", s->flag, s->why);
		return -1;
	}
	if (k < 64 && (*given >> k & 1)) {
		cli_err(cmd, "%s given twice", s->flag);
		return -1;
	}
	*given |= k < 64 ? UINT64_C(1) << k : 0;
	if (s->kind == OPT_SWITCH) {
		*(int *)(base + s->off) = 1;
		return 0;
	}
	return opt_value(cmd, argv, argc, i, s->flag, &v) < 0 || store(cmd, s, v, base, sh) ? -1 : 0;
}

int opt_parse_shape(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
		    opt_shape *sh, unsigned groups, const char **pos, int *npos, void (*usage)(FILE *))
{
	uint64_t seen = 0;
	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_is_help(a)) {
			usage(stdout);
			return OPT_HELP;
		}
		size_t k = 0;
		while (k < n && !opt_is_flag(&t[k], a))
			k++;
		opt_spec shape; /* a shape flag: its row of the shape table, k its bit in sh->given */
		int rc;
		if (k < n)
			rc = take(cmd, argv, argc, &i, &t[k], opts, &seen, k, NULL);
		else if (sh && opt_shape_find(a, groups, &shape, &k))
			rc = take(cmd, argv, argc, &i, &shape, (char *)sh, &sh->given, k, sh);
		else if (a[0] == '-' && a[1]) {
			cli_err(cmd, "unknown flag '%s' (see ptxpose %s --help)", a, cmd);
			return EXIT_USAGE;
		} else {
			pos[(*npos)++] = a;
			continue;
		}
		if (rc)
			return EXIT_USAGE;
	}
	return 0;
}
