/* overhead: the library's own host time, through its public API only
 * (linked with build/libptxpose.a): what ptxpose_execute costs a call with a
 * ready plan (target: at most 5 us), what ptxpose_transpose costs on a warm
 * plan cache (at most 10 us), plan creation cold (the JIT included) and
 * warm, and a measured plan (PTXPOSE_PLAN_MEASURE) plus its first launch
 * (until the stream is done) in a fresh handle: cold, with an empty on-disk
 * cache (a fresh folder in $TMPDIR, removed after), and warm, in a second
 * fresh handle that finds the first one's entry (target: at most 1 ms). Calls go on a stream of the handle's context in runs of --batch,
 * each run timed with CLOCK_MONOTONIC and followed, outside the timing, by a
 * cuStreamSynchronize (so that the launch queue never fills and blocks a
 * call); a figure is the median run / batch.
 *
 * Beside them, the parts of ptxpose_execute timed alone with the same
 * method, so that its own cost shows: the driver calls it makes
 * (cuCtxGetCurrent every call, cuStreamGetCtx for a stream of a context)
 * and a bare cuLaunchKernel of the plan's own kernel (its PTX loaded with
 * cuModuleLoadData, the same grid, block and arguments): launch_floor on
 * the stream, launch_floor_legacy and execute_legacy on the legacy stream
 * (where torch's default stream sends ptxpose.transpose). execute minus
 * launch_floor is what the library adds to the driver.
 *
 *   build/bench/overhead [--rows R --cols C --elem W] [--runs N] [--batch K]
 *
 * --elem W as every ptxpose command reads it (common/elem.h): bits, bytes
 * with a unit (4B) or a type name (f32); default f32.
 *
 * On the GPU the problem is small (default 64x64 floats) so that kernels
 * finish long before the queue fills; against the fake driver
 * (tests/fakecuda) the figures include its own launch, a CPU transpose.
 * Prints one `name value unit` line each, then `target ... ok|MISSED`;
 * exit 0, 1 when a target is missed, 2 usage, the ptxpose_status of a
 * failed call otherwise. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "common/elem.h"
#include "include/ptxpose.h"

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static CUresult (*stream_sync)(CUstream);

static CUresult (*ctx_get_current)(CUcontext *), (*stream_get_ctx)(CUstream, CUcontext *);
static CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
			  void **, void **);

enum op_kind { OP_EXECUTE, OP_TRANSPOSE, OP_LAUNCH, OP_CTX_GET_CURRENT, OP_STREAM_GET_CTX };

typedef struct {
	enum op_kind kind;
	ptxpose_handle h;
	ptxpose_plan plan;
	const ptxpose_desc *d;
	const void *in;
	void *out;
	CUstream s;
	CUfunction fn;            /* OP_LAUNCH: the plan's kernel, loaded here */
	const ptxpose_plan_info *info;
	void **args;              /* OP_LAUNCH: its kernelParams */
} op;

/* One call of o: a ptxpose_status, or PTXPOSE_ERR_CUDA where a driver call failed. */
static ptxpose_status call(const op *o)
{
	CUcontext c;
	switch (o->kind) {
	case OP_EXECUTE: return ptxpose_execute(o->plan, o->in, o->out, (ptxpose_stream)o->s);
	case OP_TRANSPOSE: return ptxpose_transpose(o->h, o->d, o->in, o->out, (ptxpose_stream)o->s);
	case OP_LAUNCH:
		return launch(o->fn, o->info->grid[0], o->info->grid[1], o->info->grid[2], o->info->block[0],
			      o->info->block[1], o->info->block[2], o->info->dyn_smem, o->s, o->args, NULL)
			       ? PTXPOSE_ERR_CUDA : PTXPOSE_OK;
	case OP_CTX_GET_CURRENT: return ctx_get_current(&c) ? PTXPOSE_ERR_CUDA : PTXPOSE_OK;
	case OP_STREAM_GET_CTX: return stream_get_ctx(o->s, &c) ? PTXPOSE_ERR_CUDA : PTXPOSE_OK;
	}
	return PTXPOSE_ERR_INVALID;
}

