/* The public API (include/ptxpose.h) against the fake driver
 * (tests/fakecuda): handles, kernels, plans, execute on a stream, the
 * one-call transpose and its cache, registration, and every kind of bad
 * input, each a status and a message. `api_unit nodriver` checks what a
 * program gets without a driver ($PTXPOSE_LIBCUDA naming none). */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/tap.h"


/* st is want and the last error holds `part`. */
static void expect(ptxpose_status st, ptxpose_status want, const char *part, const char *what)
{
	if (!ok(st == want, "%s: %s", what, ptxpose_status_string(want)))
		printf("#   got %s\n", ptxpose_status_string(st));
	has_str(ptxpose_last_error(), part, "... and says why");
}

static ptxpose_desc desc(uint32_t es, uint64_t rows, uint64_t cols)
{
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = es;
	d.rows = rows;
	d.cols = cols;
	return d;
}

static void test_statuses(void)
{
	ok(!strncmp(ptxpose_status_string(PTXPOSE_ERR_STALE), "PTXPOSE_ERR_STALE: ", 19), "status strings name the status");
	ok(!strncmp(ptxpose_status_string((ptxpose_status)99), "PTXPOSE_ERR_?", 13), "... an unknown one too");
	ok(!strncmp(ptxpose_version(), "0.", 2) && strstr(ptxpose_version(), "(commit "), "version: %s", ptxpose_version());
}

static void test_desc(ptxpose_handle h)
{
	ptxpose_plan p = (ptxpose_plan)1;
	ptxpose_desc d = desc(4, 10, 10);
	expect(ptxpose_plan_create(h, &p, NULL), PTXPOSE_ERR_INVALID, "desc is NULL", "a NULL desc");
	ok(p == NULL, "... and *plan is NULL");
	expect(ptxpose_plan_create(h, NULL, &d), PTXPOSE_ERR_INVALID, "plan pointer is NULL", "a NULL plan pointer");
	expect(ptxpose_plan_create(NULL, &p, &d), PTXPOSE_ERR_INVALID, "handle is NULL", "a NULL handle");
	ptxpose_desc bad = d;
	bad.size = 12;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "PTXPOSE_DESC_INIT", "a desc without its size");
	const struct {
		ptxpose_desc d;
		ptxpose_status st;
		const char *why;
	} cases[] = {
		{desc(3, 10, 10), PTXPOSE_ERR_INVALID, "elem_bytes 3 is not 1, 2, 4, 8 or 16"},
		{desc(4, 0, 10), PTXPOSE_ERR_INVALID, "rows 0 is out of range"},
		{desc(4, 10, 1ull << 31), PTXPOSE_ERR_INVALID, "cols 2147483648 is out of range"},
		{desc(16, 0x7fffffff, 0x7fffffff), PTXPOSE_ERR_OVERFLOW, "too large: the input needs"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect(ptxpose_plan_create(h, &p, &cases[i].d), cases[i].st, cases[i].why, cases[i].why);
	bad = d, bad.ld_in = 4;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "ld_in 4 is less than cols 10", "ld_in < cols");
	bad = d, bad.batch = 2, bad.stride_out = 5;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "stride_out 5 is less than the output matrix",
	       "overlapping matrices");
	bad = desc(16, 65536, 65536), bad.batch = 0x7fffffff;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_OVERFLOW, "stride_in 4294967296", "a batch past 2^63 bytes");
	bad = d, bad.align_in = 2;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_MISALIGNED, "align_in 2: the pointer is misaligned",
	       "an alignment below the element size");
	bad = d, bad.align_out = 12;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "align_out 12 is not a power of two",
	       "an alignment that is no power of two");
	bad = d, bad.mode = PTXPOSE_PLAN_MEASURE, bad.measure_budget_ms = 1.0 / 0.0;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "measure_budget_ms inf is not a time",
	       "measured mode, an infinite budget (measure_unit.c tests the mode)");
	bad = d, bad.mode = 7;
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "mode 7", "an unknown mode");
	bad = d, bad.kernel = "no_such_kernel";
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_NO_KERNEL, "no kernel named 'no_such_kernel'",
	       "a kernel by a name that is not there");
	bad = d, bad.kernel = "two\nlines\x1b";
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_NO_KERNEL, "no kernel named 'two\\nlines\\x1b'",
	       "a name with control characters (fuzz_desc found it echoed raw)");
	ok(!strchr(ptxpose_last_error(), '\n'), "... the message stays one line");
	bad = d, bad.kernel = "fast_b8";
	expect(ptxpose_plan_create(h, &p, &bad), PTXPOSE_ERR_INVALID, "moves 1-byte elements", "a kernel of another width");
}

