/* A fake libcuda.so.1 for the tests of the library and the rig on machines without a GPU.
 *
 * It exports the entry points loader/cu_api.h resolves, keeps "device"
 * memory in host memory (every range checked against its allocation), and
 * "runs" a kernel by transposing on the CPU per kernel ABI v2 or v3 (abi=3:
 * the batch's dimension records, loader/abi.h), or by moving tiles per v4
 * (abi=4, grid=pack: the tile's dimensions) after checking
 * the launch against the PTX's metadata (grid, block, dynamic shared memory,
 * parameter ranges). Streams, capture, graphs, events and the model clock
 * that makes event timings deterministic are in stream.c (its comment says
 * how time advances, and which variables change the model).
 *
 * Behaviour is chosen by markers in the PTX text ("// fakecuda: wrong") and
 * by the environment:
 *   bogus             the JIT fails with an error log (CUDA_ERROR_INVALID_PTX)
 *   fakecuda: wrong   one element of the result is wrong: out[j=1][i=2] (or [0][0])
 *   fakecuda: pad     writes into the ld_out padding of row 0
 *   fakecuda: overrun writes one byte past the end of out
 *   fakecuda: gap     writes into the gap after the first matrix of a batch
 *   fakecuda: fault   the launch faults: CUDA_ERROR_ILLEGAL_ADDRESS, sticky
 *   fakecuda: refuse  cuLaunchKernel refuses it: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
 *   fakecuda: regs=N  N registers a thread (so fewer threads a block)
 *   fakecuda: speed=N the kernel runs at N GB/s (default 1500; the copy 2000)
 *   FAKECUDA_INIT=N   cuInit returns N
 *   FAKECUDA_DEVICES=N  devices (default 1)
 *   FAKECUDA_MEM=N    device memory in bytes (default 1 GiB)
 *   FAKECUDA_NO_PINNED=1  cuMemAllocHost fails
 *   FAKECUDA_CC=NN    compute capability x 10 (default 90)
 * Build (ninja does): cc -shared -fPIC -fvisibility=hidden -I/usr/local/cuda/include
 *   libcuda.c stream.c -o libcuda.so.1 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "loader/abi.h"
#include "loader/meta.h"

typedef struct alloc {
	struct alloc *next;
	unsigned char *p;
	size_t bytes;
	int pinned;
} alloc;

typedef struct module {
	struct module *next;
	char kernel[128];
	unsigned elem, block[3], tile[2], row_step, dyn_smem;
	unsigned long long per_block;
	int linear, flat, copy, wrong, pad, overrun, gap, fault, refuse, regs, v3, v4, pack;
	double speed;
} module;

typedef struct {
	char *ptx;
	char *info, *elog;
	unsigned info_size, elog_size;
	int verbose;
	void **vals;
	int wall_slot;
} link_state;

static struct {
	int init, ndev, ctx_refs, no_pinned, cc;
	CUresult sticky;
	size_t mem_total, mem_used;
	alloc *allocs;
	module *modules;
} g;

/* The primary context's handle is the address of ctx_token; cuCtxCreate_v2
 * makes others (other_tokens), which exist only to own streams, for the
 * library's test of a stream of another context. The current context is
 * per thread, with a stack for cuCtxPushCurrent/PopCurrent. */
static int ctx_token, other_tokens[8];
static int nother;
#define STACK 16
static _Thread_local CUcontext stack[STACK];
static _Thread_local int depth; /* stack[depth - 1] is current */

static pthread_mutex_t fake_mu;
static pthread_once_t fake_once = PTHREAD_ONCE_INIT;

static void fake_mu_init(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE); /* entry points call each other */
	pthread_mutex_init(&fake_mu, &a);
	pthread_mutexattr_destroy(&a);
}

void fake_lock(void)
{
	pthread_once(&fake_once, fake_mu_init);
	pthread_mutex_lock(&fake_mu);
}

void fake_unlock_at(int *unused)
{
	(void)unused;
	pthread_mutex_unlock(&fake_mu);
}

CUcontext fake_current(void)
{
	return depth ? stack[depth - 1] : NULL;
}

static int known_ctx(CUcontext c)
{
	for (int i = 0; i < nother; i++)
		if (c == (CUcontext)&other_tokens[i])
			return 1;
	return c == (CUcontext)&ctx_token;
}