/* The n ops timed together, interleaved (each run times `batch` calls of
 * every op in turn, so that a noisy moment hits them all): the median run
 * / batch of each, microseconds a call, into us[]. Three runs first, not
 * counted. */
static ptxpose_status timed(const op *o, int n, int runs, int batch, double *us)
{
	double *t = calloc((size_t)(runs * n), sizeof *t);
	ptxpose_status st = t ? PTXPOSE_OK : PTXPOSE_ERR_NO_MEMORY;
	for (int r = -3; r < runs && !st; r++)
		for (int i = 0; i < n && !st; i++) {
			double t0 = now_us();
			for (int k = 0; k < batch && !st; k++)
				st = call(&o[i]);
			if (r >= 0)
				t[i * runs + r] = (now_us() - t0) / batch;
			if (stream_sync(o[i].s))
				st = PTXPOSE_ERR_CUDA;
		}
	for (int i = 0; i < n && !st; i++) {
		qsort(t + i * runs, (size_t)runs, sizeof *t, cmp);
		us[i] = t[i * runs + runs / 2];
	}
	free(t);
	return st;
}

/* The plan's own kernel loaded apart from the library (its PTX through
 * cuModuleLoadData), for the bare launches; 0, or -1 for a copy plan (no
 * kernel), or the status of what failed. */
static int load_own(ptxpose_handle h, const ptxpose_plan_info *info, CUmodule *mod, CUfunction *fn)
{
	CUresult (*load)(CUmodule *, const void *), (*get)(CUfunction *, CUmodule, const char *),
		(*set)(CUfunction, CUfunction_attribute, int);
	void *p[3];
	const char *names[] = {"cuModuleLoadData", "cuModuleGetFunction", "cuFuncSetAttribute"};
	ptxpose_kernel_info k;
	ptxpose_status st;
	if (info->kernel_index < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if ((st = ptxpose_driver_symbol(names[i], &p[i])))
			return (int)st;
	memcpy(&load, &p[0], sizeof p[0]);
	memcpy(&get, &p[1], sizeof p[1]);
	memcpy(&set, &p[2], sizeof p[2]);
	if ((st = ptxpose_kernel_get(h, info->kernel_index, &k)))
		return (int)st;
	if (load(mod, k.ptx) || get(fn, *mod, k.name) ||
	    (info->dyn_smem > 48 << 10 && set(*fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)info->dyn_smem)))
		return PTXPOSE_ERR_CUDA;
	return 0;
}

/* A measured plan of d in a fresh handle, executed once and waited for:
 * microseconds from ptxpose_create's return to the end of the launch. The
 * info's kernel name belongs to the handle, so it is copied into name. */
static ptxpose_status measured_first(const ptxpose_desc *d, const void *in, void *out, double *us,
				     ptxpose_plan_info *info, char name[64])
{
	ptxpose_handle h;
	ptxpose_plan p;
	CUstream s = NULL; /* the legacy stream: a fresh handle's first launch, as a program's */
	ptxpose_status st = ptxpose_create(&h, 0);
	if (st)
		return st;
	ptxpose_desc m = *d;
	m.mode = PTXPOSE_PLAN_MEASURE;
	double t0 = now_us();
	if (!(st = ptxpose_plan_create(h, &p, &m)) && !(st = ptxpose_execute(p, in, out, (ptxpose_stream)s)) &&
	    stream_sync(s))
		st = PTXPOSE_ERR_CUDA;
	*us = now_us() - t0;
	if (!st && !(st = ptxpose_plan_get(p, info))) {
		snprintf(name, 64, "%s", info->kernel);
		info->kernel = NULL; /* gone with the handle */
	}
	ptxpose_destroy(h);
	return st;
}

/* An empty folder for the cache, and its removal. */
static int cache_dir(char *dir, size_t n)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, n, "%s/ptxpose-overhead-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(dir) && !setenv("PTXPOSE_CACHE", dir, 1) ? 0 : -1;
}

static void cache_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
			unlink(path);
	if (d)
		closedir(d);
	rmdir(dir);
}

static int fail(const char *what, ptxpose_status st)
{
	fprintf(stderr, "overhead: %s: %s (%s)\n", what, ptxpose_last_error(), ptxpose_status_string(st));
	return (int)st;
}

