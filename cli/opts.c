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
