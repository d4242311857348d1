/* cu: libcuda.so.1 opened at run time, the device, its primary context, and
 * driver error text. */
#include "loader/cu_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CU_LIB "libcuda.so.1"

static const struct {
	const char *sym, *alt;
	size_t off;
} entry_points[] = {
#define CU_ROW(field, sym, alt, type) {sym, alt, offsetof(cu_fns, field)},
	CU_ENTRY_POINTS(CU_ROW)
#undef CU_ROW
};

const char *cu_error_text(const cu_ctx *cu, CUresult rc, char *buf, size_t len)
{
	const char *name = NULL, *text = NULL;
	if (cu->f->GetErrorName && cu->f->GetErrorName(rc, &name) != CUDA_SUCCESS)
		name = NULL;
	if (cu->f->GetErrorString && cu->f->GetErrorString(rc, &text) != CUDA_SUCCESS)
		text = NULL;
	return px_cuda_error_str((int)rc, name, text, buf, len);
}

px_status cu_fail(const cu_ctx *cu, CUresult rc, const char *file, int line, const char *call,
		  char *err, size_t errlen)
{
	char text[256];
	snprintf(err, errlen, "%s:%d: %s: %s", file, line, call, cu_error_text(cu, rc, text, sizeof text));
	return rc == CUDA_ERROR_OUT_OF_MEMORY ? PX_ENOMEM : PX_ECUDA;
}

static px_status resolve(void *dl, cu_fns *f, char *err, size_t errlen)
{
	for (size_t k = 0; k < sizeof entry_points / sizeof entry_points[0]; k++) {
		void *p = dlsym(dl, entry_points[k].sym);
		if (!p && entry_points[k].alt)
			p = dlsym(dl, entry_points[k].alt);
		if (!p) {
			snprintf(err, errlen, "the CUDA driver " CU_LIB " has no %s: too old for ptxpose (CUDA 11 or newer needed)",
				 entry_points[k].sym);
			return PX_ENODRIVER;
		}
		/* POSIX: a dlsym result converts to the function pointer it names */
		memcpy((char *)f + entry_points[k].off, &p, sizeof p);
	}
	return PX_OK;
}

/* The driver, opened and initialized once a process: its outcome (and
 * message) stay for every later call. */
static struct {
	pthread_mutex_t mu;
	int tried;
	px_status st;
	char err[512];
	void *dl;
	cu_fns f;
} drv = {.mu = PTHREAD_MUTEX_INITIALIZER};

static px_status load_driver(char *err, size_t errlen)
{
	const char *lib = getenv("PTXPOSE_LIBCUDA");
	if (!lib || !*lib)
		lib = CU_LIB;
	if (!(drv.dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) {
		/* dlerror names the file: "libcuda.so.1: cannot open shared object file: ..." */
		const char *why = dlerror();
		size_t n = strlen(lib);
		if (why && !strncmp(why, lib, n) && why[n] == ':')
			snprintf(err, errlen, "no CUDA driver: %s", why);
		else
			snprintf(err, errlen, "no CUDA driver: %s: %s", lib, why ? why : "dlopen failed");
		return PX_ENODRIVER;
	}
	/* libcuda.so.1 stays mapped for the process: its threads may outlive
	 * any handle, and unloading a driver under a loaded libcublas is asking
	 * for trouble */
	px_status st = resolve(drv.dl, &drv.f, err, errlen);
	CUresult rc;
	if (!st && (rc = drv.f.Init(0))) {
		cu_ctx tmp = {.f = &drv.f};
		char text[256];
		cu_error_text(&tmp, rc, text, sizeof text);
		if (rc == CUDA_ERROR_NO_DEVICE) {
			snprintf(err, errlen, "no CUDA device (cuInit: %s)", text);
			st = PX_ENODEVICE;
		} else {
			snprintf(err, errlen, "the CUDA driver cannot start (cuInit: %s)", text);
			st = PX_ENODRIVER;
		}
	}
	return st;
}

px_status cu_driver(const cu_fns **out, char *err, size_t errlen)
{
	pthread_mutex_lock(&drv.mu);
	if (!drv.tried) {
		drv.st = load_driver(drv.err, sizeof drv.err);
		drv.tried = 1;
	}
	px_status st = drv.st;
	pthread_mutex_unlock(&drv.mu);
	*out = st ? NULL : &drv.f;
	if (st)
		snprintf(err, errlen, "%s", drv.err);
	return st;
}

void *cu_driver_symbol(const char *name)
{
	return drv.dl ? dlsym(drv.dl, name) : NULL;
}

static px_status device_info(cu_ctx *cu, int ordinal, char *err, size_t errlen)
{
	cu_devinfo *d = &cu->info;
	CUresult rc;
	int count = 0;
	if ((rc = cu->f->DeviceGetCount(&count)))
		return CU_FAIL(cu, rc, "cuDeviceGetCount", err, errlen);
	if (count == 0 || ordinal >= count) {
		snprintf(err, errlen, "no CUDA device%s (the driver sees %d)", count ? " of that ordinal" : "", count);
		return PX_ENODEVICE;
	}
	if ((rc = cu->f->DeviceGet(&cu->dev, ordinal)))
		return CU_FAIL(cu, rc, "cuDeviceGet", err, errlen);
	d->ordinal = ordinal;
	if ((rc = cu->f->DeviceGetName(d->name, (int)sizeof d->name, cu->dev)))
		return CU_FAIL(cu, rc, "cuDeviceGetName", err, errlen);
	/* optional: what the plan model needs beyond the rest, 0 where the driver does not say */
	static const struct {
		CUdevice_attribute attr;
		size_t off;
		int optional;
	} attrs[] = {
		{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(cu_devinfo, cc_major), 0},
		{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(cu_devinfo, cc_minor), 0},
		{CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, offsetof(cu_devinfo, l2_bytes), 0},
		{CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, offsetof(cu_devinfo, smem_optin), 0},
		{CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(cu_devinfo, sm_count), 0},
		{CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, offsetof(cu_devinfo, bus_bits), 1},
		{CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, offsetof(cu_devinfo, blocks_per_sm), 1},
		{CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, offsetof(cu_devinfo, regs_per_sm), 1},
		{CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, offsetof(cu_devinfo, smem_per_sm), 1},
		{CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, offsetof(cu_devinfo, threads_per_sm), 1},
		{CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, offsetof(cu_devinfo, mem_clock_khz), 1},
		{CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, offsetof(cu_devinfo, smem_reserved), 1},
	};
	for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++) {
		int *v = (int *)((char *)d + attrs[k].off);
		if ((rc = cu->f->DeviceGetAttribute(v, attrs[k].attr, cu->dev)) && !attrs[k].optional)
			return CU_FAIL(cu, rc, "cuDeviceGetAttribute", err, errlen);
		if (attrs[k].optional && (rc || *v < 0))
			*v = 0;
	}
	size_t total = 0;
	if ((rc = cu->f->DeviceTotalMem(&total, cu->dev)))
		return CU_FAIL(cu, rc, "cuDeviceTotalMem", err, errlen);
	d->total_mem = total;
	return PX_OK;
}

