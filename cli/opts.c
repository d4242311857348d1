#include "cli/opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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

int opt_parse(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
	      const char **pos, int *npos, void (*usage)(FILE *))
{
	char *base = opts;
	*npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_is_help(a)) {
			usage(stdout);
			return OPT_HELP;
		}
		int r = 0;
		for (size_t k = 0; k < n && !r; k++) {
			const opt_spec *s = &t[k];
			const char *v;
			if (s->kind == OPT_SWITCH) {
				if (!strcmp(a, s->flag) || (s->why && !strcmp(a, s->why))) {
					*(int *)(base + s->off) = 1;
					r = 1;
				}
				continue;
			}
			if (s->kind == OPT_REFUSE) {
				size_t fl = strlen(s->flag);
				if (!strncmp(a, s->flag, fl) && (a[fl] == '\0' || a[fl] == '=')) {
					cli_err(cmd, "%s: %s", s->flag, s->why);
					return EXIT_USAGE;
				}
				continue;
			}
			r = opt_value(cmd, argv, argc, &i, s->flag, &v);
			if (r < 0)
				return EXIT_USAGE;
			if (r && s->kind == OPT_STR)
				*(const char **)(base + s->off) = v;
			else if (r && opt_u64(cmd, s->flag, v, s->lo, s->hi, (uint64_t *)(base + s->off)))
				return EXIT_USAGE;
		}
		if (r)
			continue;
		if (a[0] == '-' && a[1]) {
			cli_err(cmd, "unknown flag '%s' (see ptxpose %s --help)", a, cmd);
			return EXIT_USAGE;
		}
		pos[(*npos)++] = a;
	}
	return 0;
}
