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
 *   build/bench/overhead [--rows R --cols C --elem BYTES] [--runs N] [--batch K]
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

typedef struct {
	ptxpose_handle h;
	ptxpose_plan plan;        /* NULL: time ptxpose_transpose */
	const ptxpose_desc *d;
	const void *in;
	void *out;
	CUstream s;
} op;

/* Median over runs of `batch` calls: microseconds a call. */
static ptxpose_status timed(const op *o, int runs, int batch, double *us)
{
	double *t = calloc((size_t)runs, sizeof *t);
	ptxpose_status st = t ? PTXPOSE_OK : PTXPOSE_ERR_NO_MEMORY;
	for (int r = 0; r < runs && !st; r++) {
		double t0 = now_us();
		for (int k = 0; k < batch && !st; k++)
			st = o->plan ? ptxpose_execute(o->plan, o->in, o->out, (ptxpose_stream)o->s)
				     : ptxpose_transpose(o->h, o->d, o->in, o->out, (ptxpose_stream)o->s);
		t[r] = (now_us() - t0) / batch;
		if (stream_sync(o->s))
			st = PTXPOSE_ERR_CUDA;
	}
	if (!st) {
		qsort(t, (size_t)runs, sizeof *t, cmp);
		*us = t[runs / 2];
	}
	free(t);
	return st;
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
	fprintf(stderr, "usage: overhead [--rows R] [--cols C] [--elem BYTES] [--runs N] [--batch K]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long rows = 64, cols = 64, elem = 4, runs = 31, batch = 200;
	for (int i = 1; i < argc; i++) {
		long *v = !strcmp(argv[i], "--rows") ? &rows : !strcmp(argv[i], "--cols") ? &cols
			: !strcmp(argv[i], "--elem") ? &elem : !strcmp(argv[i], "--runs") ? &runs
			: !strcmp(argv[i], "--batch") ? &batch : NULL;
		char *end;
		if (!v || i + 1 == argc || (*v = strtol(argv[++i], &end, 10)) < 1 || *end || *v > 100000000)
			return usage();
	}
	ptxpose_handle h;
	ptxpose_status st = ptxpose_create(&h, 0);
	if (st)
		return fail("ptxpose_create", st);
	void *fn[4];
	const char *names[] = {"cuMemAlloc_v2", "cuStreamCreate", "cuStreamSynchronize", "cuMemFree_v2"};
	for (int i = 0; i < 4; i++)
		if ((st = ptxpose_driver_symbol(names[i], &fn[i])))
			return fail("ptxpose_driver_symbol", st);
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

	op ex = {h, plan, &d, (const void *)(uintptr_t)d_in, (void *)(uintptr_t)d_out, s};
	op tr = ex;
	tr.plan = NULL;
	double exec_us, trans_us;
	if ((st = timed(&ex, 3, batch, &exec_us)) || (st = timed(&ex, (int)runs, (int)batch, &exec_us)))
		return fail("ptxpose_execute", st);
	if ((st = timed(&tr, 3, batch, &trans_us)) || (st = timed(&tr, (int)runs, (int)batch, &trans_us)))
		return fail("ptxpose_transpose", st);

	char dir[4096];
	double m_cold, m_warm;
	ptxpose_plan_info mc, mw;
	if (cache_dir(dir, sizeof dir))
		return fail("a cache folder in $TMPDIR", PTXPOSE_ERR_INVALID);
	char mc_name[64] = "", mw_name[64] = "";
	st = measured_first(&d, ex.in, ex.out, &m_cold, &mc, mc_name);
	if (!st)
		st = measured_first(&d, ex.in, ex.out, &m_warm, &mw, mw_name);
	cache_remove(dir);
	if (st)
		return fail("a measured plan", st);

	printf("device %s\nkernel %s (%ldx%ld, %ld-byte elements)\n", dev.name, info.kernel, rows, cols, elem);
	printf("plan_create_cold %.1f us\nplan_create_warm %.2f us\n", cold, warm);
	printf("execute %.3f us\ntranspose_warm %.3f us\n", exec_us, trans_us);
	printf("measured_first_launch_cold %.1f us\nmeasured_first_launch_warm %.1f us\n", m_cold, m_warm);
	printf("measured cold: %s, %d candidates timed in %.2f ms (from the cache: %d); warm: %s (from the cache: %d)\n",
	       mc_name, mc.timed, mc.measure_ms, mc.from_cache, mw_name, mw.from_cache);
	int missed = 0;
	printf("target execute <= 5 us: %s\n", exec_us <= 5 ? "ok" : (missed = 1, "MISSED"));
	printf("target transpose_warm <= 10 us: %s\n", trans_us <= 10 ? "ok" : (missed = 1, "MISSED"));
	printf("target measured_first_launch_warm <= 1000 us: %s\n",
	       m_warm <= 1000 && mw.from_cache ? "ok" : (missed = 1, "MISSED"));
	ptxpose_plan_destroy(plan);
	mem_free(d_in);
	mem_free(d_out);
	ptxpose_destroy(h);
	return missed;
}