static void test_kernels(ptxpose_handle h)
{
	int n = 0;
	ptxpose_kernel_info k;
	ok(!ptxpose_kernel_count(h, &n) && n > 10, "%d kernels built in", n);
	int found = -1;
	for (int i = 0; i < n; i++)
		if (!ptxpose_kernel_get(h, i, &k) && !strcmp(k.name, "fast_b32"))
			found = i;
	ok(found >= 0 && !ptxpose_kernel_get(h, found, &k) && k.elem_bytes == 4 && k.tile_rows > 0 &&
	   !strcmp(k.source, "built in") && strstr(k.meta, "kernel=fast_b32") && strstr(k.ptx, ".entry fast_b32"),
	   "fast_b32: width, tile, source, metadata, text");
	expect(ptxpose_kernel_get(h, n, &k), PTXPOSE_ERR_INVALID, "out of range", "an index past the end");
	expect(ptxpose_kernel_count(h, NULL), PTXPOSE_ERR_INVALID, "count is NULL", "a NULL count");
}

/* in: rows x cols of 4-byte words; the reference transpose into want. */
static int transposed(const uint32_t *in, const uint32_t *got, uint64_t rows, uint64_t cols)
{
	for (uint64_t i = 0; i < rows; i++)
		for (uint64_t j = 0; j < cols; j++)
			if (got[j * rows + i] != in[i * cols + j])
				return 0;
	return 1;
}

typedef struct {
	CUdeviceptr in, out;
	uint32_t *h_in, *h_out;
	uint64_t rows, cols, bytes;
} bufs;

static int bufs_make(bufs *b, uint64_t rows, uint64_t cols)
{
	b->rows = rows, b->cols = cols, b->bytes = rows * cols * 4;
	b->h_in = malloc(b->bytes), b->h_out = malloc(b->bytes);
	for (uint64_t k = 0; k < rows * cols; k++)
		b->h_in[k] = (uint32_t)(k * 2654435761u);
	return cu.alloc(&b->in, b->bytes + 64) || cu.alloc(&b->out, b->bytes + 64) || cu.htod(b->in, b->h_in, b->bytes);
}

static int bufs_check(bufs *b)
{
	memset(b->h_out, 0, b->bytes);
	return !cu.sync() && !cu.dtoh(b->h_out, b->out, b->bytes) && transposed(b->h_in, b->h_out, b->rows, b->cols);
}

static void bufs_free(bufs *b)
{
	cu.free_(b->in);
	cu.free_(b->out);
	free(b->h_in);
	free(b->h_out);
}

static void *other_thread(void *arg)
{
	void **a = arg;
	bufs *b = a[1];
	/* no current context on this thread: the library makes the handle's current for the call */
	a[2] = (void *)(uintptr_t)ptxpose_execute(a[0], (void *)(uintptr_t)b->in, (void *)(uintptr_t)b->out, NULL);
	return NULL;
}

