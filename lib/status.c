/* status: px_status names, their exit codes, the verbose log, byte counts. */
#include "rig/rig.h"

#include <stdarg.h>
#include <stdio.h>

/* Indexed by px_status; keep in the enum's order. */
static const struct {
	const char *name;
	int exit_code;  /* docs/DESIGN.md's table, mirrored by cli/cli.h */
} statuses[] = {
	[PX_OK] = {"PX_OK", 0},
	[PX_WRONG] = {"PX_WRONG", 1},
	[PX_EUSAGE] = {"PX_EUSAGE", 2},
	[PX_EINPUT] = {"PX_EINPUT", 3},
	[PX_ENODRIVER] = {"PX_ENODRIVER", 4},
	[PX_ENODEVICE] = {"PX_ENODEVICE", 4},
	[PX_ECUDA] = {"PX_ECUDA", 5},
	[PX_EJIT] = {"PX_EJIT", 5},
	[PX_ENOMEM] = {"PX_ENOMEM", 5},
	[PX_EUNAVAIL] = {"PX_EUNAVAIL", 5},
};

const char *px_status_name(px_status st)
{
	if ((unsigned)st >= sizeof statuses / sizeof statuses[0])
		return "PX_?";
	return statuses[st].name;
}

int px_status_exit(px_status st)
{
	if ((unsigned)st >= sizeof statuses / sizeof statuses[0])
		return 5;
	return statuses[st].exit_code;
}

void px_logf(const px_log *log, const char *fmt, ...)
{
	if (!log || !log->fn)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log->fn(log->ud, line);
}

const char *px_bytes_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.*f %s", v < 10 ? 2 : 1, v, units[u]);
	return buf;
}

void px_log_stderr(void *ud, const char *line)
{
	(void)ud;
	fprintf(stderr, "# %s\n", line);
}

int px_exit_merge(int so_far, int code)
{
	if (so_far == 0 || (so_far == 1 && code != 0))
		return code;
	return so_far;
}
