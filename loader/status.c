/* status: px_status names, the verbose log, byte counts, driver error text. */
#include "loader/status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const names[] = {
	[PX_OK] = "PX_OK", [PX_WRONG] = "PX_WRONG", [PX_EUSAGE] = "PX_EUSAGE", [PX_EINPUT] = "PX_EINPUT",
	[PX_ENODRIVER] = "PX_ENODRIVER", [PX_ENODEVICE] = "PX_ENODEVICE", [PX_ECUDA] = "PX_ECUDA",
	[PX_EJIT] = "PX_EJIT", [PX_ENOMEM] = "PX_ENOMEM", [PX_EUNAVAIL] = "PX_EUNAVAIL",
};

const char *px_status_name(px_status st)
{
	if ((unsigned)st >= sizeof names / sizeof names[0])
		return "PX_?";
	return names[st];
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

const char *px_cuda_error_str(int rc, const char *name, const char *text, char *buf, size_t len)
{
	if (name)
		snprintf(buf, len, "%s (%s)", name, text ? text : "no description");
	else
		snprintf(buf, len, "CUresult %d (a code this driver does not name)", rc);
	return buf;
}