static CUresult ready(void)
{
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!fake_current())
		return CUDA_ERROR_INVALID_CONTEXT;
	return g.sticky;
}

static alloc *find(CUdeviceptr p, size_t bytes, int pinned)
{
	for (alloc *a = g.allocs; a; a = a->next)
		if (a->pinned == pinned && (uintptr_t)p >= (uintptr_t)a->p &&
		    (uintptr_t)p + bytes <= (uintptr_t)a->p + a->bytes)
			return a;
	return NULL;
}

CUresult fake_ready(void)
{
	return ready();
}

int fake_mapped(CUdeviceptr p, size_t bytes)
{
	return find(p, bytes, 0) != NULL;
}

void fake_fault(void)
{
	g.sticky = CUDA_ERROR_ILLEGAL_ADDRESS; /* reported by the next call, as a GPU does */
}

/* ---- init, device, context ---- */

EXPORT CUresult cuInit(unsigned flags)
{
	FAKE_LOCKED;
	const char *e = getenv("FAKECUDA_INIT");
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (e && atoi(e))
		return (CUresult)atoi(e);
	g.init = 1;
	g.ndev = getenv("FAKECUDA_DEVICES") ? atoi(getenv("FAKECUDA_DEVICES")) : 1;
	g.mem_total = getenv("FAKECUDA_MEM") ? strtoull(getenv("FAKECUDA_MEM"), NULL, 10) : (1ull << 30);
	g.no_pinned = getenv("FAKECUDA_NO_PINNED") != NULL;
	g.cc = getenv("FAKECUDA_CC") ? atoi(getenv("FAKECUDA_CC")) : 90;
	fake_stream_init();
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
	FAKE_LOCKED;
	*v = 13000;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
	FAKE_LOCKED;
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	*n = g.ndev;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	FAKE_LOCKED;
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= g.ndev)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = ordinal;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	FAKE_LOCKED;
	const char *as = getenv("FAKECUDA_NAME"); /* a device name to report, for the model's table */
	if (as)
		snprintf(name, (size_t)len, "%s", as);
	else
		snprintf(name, (size_t)len, "Fake CUDA Device %d", d);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	FAKE_LOCKED;
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 4; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = g.cc / 10; break; /* FAKECUDA_CC, default 90 */
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = g.cc % 10; break;
	case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 1 << 20; break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 227 << 10; break;
	/* the plan model's: an H100's */
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 228 << 10; break;
	case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *v = 1024; break;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 32; break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d)
{
	FAKE_LOCKED;
	*b = g.mem_total;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	FAKE_LOCKED;
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	g.ctx_refs++;
	*c = (CUcontext)&ctx_token;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
	FAKE_LOCKED;
	if (g.ctx_refs <= 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	g.ctx_refs--;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice d)
{
	FAKE_LOCKED;
	while (g.allocs) {
		alloc *a = g.allocs;
		g.allocs = a->next;
		free(a->p);
		free(a);
	}
	while (g.modules) {
		module *m = g.modules;
		g.modules = m->next;
		free(m);
	}
	g.mem_used = 0;
	g.sticky = CUDA_SUCCESS;
	fake_stream_reset();
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSetCurrent(CUcontext c)
{
	FAKE_LOCKED;
	if (c && !known_ctx(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!c)
		depth = depth ? depth - 1 : 0; /* as the driver: it pops the current one */
	else if (depth)
		stack[depth - 1] = c;
	else
		stack[depth++] = c;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetCurrent(CUcontext *c)
{
	FAKE_LOCKED;
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	*c = fake_current();
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxGetDevice(CUdevice *d)
{
	FAKE_LOCKED;
	if (!fake_current())
		return CUDA_ERROR_INVALID_CONTEXT;
	*d = 0;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPushCurrent_v2(CUcontext c)
{
	FAKE_LOCKED;
	if (!known_ctx(c) || depth == STACK)
		return CUDA_ERROR_INVALID_CONTEXT;
	stack[depth++] = c;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *c)
{
	FAKE_LOCKED;
	if (!depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	*c = stack[--depth];
	return CUDA_SUCCESS;
}

/* Another context, current on this thread (its streams are all it is for). */
EXPORT CUresult cuCtxCreate_v2(CUcontext *c, unsigned flags, CUdevice d)
{
	FAKE_LOCKED;
	if (!g.init)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (nother == 8 || depth == STACK)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*c = (CUcontext)&other_tokens[nother++];
	stack[depth++] = *c;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxDestroy_v2(CUcontext c)
{
	FAKE_LOCKED;
	if (!known_ctx(c) || c == (CUcontext)&ctx_token)
		return CUDA_ERROR_INVALID_CONTEXT;
	for (int i = 0; i < depth; i++)
		if (stack[i] == c)
			stack[i] = (CUcontext)&ctx_token; /* good enough for a test */
	return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSynchronize(void)
{
	FAKE_LOCKED;
	CUresult rc = fake_unsafe_in_capture(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	return rc ? rc : ready();
}

/* ---- errors ---- */

static const struct {
	CUresult rc;
	const char *name, *text;
} errors[] = {
	{CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
	{CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	{CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	{CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
	{CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	{CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
	{CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	{CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	{CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	{CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	{CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
	{CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state"},
	{CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
	 "operation not permitted when stream is capturing"},
	{CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
	 "operation failed due to a previous error during capture"},
	{CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
	 "operation would make the legacy stream depend on a capturing blocking stream"},
};

static CUresult lookup(CUresult rc, const char **s, int text)
{
	for (size_t k = 0; k < sizeof errors / sizeof errors[0]; k++)
		if (errors[k].rc == rc) {
			*s = text ? errors[k].text : errors[k].name;
			return CUDA_SUCCESS;
		}
	*s = NULL; /* like the real driver, for codes it does not know */
	return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorName(CUresult rc, const char **s) { return lookup(rc, s, 0); }
EXPORT CUresult cuGetErrorString(CUresult rc, const char **s) { return lookup(rc, s, 1); }

/* ---- memory ---- */

static CUresult add_alloc(void **p, size_t bytes, int pinned)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc)
		return rc;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (!pinned && g.mem_used + bytes > g.mem_total)
		return CUDA_ERROR_OUT_OF_MEMORY;
	alloc *a = calloc(1, sizeof *a);
	/* 256-byte aligned, as cuMemAlloc's pointers are (the plans' alignment classes) */
	if (!a || !(a->p = aligned_alloc(256, (bytes + 255) / 256 * 256))) {
		free(a);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memset(a->p, 0x3c, bytes); /* neither zero nor the rig's poison */
	a->bytes = bytes;
	a->pinned = pinned;
	a->next = g.allocs;
	g.allocs = a;
	if (!pinned)
		g.mem_used += bytes;
	*p = a->p;
	return CUDA_SUCCESS;
}

static CUresult drop_alloc(void *p, int pinned)
{
	for (alloc **pa = &g.allocs; *pa; pa = &(*pa)->next)
		if ((*pa)->p == p && (*pa)->pinned == pinned) {
			alloc *a = *pa;
			*pa = a->next;
			if (!pinned)
				g.mem_used -= a->bytes;
			free(a->p);
			free(a);
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
	FAKE_LOCKED;
	void *q = NULL;
	CUresult rc = fake_unsafe_in_capture(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	if (rc)
		return rc;
	rc = add_alloc(&q, bytes, 0);
	*p = (CUdeviceptr)(uintptr_t)q;
	return rc;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
	FAKE_LOCKED;
	return drop_alloc((void *)(uintptr_t)p, 0);
}

EXPORT CUresult cuMemAllocHost_v2(void **p, size_t bytes)
{
	FAKE_LOCKED;
	return g.no_pinned ? CUDA_ERROR_OUT_OF_MEMORY : add_alloc(p, bytes, 1);
}

EXPORT CUresult cuMemFreeHost(void *p)
{
	FAKE_LOCKED;
	return drop_alloc(p, 1);
}

EXPORT CUresult cuMemGetInfo_v2(size_t *f, size_t *t)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc)
		return rc;
	*f = g.mem_total - g.mem_used;
	*t = g.mem_total;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *h, size_t n)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc || !find(d, n, 0))
		return rc ? rc : CUDA_ERROR_INVALID_VALUE;
	memcpy((void *)(uintptr_t)d, h, n);
	fake_forget();
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *h, CUdeviceptr d, size_t n)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc || !find(d, n, 0))
		return rc ? rc : CUDA_ERROR_INVALID_VALUE;
	memcpy(h, (void *)(uintptr_t)d, n);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc || !find(d, n, 0) || !find(s, n, 0))
		return rc ? rc : CUDA_ERROR_INVALID_VALUE;
	memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
	fake_forget();
	fake_advance(fake_launch_us(), 2.0 * n, 2000);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc || !find(d, n, 0))
		return rc ? rc : CUDA_ERROR_INVALID_VALUE;
	memset((void *)(uintptr_t)d, v, n);
	fake_forget();
	fake_advance(fake_launch_us(), (double)n, 3000);
	return CUDA_SUCCESS;
}

/* ---- JIT and modules ---- */

static unsigned long long meta_num(const char *ptx, const char *key, unsigned long long dflt)
{
	const char *p = strstr(ptx, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : dflt;
}

static void meta_dims(const char *ptx, const char *key, unsigned *d, int n)
{
	const char *p = strstr(ptx, key);
	for (int k = 0; k < n; k++)
		d[k] = 1;
	for (int k = 0; p && k < n; k++) {
		char *end;
		d[k] = (unsigned)strtoul(p + (k ? 1 : strlen(key)), &end, 10);
		p = *end == 'x' ? end : NULL;
	}
}

EXPORT CUresult cuLinkCreate_v2(unsigned n, CUjit_option *opt, void **val, CUlinkState *out)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc)
		return rc;
	link_state *l = calloc(1, sizeof *l);
	l->vals = val;
	l->wall_slot = -1;
	for (unsigned k = 0; k < n; k++) {
		switch (opt[k]) {
		case CU_JIT_INFO_LOG_BUFFER: l->info = val[k]; break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: l->info_size = (unsigned)(uintptr_t)val[k]; break;
		case CU_JIT_ERROR_LOG_BUFFER: l->elog = val[k]; break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: l->elog_size = (unsigned)(uintptr_t)val[k]; break;
		case CU_JIT_LOG_VERBOSE: l->verbose = (int)(uintptr_t)val[k]; break;
		case CU_JIT_WALL_TIME: l->wall_slot = (int)k; break;
		default: free(l); return CUDA_ERROR_INVALID_VALUE;
		}
	}
	*out = (CUlinkState)l;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkAddData_v2(CUlinkState st, CUjitInputType type, void *data, size_t size, const char *name,
				 unsigned n, CUjit_option *o, void **v)
{
	FAKE_LOCKED;
	link_state *l = (link_state *)st;
	if (type != CU_JIT_INPUT_PTX || !size || ((char *)data)[size - 1] != '\0' || strlen(data) + 1 != size)
		return CUDA_ERROR_INVALID_VALUE;
	if (strstr(data, "bogus")) {
		if (l->elog && l->elog_size)
			snprintf(l->elog, l->elog_size,
				 "ptxas application ptx input, line 12; error   : Not a name of any known instruction: 'bogus'\n"
				 "ptxas fatal   : Ptx assembly aborted due to errors\n");
		return CUDA_ERROR_INVALID_PTX;
	}
	l->ptx = strdup(data);
	if (l->verbose && l->info && l->info_size)
		snprintf(l->info, l->info_size, "ptxas info    : Compiling entry function '%s' for 'sm_90'\n", name);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkComplete(CUlinkState st, void **cubin, size_t *size)
{
	FAKE_LOCKED;
	link_state *l = (link_state *)st;
	if (!l->ptx)
		return CUDA_ERROR_INVALID_VALUE;
	*cubin = l->ptx;
	*size = strlen(l->ptx) + 1;
	if (l->wall_slot >= 0) {
		float ms = 1.5f;
		memcpy(&l->vals[l->wall_slot], &ms, sizeof ms);
	}
	return CUDA_SUCCESS;
}

EXPORT CUresult cuLinkDestroy(CUlinkState st)
{
	FAKE_LOCKED;
	link_state *l = (link_state *)st;
	free(l->ptx);
	free(l);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadData(CUmodule *out, const void *image)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc)
		return rc;
	const char *ptx = image;
	module *m = calloc(1, sizeof *m);
	const char *k = strstr(ptx, "kernel=");
	if (!k)
		return free(m), CUDA_ERROR_INVALID_IMAGE;
	sscanf(k + 7, "%127[A-Za-z0-9_$]", m->kernel);
	m->elem = (unsigned)meta_num(ptx, " elem=", 32);
	m->linear = strstr(ptx, "grid=linear") != NULL;
	m->v4 = strstr(ptx, " abi=4 ") != NULL;
	m->v3 = strstr(ptx, " abi=3 ") != NULL || m->v4;
	m->pack = strstr(ptx, "grid=pack") != NULL;
	m->flat = strstr(ptx, "grid=flat") != NULL;
	m->copy = strstr(ptx, " op=copy ") != NULL; /* a row copy (gen/tp_rowcopy.c): out[i][j] = in[i][j] */
	meta_dims(ptx, " block=", m->block, 3);
	meta_dims(ptx, " tile=", m->tile, 2);
	m->row_step = (unsigned)meta_num(ptx, " row_step=", m->tile[0]); /* a sheared kernel's (docs/DESIGN.md) */
	if (!m->row_step)
		m->row_step = 1;
	m->per_block = meta_num(ptx, "per_block=", 1);
	m->dyn_smem = (unsigned)meta_num(ptx, "dyn_smem=", 0);
	m->wrong = strstr(ptx, "fakecuda: wrong") != NULL;
	m->pad = strstr(ptx, "fakecuda: pad") != NULL;
	m->overrun = strstr(ptx, "fakecuda: overrun") != NULL;
	m->gap = strstr(ptx, "fakecuda: gap") != NULL;
	m->fault = strstr(ptx, "fakecuda: fault") != NULL;
	m->refuse = strstr(ptx, "fakecuda: refuse") != NULL;
	m->regs = (int)meta_num(ptx, "fakecuda: regs=", 32);
	m->speed = (double)meta_num(ptx, "fakecuda: speed=", 1500);
	m->next = g.modules;
	g.modules = m;
	*out = (CUmodule)m;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n, CUjit_option *opt, void **val)
{
	FAKE_LOCKED;
	CUlinkState l = NULL;
	CUresult rc = cuLinkCreate_v2(n, opt, val, &l);
	if (rc)
		return rc;
	if (!(rc = cuLinkAddData_v2(l, CU_JIT_INPUT_PTX, (void *)image, strlen(image) + 1, "ptx", 0, NULL, NULL)))
		rc = cuModuleLoadData(out, image);
	cuLinkDestroy(l);
	return rc;
}

EXPORT CUresult cuModuleUnload(CUmodule mod)
{
	FAKE_LOCKED;
	for (module **pm = &g.modules; *pm; pm = &(*pm)->next)
		if (*pm == (module *)mod) {
			*pm = (*pm)->next;
			free(mod);
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name)
{
	FAKE_LOCKED;
	module *m = (module *)mod;
	if (strcmp(m->kernel, name))
		return CUDA_ERROR_NOT_FOUND;
	*f = (CUfunction)m;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	FAKE_LOCKED;
	module *m = (module *)f;
	switch (a) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 65536 / m->regs > 1024 ? 1024 : 65536 / m->regs; break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = 8448; break;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *v = 0; break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = m->regs; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

EXPORT CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	FAKE_LOCKED;
	return a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES && v <= (227 << 10) ? CUDA_SUCCESS
										       : CUDA_ERROR_INVALID_VALUE;
}

/* ---- launch: check it against the metadata, then transpose on the CPU ---- */

/* The grid of kernel ABI v2 (docs/DESIGN.md) for this launch: exactly, or
 * within PTXPOSE_GRID_MAX=XxYxZ when the test knob is set. */
static int grid_ok(const module *m, unsigned gx, unsigned gy, unsigned gz, uint32_t rows, uint32_t cols,
		   uint32_t batch)
{
	unsigned long long want[3], got[3] = {gx, gy, gz}, cap[3] = {0x7fffffffu, 65535, 65535};
	want[0] = m->linear ? ((unsigned long long)rows * cols + m->per_block - 1) / m->per_block
			    : (cols + m->tile[1] - 1) / m->tile[1];
	want[1] = m->linear ? 1 : (rows + m->row_step - 1) / m->row_step;
	want[2] = batch;
	if (m->flat) { /* chunks of floor(per_block / (rows*cols)) whole matrices, at least one */
		unsigned long long rc = (unsigned long long)rows * cols, per = rc > m->per_block ? 1 : m->per_block / rc;
		want[0] = (batch + per - 1) / per, want[1] = want[2] = 1;
	}
	if (m->pack) /* the blocks walk the tiles: loader/meta.c's rule */
		want[0] = meta_pack_blocks(batch, m->block[0] * m->block[1] * m->block[2]), want[1] = want[2] = 1;
	const char *v = getenv("PTXPOSE_GRID_MAX");
	if (v && sscanf(v, "%llux%llux%llu", &cap[0], &cap[1], &cap[2]) != 3)
		return 0;
	for (int k = 0; k < 3; k++)
		if (got[k] != (want[k] < cap[k] ? want[k] : cap[k]))
			return 0;
	return 1;
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			       unsigned bz, unsigned smem, CUstream s, void **args, void **extra)
{
	FAKE_LOCKED;
	CUresult rc = ready();
	if (rc)
		return rc;
	module *m = (module *)f;
	if (m->refuse)
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	/* .u64 in, out; .u32 rows, cols, ld_in, ld_out, batch; .u64 stride_in, stride_out */
	fake_launch l;
	memset(&l, 0, sizeof l);
	l.module = m;
	l.in = *(CUdeviceptr *)args[0];
	l.out = *(CUdeviceptr *)args[1];
	l.rows = *(uint32_t *)args[2];
	l.cols = *(uint32_t *)args[3];
	l.ld_in = *(uint32_t *)args[4];
	l.ld_out = *(uint32_t *)args[5];
	l.batch = *(uint32_t *)args[6];
	l.stride_in = *(uint64_t *)args[7];
	l.stride_out = *(uint64_t *)args[8];
	if ((l.v3 = m->v3))
		memcpy(l.bdims, args[9], sizeof l.bdims);
	if ((l.v4 = m->v4))
		memcpy(l.tdims, args[10], sizeof l.tdims);
	if (extra || !l.batch || !grid_ok(m, gx, gy, gz, l.rows, l.cols, l.batch) || bx != m->block[0] ||
	    by != m->block[1] || bz != m->block[2] || smem != m->dyn_smem)
		return CUDA_ERROR_INVALID_VALUE;
	unsigned dims[] = {gx, gy, gz, bx, by, bz};
	memcpy(l.grid, dims, sizeof l.grid);
	memcpy(l.block, dims + 3, sizeof l.block);
	l.smem = smem;
	return fake_submit_launch(s, &l);
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Matrix b's offsets in elements: b strides (v2), or b's index along each
 * of the batch's dimensions times its strides (v3: the records, the fastest
 * first, decoded with their magic numbers as the kernels do, so that wrong
 * records give wrong results here too). */
static void matrix_at(const fake_launch *l, uint64_t b, uint64_t *oi, uint64_t *oo)
{
	*oi = b * l->stride_in, *oo = b * l->stride_out;
	if (!l->v3)
		return;
	*oi = *oo = 0;
	for (int k = 0; k < ABI_BDIMS; k++) {
		const uint8_t *r = l->bdims + k * ABI_BDIM_BYTES;
		uint64_t q = (b * get_le(r + ABI_BDIM_MAGIC, 8)) >> (get_le(r + ABI_BDIM_SHIFT, 4) & 63);
		uint64_t x = b - q * get_le(r + ABI_BDIM_EXTENT, 4);
		*oi += x * get_le(r + ABI_BDIM_STRIDE_IN, 8), *oo += x * get_le(r + ABI_BDIM_STRIDE_OUT, 8);
		b = q;
	}
}

/* Kernel ABI v4: each tile's positions, decoded as the pack kernels do (the
 * in-list gives the input's offset, the shared offset and the split
 * digits; the shared offset decoded over the out-list the output's), each
 * element's range checked. 0, or -1 after a fault. */
static int pack_run(const fake_launch *l, size_t eb, int work)
{
	const uint8_t *t = l->tdims;
	uint64_t vol = get_le(t + ABI_TD_VOL, 4), nsplit = get_le(t + ABI_TD_NSPLIT, 4);
	for (uint64_t b = 0; b < l->batch; b++) {
		uint64_t oi, oo, lim[2] = {~0ull, ~0ull}, r[2] = {0, 0}, q = b;
		matrix_at(l, b, &oi, &oo);
		for (int k = 0; k < 2; k++) { /* split k's tile index: batch record k's digit */
			const uint8_t *rec = l->bdims + k * ABI_BDIM_BYTES;
			uint64_t e = get_le(rec + ABI_BDIM_EXTENT, 4);
			r[k] = q % e, q /= e;
		}
		for (uint64_t k = 0; k < nsplit && k < 2; k++) {
			uint64_t full = get_le(t + ABI_TD_SPLIT_FULL + 4 * k, 4), ext = get_le(t + ABI_TD_SPLIT_EXT + 4 * k, 4);
			lim[k] = full - r[k] * ext < ext ? full - r[k] * ext : ext;
		}
		for (uint64_t p = 0; p < vol; p++) {
			uint64_t x = p, gin = 0, sm = 0, gout = 0, valid = 1;
			for (int k = 0; k < ABI_TDIMS; k++) {
				const uint8_t *rec = t + ABI_TD_IN + k * ABI_TD_REC;
				uint64_t e = get_le(rec + ABI_TR_EXT, 4), d = x % e, sp = get_le(rec + ABI_TR_SPLIT, 4);
				x /= e;
				gin += d * (uint64_t)(int64_t)(int32_t)get_le(rec + ABI_TR_STRIDE, 4);
				sm += d * get_le(rec + ABI_TR_SMEM, 4);
				valid &= !sp || sp > 2 || d < lim[sp - 1];
			}
			x = sm / eb;
			for (int k = 0; k < ABI_TDIMS; k++) {
				const uint8_t *rec = t + ABI_TD_OUT + k * ABI_TD_REC;
				uint64_t e = get_le(rec + ABI_TR_EXT, 4);
				gout += x % e * (uint64_t)(int64_t)(int32_t)get_le(rec + ABI_TR_STRIDE, 4);
				x /= e;
			}
			CUdeviceptr src = l->in + oi * eb + gin, dst = l->out + oo * eb + gout;
			if (!valid)
				continue;
			if (!find(src, eb, 0) || !find(dst, eb, 0)) {
				fake_fault();
				return -1;
			}
			if (work)
				memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, eb);
		}
	}
	return 0;
}

double fake_launch_run(const fake_launch *l, int work)
{
	const module *m = l->module;
	if (l->v4) {
		if (m->fault)
			fake_fault();
		if (m->fault || pack_run(l, m->elem / 8, work))
			return -1;
		return 2.0 * l->batch * get_le(l->tdims + ABI_TD_VOL, 4) * (m->elem / 8) / (m->speed * 1e3);
	}
	uint64_t rows = l->rows, cols = l->cols, ld_in = l->ld_in, ld_out = l->ld_out;
	size_t eb = m->elem / 8;
	uint64_t batch = l->batch, stride_out = l->stride_out, last_in, last_out;
	matrix_at(l, batch - 1, &last_in, &last_out); /* the farthest matrix on both sides (strides >= 0) */
	/* the bytes a kernel touches: to the last element (N-d layouts end there) */
	uint64_t in_bytes = (last_in + (rows - 1) * ld_in + cols) * eb;
	uint64_t out_bytes = (last_out + (m->copy ? (rows - 1) * ld_out + cols : (cols - 1) * ld_out + rows)) * eb;
	if (m->fault || !find(l->in, in_bytes, 0) || !find(l->out, out_bytes, 0)) {
		fake_fault();
		return -1;
	}
	for (uint64_t b = 0; work && b < batch; b++) {
		uint64_t oi, oo;
		matrix_at(l, b, &oi, &oo);
		unsigned char *src = (unsigned char *)(uintptr_t)l->in + oi * eb;
		unsigned char *dst = (unsigned char *)(uintptr_t)l->out + oo * eb;
		if (l->v3 && (oi > last_in || oo > last_out)) { /* records that are not a batch's: out of range */
			fake_fault();
			return -1;
		}
		for (uint64_t i = 0; i < rows; i++)
			for (uint64_t j = 0; j < cols; j++)
				memcpy(dst + (m->copy ? i * ld_out + j : j * ld_out + i) * eb, src + (i * ld_in + j) * eb, eb);
	}
	unsigned char *dst = (unsigned char *)(uintptr_t)l->out + last_out * eb; /* the last matrix */
	if (work && m->wrong)
		dst[((cols > 1 && rows > 2) ? 1 * ld_out + 2 : 0) * eb] ^= 0x10;
	if (work && m->pad && ld_out > rows)
		dst[rows * eb] = 0;
	if (work && m->overrun && find(l->out, out_bytes + 1, 0))
		((unsigned char *)(uintptr_t)l->out)[out_bytes] = 0;
	if (work && m->gap && batch > 1 && stride_out > cols * ld_out)
		((unsigned char *)(uintptr_t)l->out)[cols * ld_out * eb] = 0;
	return 2.0 * batch * rows * cols * eb / (m->speed * 1e3);
}