static px_status take_context(cu_ctx *cu, char *err, size_t errlen)
{
	CUresult rc;
	if ((rc = cu->f->DevicePrimaryCtxRetain(&cu->ctx, cu->dev)))
		return CU_FAIL(cu, rc, "cuDevicePrimaryCtxRetain", err, errlen);
	cu->retained = 1;
	if ((rc = cu->f->CtxSetCurrent(cu->ctx)))
		return CU_FAIL(cu, rc, "cuCtxSetCurrent", err, errlen);
	return PX_OK;
}

/* A fresh cu_ctx on the process's driver, its version known. */
static px_status cu_new(cu_ctx **out, const px_log *log, char *err, size_t errlen)
{
	*out = NULL;
	cu_ctx *cu = calloc(1, sizeof *cu);
	if (!cu) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	cu->log = log;
	px_status st = cu_driver(&cu->f, err, errlen);
	CUresult rc;
	if (!st && (rc = cu->f->DriverGetVersion(&cu->info.driver_version)))
		st = CU_FAIL(cu, rc, "cuDriverGetVersion", err, errlen);
	if (st) {
		free(cu);
		return st;
	}
	*out = cu;
	return PX_OK;
}

/* "13.0" */
static const char *driver_str(const cu_ctx *cu, char *buf, size_t len)
{
	int v = cu->info.driver_version;
	snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
	return buf;
}

static void log_open(const cu_ctx *cu, const char *how)
{
	const cu_devinfo *d = &cu->info;
	char drv_s[16], mem[32], l2[32];
	px_logf(cu->log, "cu: " CU_LIB " driver %s; device %d: %s, sm_%d%d, %d SMs, %s, L2 %s, %d B shared memory a block (opt-in); %s",
		driver_str(cu, drv_s, sizeof drv_s), d->ordinal, d->name, d->cc_major, d->cc_minor, d->sm_count,
		px_bytes_str(d->total_mem, mem, sizeof mem), px_bytes_str((uint64_t)d->l2_bytes, l2, sizeof l2),
		d->smem_optin, how);
}

px_status cu_attach(cu_ctx **out, const px_log *log, char *err, size_t errlen)
{
	cu_ctx *cu;
	px_status st = cu_new(&cu, log, err, errlen);
	if (st)
		return st;
	CUcontext cur = NULL;
	CUdevice dev = 0;
	CUresult rc = cu->f->CtxGetCurrent(&cur);
	if (!rc && cur && (rc = cu->f->CtxGetDevice(&dev)))
		st = CU_FAIL(cu, rc, "cuCtxGetDevice", err, errlen);
	else if (rc)
		st = CU_FAIL(cu, rc, "cuCtxGetCurrent", err, errlen);
	if (!st)
		st = device_info(cu, cur ? (int)dev : 0, err, errlen);
	if (!st && cur)
		cu->ctx = cur;
	else if (!st)
		st = take_context(cu, err, errlen);
	if (st) {
		cu_close(cu);
		return st;
	}
	log_open(cu, cur ? "the context current at creation" : "its primary context");
	*out = cu;
	return PX_OK;
}

px_status cu_probe(cu_devinfo *out, char *err, size_t errlen)
{
	cu_ctx *cu;
	px_status st = cu_new(&cu, NULL, err, errlen);
	if (st)
		return st;
	if (!(st = device_info(cu, 0, err, errlen)))
		*out = cu->info;
	cu_close(cu);
	return st;
}

void cu_close(cu_ctx *cu)
{
	if (!cu)
		return;
	if (cu->retained) {
		CUcontext cur = NULL;
		if (!cu->f->CtxGetCurrent(&cur) && cur == cu->ctx)
			cu->f->CtxSetCurrent(NULL);
		cu->f->DevicePrimaryCtxRelease(cu->dev);
	}
	free(cu);
}

const cu_devinfo *cu_info(const cu_ctx *cu)
{
	return &cu->info;
}