static void test_execute(ptxpose_handle h)
{
	bufs b;
	ok(!bufs_make(&b, 67, 129), "device buffers through ptxpose_driver_symbol");
	ptxpose_desc d = desc(4, 67, 129);
	ptxpose_plan p = NULL;
	ptxpose_plan_info info = {0};
	int made = !ptxpose_plan_create(h, &p, &d) && !ptxpose_plan_get(p, &info);
	ok(made, "a heuristic plan: %s, %d candidates", made ? info.kernel : "none", info.candidates);
	ok(info.predicted_us > 0 && info.grid[0] > 0 && info.block[0] > 0 && info.candidates > 1,
	   "... its predicted time, grid and block");
	CUstream s;
	ok(!cu.stream_create(&s, CU_STREAM_NON_BLOCKING), "a stream of the handle's context");
	void *in = (void *)(uintptr_t)b.in, *out = (void *)(uintptr_t)b.out;
	ok(!ptxpose_execute(p, in, out, (ptxpose_stream)s) && bufs_check(&b), "execute on the stream: transposed");
	ok(!ptxpose_execute(p, in, out, (ptxpose_stream)CU_STREAM_PER_THREAD) && bufs_check(&b), "... and on CU_STREAM_PER_THREAD");
	void *args[3] = {p, &b, (void *)1};
	pthread_t t;
	ok(!pthread_create(&t, NULL, other_thread, args) && !pthread_join(t, NULL) && !args[2] && bufs_check(&b),
	   "execute from a thread without a current context");

	expect(ptxpose_execute(NULL, in, out, NULL), PTXPOSE_ERR_INVALID, "the plan is NULL", "a NULL plan");
	expect(ptxpose_execute(p, NULL, out, NULL), PTXPOSE_ERR_INVALID, "in is NULL", "a NULL input");
	expect(ptxpose_execute(p, (char *)in + 2, out, NULL), PTXPOSE_ERR_MISALIGNED, "not aligned to 4 bytes, the element size",
	       "an input misaligned for its elements");
	expect(ptxpose_execute(p, in, in, NULL), PTXPOSE_ERR_INVALID, "overlap", "in and out the same buffer");
	expect(ptxpose_execute((ptxpose_plan)h, in, out, NULL), PTXPOSE_ERR_INVALID, "not a ptxpose plan (a handle)",
	       "a handle for a plan");
	ptxpose_desc da = d;
	da.align_in = 16;
	ptxpose_plan pa;
	ok(!ptxpose_plan_create(h, &pa, &da), "a plan promised 16-byte pointers");
	expect(ptxpose_execute(pa, (char *)in + 4, out, NULL), PTXPOSE_ERR_MISALIGNED, "as desc->align_in promised",
	       "... given a pointer aligned to 4");
	expect(ptxpose_execute(pa, (char *)in + 8, out, NULL), PTXPOSE_ERR_MISALIGNED, "is not aligned to 16 bytes, as desc->align_in",
	       "... or to 8");
	ptxpose_plan_destroy(pa);
	/* execute's alignment test is one mask a pointer: each low bit of each pointer refused, and named */
	expect(ptxpose_execute(p, (char *)in + 1, out, NULL), PTXPOSE_ERR_MISALIGNED, "is not aligned to 4 bytes, the element size",
	       "an input 1 byte off");
	has_str(ptxpose_last_error(), "in 0x", "... naming in");
	expect(ptxpose_execute(p, in, (char *)out + 2, NULL), PTXPOSE_ERR_MISALIGNED, "is not aligned to 4 bytes, the element size",
	       "an output misaligned for its elements");
	has_str(ptxpose_last_error(), "out 0x", "... naming out");
	da = d;
	da.align_out = 32;
	ok(!ptxpose_plan_create(h, &pa, &da), "a plan promised 32-byte outputs");
	expect(ptxpose_execute(pa, in, (char *)out + 16, NULL), PTXPOSE_ERR_MISALIGNED, "is not aligned to 32 bytes, as desc->align_out promised",
	       "... given an output aligned to 16");
	has_str(ptxpose_last_error(), "out 0x", "... naming out");
	ok(!ptxpose_execute(pa, in, out, NULL) && bufs_check(&b), "... and aligned ones: transposed");
	ptxpose_plan_destroy(pa);

	CUcontext other, popped;
	CUstream os;
	ok(!cu.ctx_create(&other, 0, 0) && !cu.stream_create(&os, CU_STREAM_NON_BLOCKING) && !cu.pop(&popped),
	   "a stream of another context");
	expect(ptxpose_execute(p, in, out, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to CUDA context",
	       "... refused");

	/* ptxpose_transpose: planned once, found in the cache after */
	ok(!ptxpose_transpose(h, &d, in, out, (ptxpose_stream)s) && bufs_check(&b), "transpose: planned and executed");
	ok(!ptxpose_transpose(h, &d, in, out, (ptxpose_stream)s) && bufs_check(&b), "... again, from the cache");
	expect(ptxpose_transpose(h, &d, (char *)in + 1, out, NULL), PTXPOSE_ERR_MISALIGNED, "in 0x",
	       "transpose: an input misaligned for its elements");
	expect(ptxpose_transpose(h, &d, in, NULL, NULL), PTXPOSE_ERR_INVALID, "out is NULL", "transpose: a NULL output");

	ok(!ptxpose_plan_destroy(p), "plan destroyed");
	expect(ptxpose_execute(p, in, out, NULL), PTXPOSE_ERR_STALE, "destroyed", "... executed after: stale");
	expect(ptxpose_plan_destroy(p), PTXPOSE_ERR_STALE, "destroyed", "... destroyed twice: stale");
	cu.stream_destroy(s);
	bufs_free(&b);
}

/* The identity on memory: a plan that copies, executed on a stream. */
static void test_copy(ptxpose_handle h)
{
	const struct {
		uint64_t rows, cols, batch, stride;
		int copy;
	} cases[] = {{1, 1000, 1, 0, 1}, {999, 1, 1, 0, 1}, {1, 1, 1, 0, 1}, {1, 100, 3, 0, 1}, {1, 100, 3, 101, 0},
		     {2, 500, 1, 0, 0}};
	CUstream s;
	ok(!cu.stream_create(&s, CU_STREAM_NON_BLOCKING), "copy plans: a stream");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bufs b;
		uint64_t rows = cases[i].rows, cols = cases[i].cols, n = cases[i].batch;
		/* the batch as one tall matrix: the same bytes, transposed per matrix below */
		bufs_make(&b, rows * n + (cases[i].stride ? n : 0), cols);
		ptxpose_desc d = desc(4, rows, cols);
		d.batch = n;
		d.stride_in = d.stride_out = cases[i].stride;
		ptxpose_plan p = NULL;
		ptxpose_plan_info info = {0};
		ok(!ptxpose_plan_create(h, &p, &d) && !ptxpose_plan_get(p, &info), "%llux%llu batch %llu stride %llu: planned",
		   (unsigned long long)rows, (unsigned long long)cols, (unsigned long long)n,
		   (unsigned long long)cases[i].stride);
		int is_copy = info.kernel && !strcmp(info.kernel, PTXPOSE_COPY);
		ok(is_copy == cases[i].copy, "... %s (%s)", cases[i].copy ? "a copy" : "a kernel", info.kernel ? info.kernel : "none");
		if (is_copy)
			ok(info.kernel_index == -1 && !info.grid[0] && !info.block[0] && info.predicted_us > 0,
			   "... index -1, no grid, the copy's predicted time %.3f us", info.predicted_us);
		void *in = (void *)(uintptr_t)b.in, *out = (void *)(uintptr_t)b.out;
		ok(!ptxpose_execute(p, in, out, (ptxpose_stream)s), "... executed");
		memset(b.h_out, 0, b.bytes);
		int same = !cu.sync() && !cu.dtoh(b.h_out, b.out, b.bytes);
		for (uint64_t k = 0; same && k < n; k++) /* each matrix transposed: with one row or column, copied */
			same = transposed(b.h_in + k * (cases[i].stride ? cases[i].stride : rows * cols),
					  b.h_out + k * (cases[i].stride ? cases[i].stride : rows * cols), rows, cols);
		ok(same, "... every element where it belongs");
		ptxpose_plan_destroy(p);
		bufs_free(&b);
	}
	ptxpose_desc d = desc(4, 1, 1000);
	d.kernel = "fast_b32";
	ptxpose_plan p = NULL;
	ptxpose_plan_info info = {0};
	ok(!ptxpose_plan_create(h, &p, &d) && !ptxpose_plan_get(p, &info) && !strcmp(info.kernel, "fast_b32"),
	   "a kernel named by desc->kernel is launched even for a copy's shape");
	ptxpose_plan_destroy(p);
	cu.stream_destroy(s);
}

