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

/* One flag's value stored by its kind; -1 after an error. */
static int store(const char *cmd, const opt_spec *s, const char *v, char *base)
{
	uint64_t n;
	opt_elem *e = (opt_elem *)(base + s->off);
	char why[512];
	switch (s->kind) {
	case OPT_STR:
		*(const char **)(base + s->off) = v;
		return 0;
	case OPT_NUM:
		return opt_u64(cmd, s->flag, v, s->lo, s->hi, (uint64_t *)(base + s->off));
	case OPT_NUM32:
		if (opt_u64(cmd, s->flag, v, s->lo, s->hi, &n))
			return -1;
		*(uint32_t *)(base + s->off) = (uint32_t)n;
		return 0;
	default: /* OPT_ELEM */
		if (elem_parse(v, &e->bits, &e->unit, why, sizeof why)) {
			cli_err(cmd, "%s %s", s->flag, why);
			return -1;
		}
		e->text = v;
		return 0;
	}
}

/* 1 if a is flag s in any of its forms. */
static int is_flag(const opt_spec *s, const char *a)
{
	size_t fl = strlen(s->flag);
	if (s->kind == OPT_SWITCH)
		return !strcmp(a, s->flag) || (s->why && !strcmp(a, s->why));
	return !strncmp(a, s->flag, fl) && (a[fl] == '\0' || a[fl] == '=');
}

/* Flag t->t[k] at argv[*i] into t->base; -1 after an error. */
static int take(const char *cmd, char **argv, int argc, int *i, opt_table *t, size_t k)
{
	const opt_spec *s = &t->t[k];
	const char *v;
	if (s->kind == OPT_REFUSE) {
		cli_err(cmd, "%s: %s", s->flag, s->why);
		return -1;
	}
	if (k < 64 && (t->given >> k & 1)) {
		cli_err(cmd, "%s given twice", s->flag);
		return -1;
	}
	t->given |= k < 64 ? UINT64_C(1) << k : 0;
	if (s->kind == OPT_SWITCH) {
		*(int *)((char *)t->base + s->off) = 1;
		return 0;
	}
	return opt_value(cmd, argv, argc, i, s->flag, &v) < 0 || store(cmd, s, v, t->base) ? -1 : 0;
}

int opt_parse(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
	      const char **pos, int *npos, void (*usage)(FILE *))
{
	opt_table tab = {t, n, opts, 0};
	return opt_parse_tables(cmd, argc, argv, &tab, 1, pos, npos, usage);
}

int opt_parse_tables(const char *cmd, int argc, char **argv, opt_table *tabs, size_t ntabs, const char **pos,
		     int *npos, void (*usage)(FILE *))
{
	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_is_help(a)) {
			usage(stdout);
			return OPT_HELP;
		}
		size_t j = 0, k = 0;
		for (; j < ntabs; j++, k = 0) {
			while (k < tabs[j].n && !is_flag(&tabs[j].t[k], a))
				k++;
			if (k < tabs[j].n)
				break;
		}
		if (j < ntabs) {
			if (take(cmd, argv, argc, &i, &tabs[j], k))
				return EXIT_USAGE;
		} else if (a[0] == '-' && a[1]) {
			cli_err(cmd, "unknown flag '%s' (see ptxpose %s --help)", a, cmd);
			return EXIT_USAGE;
		} else {
			pos[(*npos)++] = a;
		}
	}
	return 0;
}