static int usage(void)
{
	fprintf(stderr, "usage: overhead [--rows R] [--cols C] [--elem W] [--runs N] [--batch K]\n"
			"  --elem W: " ELEM_ACCEPTED "\n");
	return 2;
}

int main(int argc, char **argv)
{
	long rows = 64, cols = 64, elem = 4, runs = 31, batch = 200;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--elem") && i + 1 < argc) {
			unsigned bits;
			elem_unit unit;
			char why[256];
			if (elem_parse(argv[++i], &bits, &unit, why, sizeof why)) {
				fprintf(stderr, "overhead: --elem %s\n", why);
				return 2;
			}
			elem = bits / 8;
			continue;
		}
		long *v = !strcmp(argv[i], "--rows") ? &rows : !strcmp(argv[i], "--cols") ? &cols
			: !strcmp(argv[i], "--runs") ? &runs : !strcmp(argv[i], "--batch") ? &batch : NULL;
		char *end;
		if (!v || i + 1 == argc || (*v = strtol(argv[++i], &end, 10)) < 1 || *end || *v > 100000000)
			return usage();
	}
	ptxpose_handle h;
	ptxpose_status st = ptxpose_create(&h, 0);
	if (st)
		return fail("ptxpose_create", st);
	void *fn[7];
	const char *names[] = {"cuMemAlloc_v2", "cuStreamCreate", "cuStreamSynchronize", "cuMemFree_v2",
			       "cuCtxGetCurrent", "cuStreamGetCtx", "cuLaunchKernel"};
	for (int i = 0; i < 7; i++)
		if ((st = ptxpose_driver_symbol(names[i], &fn[i])))
			return fail("ptxpose_driver_symbol", st);
	memcpy(&ctx_get_current, &fn[4], sizeof fn[4]);
	memcpy(&stream_get_ctx, &fn[5], sizeof fn[5]);
	memcpy(&launch, &fn[6], sizeof fn[6]);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t), (*stream_create)(CUstream *, unsigned), (*mem_free)(CUdeviceptr);
	memcpy(&mem_alloc, &fn[0], sizeof fn[0]);
	memcpy(&stream_create, &fn[1], sizeof fn[1]);
	memcpy(&stream_sync, &fn[2], sizeof fn[2]);
	memcpy(&mem_free, &fn[3], sizeof fn[3]);
	size_t bytes = (size_t)rows * (size_t)cols * (size_t)elem;
	CUdeviceptr d_in, d_out;
	CUstream s;
	if (mem_alloc(&d_in, bytes) || mem_alloc(&d_out, bytes) || stream_create(&s, CU_STREAM_NON_BLOCKING))
		return fail("buffers and a stream", PTXPOSE_ERR_CUDA);

	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = (uint32_t)elem;
	d.rows = (uint64_t)rows;
	d.cols = (uint64_t)cols;
	ptxpose_plan plan, again;
	double t0 = now_us();
	if ((st = ptxpose_plan_create(h, &plan, &d)))
		return fail("ptxpose_plan_create", st);
	double cold = now_us() - t0;
	t0 = now_us();
	if ((st = ptxpose_plan_create(h, &again, &d)))
		return fail("ptxpose_plan_create", st);
	double warm = now_us() - t0;
	ptxpose_plan_destroy(again);
	ptxpose_plan_info info;
	ptxpose_device_info dev;
	ptxpose_plan_get(plan, &info);
	ptxpose_device_get(h, &dev);

	CUmodule mod;
	CUfunction own = NULL;
	int loaded = load_own(h, &info, &mod, &own);
	if (loaded > 0)
		return fail("the plan's kernel loaded apart", (ptxpose_status)loaded);
	/* kernel ABI v2's arguments of the plan (a default desc: dense, one matrix) */
	uint64_t a_in = d_in, a_out = d_out, a_s_in = (uint64_t)rows * (uint64_t)cols, a_s_out = a_s_in;
	uint32_t a_rows = (uint32_t)rows, a_cols = (uint32_t)cols, a_ld_in = a_cols, a_ld_out = a_rows, a_batch = 1;
	void *args[] = {&a_in, &a_out, &a_rows, &a_cols, &a_ld_in, &a_ld_out, &a_batch, &a_s_in, &a_s_out};
	const void *in = (const void *)(uintptr_t)d_in;
	void *out = (void *)(uintptr_t)d_out;
	enum { EXECUTE, TRANSPOSE, EXECUTE_LEGACY, CTX_GET, STREAM_CTX, FLOOR, FLOOR_LEGACY, NOPS };
	op ops[NOPS] = {
		[EXECUTE] = {OP_EXECUTE, h, plan, &d, in, out, s, NULL, NULL, NULL},
		[TRANSPOSE] = {OP_TRANSPOSE, h, NULL, &d, in, out, s, NULL, NULL, NULL},
		[EXECUTE_LEGACY] = {OP_EXECUTE, h, plan, &d, in, out, NULL, NULL, NULL, NULL},
		[CTX_GET] = {OP_CTX_GET_CURRENT, .s = s},
		[STREAM_CTX] = {OP_STREAM_GET_CTX, .s = s},
		[FLOOR] = {OP_LAUNCH, .s = s, .fn = own, .info = &info, .args = args},
		[FLOOR_LEGACY] = {OP_LAUNCH, .s = NULL, .fn = own, .info = &info, .args = args},
	};
	double us[NOPS];
	if ((st = timed(ops, own ? NOPS : FLOOR, (int)runs, (int)batch, us)))
		return fail("the timed calls", st);
	double exec_us = us[EXECUTE], trans_us = us[TRANSPOSE];

	char dir[4096];
	double m_cold, m_warm;
	ptxpose_plan_info mc, mw;
	if (cache_dir(dir, sizeof dir))
		return fail("a cache folder in $TMPDIR", PTXPOSE_ERR_INVALID);
	char mc_name[64] = "", mw_name[64] = "";
	st = measured_first(&d, in, out, &m_cold, &mc, mc_name);
	if (!st)
		st = measured_first(&d, in, out, &m_warm, &mw, mw_name);
	cache_remove(dir);
	if (st)
		return fail("a measured plan", st);

	printf("device %s\nkernel %s (%ldx%ld, %ld-byte elements)\n", dev.name, info.kernel, rows, cols, elem);
	printf("plan_create_cold %.1f us\nplan_create_warm %.2f us\n", cold, warm);
	printf("execute %.3f us\ntranspose_warm %.3f us\n", exec_us, trans_us);
	printf("execute_legacy %.3f us\ncuCtxGetCurrent %.3f us\ncuStreamGetCtx %.3f us\n", us[EXECUTE_LEGACY],
	       us[CTX_GET], us[STREAM_CTX]);
	if (own)
		printf("launch_floor %.3f us\nlaunch_floor_legacy %.3f us\nlibrary_own %.3f us\n", us[FLOOR],
		       us[FLOOR_LEGACY], exec_us - us[FLOOR]);
	else
		printf("launch_floor: none (a copy plan launches no kernel)\n");
	printf("measured_first_launch_cold %.1f us\nmeasured_first_launch_warm %.1f us\n", m_cold, m_warm);
	printf("measured cold: %s, %d candidates timed in %.2f ms (from the cache: %d); warm: %s (from the cache: %d)\n",
	       mc_name, mc.timed, mc.measure_ms, mc.from_cache, mw_name, mw.from_cache);
	int missed = 0;
	printf("target execute <= 5 us: %s\n", exec_us <= 5 ? "ok" : (missed = 1, "MISSED"));
	printf("target transpose_warm <= 10 us: %s\n", trans_us <= 10 ? "ok" : (missed = 1, "MISSED"));
	printf("target measured_first_launch_warm <= 1000 us: %s\n",
	       m_warm <= 1000 && mw.from_cache ? "ok" : (missed = 1, "MISSED"));
	ptxpose_plan_destroy(plan);
	if (own) {
		CUresult (*unload)(CUmodule);
		void *u;
		if (!ptxpose_driver_symbol("cuModuleUnload", &u)) {
			memcpy(&unload, &u, sizeof u);
			unload(mod);
		}
	}
	mem_free(d_in);
	mem_free(d_out);
	ptxpose_destroy(h);
	return missed;
}