static const char bogus_ptx[] =
	"// ptxpose kernel=bogus_b32 abi=2 elem=32 grid=tile tile=32x32 block=32x8\n"
	".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry bogus_b32(\n)\n{\n\tbogus.u32 %r1;\n\tret;\n}\n";

static int jit_errors;
static void on_log(void *user, unsigned kind, const char *text)
{
	(void)user;
	jit_errors += kind == PTXPOSE_LOG_JIT_ERROR && strstr(text, "bogus") != NULL;
}

static void test_register(ptxpose_handle h)
{
	int idx = -1;
	expect(ptxpose_register_ptx(h, "not ptx", 7, &idx), PTXPOSE_ERR_BAD_PTX, "no ptxpose metadata", "text without metadata");
	const char abi1[] = "// ptxpose kernel=k abi=1 elem=32 grid=tile tile=32x32 block=32x8\n.visible .entry k(\n)\n";
	expect(ptxpose_register_ptx(h, abi1, sizeof abi1 - 1, &idx), PTXPOSE_ERR_BAD_PTX, "kernel ABI 1", "kernel ABI 1");
	expect(ptxpose_register_ptx(h, NULL, 0, NULL), PTXPOSE_ERR_INVALID, "ptx is NULL", "NULL text");
	ok(!ptxpose_register_ptx(h, bogus_ptx, sizeof bogus_ptx, &idx) && idx >= 0, "a kernel registered (NUL counted in len)");
	ptxpose_kernel_info k;
	ok(!ptxpose_kernel_get(h, idx, &k) && !strcmp(k.name, "bogus_b32") && !strcmp(k.source, "registered"),
	   "... its name and source");
	ptxpose_set_log(h, on_log, NULL, PTXPOSE_LOG_JIT_ERROR);
	ptxpose_desc d = desc(4, 8, 8);
	d.kernel = "bogus_b32";
	ptxpose_plan p;
	expect(ptxpose_plan_create(h, &p, &d), PTXPOSE_ERR_JIT, "CUDA_ERROR_INVALID_PTX", "it does not link");
	ok(jit_errors == 1, "... and the JIT's error log went to the log callback");
	expect(ptxpose_set_log(h, on_log, NULL, 1u << 7), PTXPOSE_ERR_INVALID, "unknown bits", "a log kind that is none");
	ptxpose_set_log(h, NULL, NULL, 0);
}

