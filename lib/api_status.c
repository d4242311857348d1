/* api_status: status strings, the per-thread last error and the version:
 * the bottom of the API (lib/api.h), calling nothing of it. */
#include "lib/api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/version.h"

static const char *const status_text[] = {
	[PTXPOSE_OK] = "PTXPOSE_OK: success",
	[PTXPOSE_ERR_INVALID] = "PTXPOSE_ERR_INVALID: an invalid argument (NULL, a bad width or dimension, ld < cols)",
	[PTXPOSE_ERR_MISALIGNED] = "PTXPOSE_ERR_MISALIGNED: a pointer not aligned for its element size or plan",
	[PTXPOSE_ERR_OVERFLOW] = "PTXPOSE_ERR_OVERFLOW: sizes whose bytes overflow",
	[PTXPOSE_ERR_NO_DRIVER] = "PTXPOSE_ERR_NO_DRIVER: no usable CUDA driver",
	[PTXPOSE_ERR_NO_DEVICE] = "PTXPOSE_ERR_NO_DEVICE: no CUDA device",
	[PTXPOSE_ERR_CONTEXT] = "PTXPOSE_ERR_CONTEXT: a stream of another CUDA context than the handle's",
	[PTXPOSE_ERR_CUDA] = "PTXPOSE_ERR_CUDA: a CUDA driver call failed",
	[PTXPOSE_ERR_JIT] = "PTXPOSE_ERR_JIT: a kernel did not link for this device",
	[PTXPOSE_ERR_NO_MEMORY] = "PTXPOSE_ERR_NO_MEMORY: out of memory",
	[PTXPOSE_ERR_NO_KERNEL] = "PTXPOSE_ERR_NO_KERNEL: no kernel for this element width, or none of that name",
	[PTXPOSE_ERR_BAD_PTX] = "PTXPOSE_ERR_BAD_PTX: PTX without usable ptxpose metadata",
	[PTXPOSE_ERR_STALE] = "PTXPOSE_ERR_STALE: a destroyed handle or plan",
	[PTXPOSE_ERR_UNSUPPORTED] = "PTXPOSE_ERR_UNSUPPORTED: not supported by this version",
};

const char *ptxpose_status_string(ptxpose_status st)
{
	if ((unsigned)st >= sizeof status_text / sizeof status_text[0])
		return "PTXPOSE_ERR_?: not a ptxpose status";
	return status_text[st];
}

static char version[128];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;

static void version_init(void)
{
	snprintf(version, sizeof version, "%s (commit %s)", PTXPOSE_VERSION, ver_commit());
}

const char *ptxpose_version(void)
{
	pthread_once(&version_once, version_init);
	return version;
}

/* ---- the last error ---------------------------------------------------------- */

static _Thread_local char last_error[1024];

const char *ptxpose_last_error(void)
{
	return last_error;
}

ptxpose_status api_fail(ptxpose_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	return st;
}

ptxpose_status api_fail_px(px_status st, const char *msg)
{
	static const ptxpose_status map[] = {
		[PX_OK] = PTXPOSE_OK,
		[PX_WRONG] = PTXPOSE_ERR_CUDA,
		[PX_EUSAGE] = PTXPOSE_ERR_INVALID,
		[PX_EINPUT] = PTXPOSE_ERR_BAD_PTX,
		[PX_ENODRIVER] = PTXPOSE_ERR_NO_DRIVER,
		[PX_ENODEVICE] = PTXPOSE_ERR_NO_DEVICE,
		[PX_ECUDA] = PTXPOSE_ERR_CUDA,
		[PX_EJIT] = PTXPOSE_ERR_JIT,
		[PX_ENOMEM] = PTXPOSE_ERR_NO_MEMORY,
		[PX_EUNAVAIL] = PTXPOSE_ERR_NO_KERNEL,
	};
	if (st == PX_OK)
		return PTXPOSE_OK;
	ptxpose_status out = (unsigned)st < sizeof map / sizeof map[0] ? map[st] : PTXPOSE_ERR_CUDA;
	return api_fail(out, "%s", msg);
}

ptxpose_status api_fail_model(enum model_status st, const char *misaligned, const char *err)
{
	switch (st) {
	case MODEL_OK: return PTXPOSE_OK;
	case MODEL_EMISALIGNED: return api_fail(PTXPOSE_ERR_MISALIGNED, "%s%s", misaligned, err);
	case MODEL_EOVERFLOW: return api_fail(PTXPOSE_ERR_OVERFLOW, "%s", err);
	default: return api_fail(PTXPOSE_ERR_INVALID, "%s", err);
	}
}
