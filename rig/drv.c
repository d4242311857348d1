/* drv: the rig's driver entry points, resolved through ptxpose_driver_symbol
 * from the libcuda the library opened; the device of the handle whose context
 * the rig works in, and its reset; driver error text. */
#include "rig/drv_api.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig/op.h"

static const struct {
	const char *sym, *alt;
	size_t off;
	int later; /* may be missing (DRV_LATER_ENTRY_POINTS) */
} entry_points[] = {
#define DRV_ROW(field, sym, alt, type) {sym, alt, offsetof(drv_fns, field), 0},
#define DRV_LATER_ROW(field, sym, alt, type) {sym, alt, offsetof(drv_fns, field), 1},
	DRV_ENTRY_POINTS(DRV_ROW)
	DRV_LATER_ENTRY_POINTS(DRV_LATER_ROW)
#undef DRV_ROW
#undef DRV_LATER_ROW
};

const char *drv_error_text(const drv_ctx *d, CUresult rc, char *buf, size_t len)
{
	const char *name = NULL, *text = NULL;
	if (d->f.GetErrorName(rc, &name) != CUDA_SUCCESS)
		name = NULL;
	if (d->f.GetErrorString(rc, &text) != CUDA_SUCCESS)
		text = NULL;
	return px_cuda_error_str((int)rc, name, text, buf, len);
}

px_status drv_fail(const drv_ctx *d, CUresult rc, const char *file, int line, const char *call, char *err,
		   size_t errlen)
{
	char text[256];
	snprintf(err, errlen, "%s:%d: %s: %s", file, line, call, drv_error_text(d, rc, text, sizeof text));
	return rc == CUDA_ERROR_OUT_OF_MEMORY ? PX_ENOMEM : PX_ECUDA;
}

/* Every entry point through the library: the driver is open (the handle
 * exists), so a failure is a symbol this driver lacks. */
static px_status resolve(drv_fns *f, char *err, size_t errlen)
{
	for (size_t k = 0; k < sizeof entry_points / sizeof entry_points[0]; k++) {
		void *p = NULL;
		ptxpose_status st = ptxpose_driver_symbol(entry_points[k].sym, &p);
		if (st && entry_points[k].alt)
			st = ptxpose_driver_symbol(entry_points[k].alt, &p);
		if (st && st != PTXPOSE_ERR_INVALID)
			return rig_api_fail(st, err, errlen);
		if (st && entry_points[k].later)
			continue;
		if (st) {
			snprintf(err, errlen, "the CUDA driver libcuda.so.1 has no %s: too old for ptxpose (CUDA 11 or "
					      "newer needed)", entry_points[k].sym);
			return PX_ENODRIVER;
		}
		/* POSIX: a dlsym result converts to the function pointer it names */
		memcpy((char *)f + entry_points[k].off, &p, sizeof p);
	}
	return PX_OK;
}

/* "-v": the driver and the device, with the two facts the handle does not
 * give (total memory, opt-in shared memory), 0 where the driver does not say. */
static void log_open(const drv_ctx *d)
{
	const ptxpose_device_info *i = &d->info;
	size_t total = 0;
	int optin = 0;
	if (d->f.DeviceTotalMem(&total, d->dev))
		total = 0;
	if (d->f.DeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, d->dev))
		optin = 0;
	char v[16], mem[32], l2[32];
	px_logf(d->log, "cu: libcuda.so.1 driver %s; device %d: %s, sm_%d%d, %d SMs, %s, L2 %s, %d B shared memory a "
			"block (opt-in); its primary context",
		drv_driver_str(d, v, sizeof v), i->ordinal, i->name, i->cc_major, i->cc_minor, i->sm_count,
		px_bytes_str(total, mem, sizeof mem), px_bytes_str((uint64_t)i->l2_bytes, l2, sizeof l2), optin);
}

px_status drv_open(drv_ctx **out, ptxpose_handle h, const px_log *log, char *err, size_t errlen)
{
	*out = NULL;
	drv_ctx *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	d->log = log;
	d->gen = 1;
	px_status st = resolve(&d->f, err, errlen);
	ptxpose_status pst;
	CUresult rc;
	if (!st && (pst = ptxpose_device_get(h, &d->info)))
		st = rig_api_fail(pst, err, errlen);
	if (!st && (rc = d->f.DeviceGet(&d->dev, d->info.ordinal)))
		st = DRV_FAIL(d, rc, "cuDeviceGet", err, errlen);
	if (st) {
		drv_close(d);
		return st;
	}
	log_open(d);
	*out = d;
	return PX_OK;
}

void drv_close(drv_ctx *d)
{
	free(d);
}

const ptxpose_device_info *drv_device(const drv_ctx *d)
{
	return &d->info;
}

const char *drv_driver_str(const drv_ctx *d, char *buf, size_t len)
{
	int v = d->info.driver_version;
	snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
	return buf;
}

const px_log *drv_log(const drv_ctx *d)
{
	return d->log;
}

unsigned drv_generation(const drv_ctx *d)
{
	return d->gen;
}

px_status drv_reset(drv_ctx *d, char *err, size_t errlen)
{
	CUresult rc;
	d->gen++;
	if ((rc = d->f.DevicePrimaryCtxReset(d->dev)))
		return DRV_FAIL(d, rc, "cuDevicePrimaryCtxReset", err, errlen);
	px_logf(d->log, "cu: primary context reset after an error; modules and buffers are gone");
	return PX_OK;
}

px_status drv_sync(drv_ctx *d, const char *what, char *err, size_t errlen)
{
	CUresult rc = d->f.CtxSynchronize();
	if (!rc)
		return PX_OK;
	char call[160];
	snprintf(call, sizeof call, "cuCtxSynchronize after %s", what);
	return DRV_FAIL(d, rc, call, err, errlen);
}

px_status drv_mem_info(drv_ctx *d, uint64_t *free_b, uint64_t *total_b, char *err, size_t errlen)
{
	size_t f = 0, t = 0;
	CUresult rc = d->f.MemGetInfo(&f, &t);
	if (rc)
		return DRV_FAIL(d, rc, "cuMemGetInfo", err, errlen);
	*free_b = f;
	*total_b = t;
	return PX_OK;
}