static int no_driver(void)
{
	ptxpose_handle h = (ptxpose_handle)1;
	void *fn = (void *)1;
	expect(ptxpose_create(&h, 0), PTXPOSE_ERR_NO_DRIVER, "no CUDA driver", "no driver: create");
	ok(h == NULL, "... and *h is NULL");
	expect(ptxpose_driver_symbol("cuMemAlloc_v2", &fn), PTXPOSE_ERR_NO_DRIVER, "no CUDA driver", "... driver_symbol");
	ok(fn == NULL, "... and *fn is NULL");
	return tap_done();
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "nodriver"))
		return no_driver();
	setenv("PTXPOSE_LIBCUDA", API_FAKE_DRIVER, 0);
	test_statuses();
	ptxpose_handle h = NULL;
	expect(ptxpose_create(NULL, 0), PTXPOSE_ERR_INVALID, "NULL", "create: a NULL handle pointer");
	expect(ptxpose_create(&h, 0x10), PTXPOSE_ERR_INVALID, "unknown bits", "create: an unknown flag");
	if (!ok(!ptxpose_create(&h, 0), "a handle on the fake driver (%s)", ptxpose_last_error()))
		return tap_done();
	ptxpose_device_info dev;
	ok(!ptxpose_device_get(h, &dev) && !strcmp(dev.name, "Fake CUDA Device 0") && dev.context, "device: %s", dev.name);
	ok(!api_driver(), "driver entry points");
	void *fn;
	expect(ptxpose_driver_symbol("cuNoSuchThing", &fn), PTXPOSE_ERR_INVALID, "no symbol 'cuNoSuchThing'",
	       "a symbol the driver lacks");
	test_kernels(h);
	test_desc(h);
	test_execute(h);
	test_copy(h);
	test_register(h);
	ptxpose_plan p;
	ptxpose_desc d = desc(8, 5, 5);
	ok(!ptxpose_plan_create(h, &p, &d), "a plan left for ptxpose_destroy");
	ok(!ptxpose_destroy(h), "handle destroyed");
	expect(ptxpose_destroy(h), PTXPOSE_ERR_STALE, "the handle was destroyed", "... destroyed twice: stale");
	expect(ptxpose_plan_create(h, &p, &d), PTXPOSE_ERR_STALE, "destroyed", "... planned with after: stale");
	expect(ptxpose_plan_get(p, &(ptxpose_plan_info){0}), PTXPOSE_ERR_STALE, "destroyed",
	       "... its plans went with it: stale");
	return tap_done();
}
