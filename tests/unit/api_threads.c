/* The library under threads, with the fake driver: THREADS threads share a
 * handle and, for ROUNDS rounds each, make plans (shapes that several
 * threads plan at once, so that the JIT and plan caches are contended),
 * execute one plan shared by all and their own on their own streams, call
 * ptxpose_transpose (its cache), query the kernels, while one thread
 * registers kernels. Every result is checked bit-exactly. Built plainly,
 * with ASan and with ThreadSanitizer (t0951). */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/tap.h"

#define THREADS 6
#define ROUNDS 8


typedef struct {
	ptxpose_handle h;
	ptxpose_plan shared;      /* one plan every thread executes */
	uint64_t rows, cols;      /* the shared plan's shape: 4-byte elements */
	CUcontext ctx;
	int id;
	char fail[256];           /* "" when every check held */
} job;

/* A rows x cols matrix of 4-byte words through `run`, checked. */
static int one(job *j, CUstream s, uint64_t rows, uint64_t cols, ptxpose_plan plan, const ptxpose_desc *d)
{
	size_t n = rows * cols, bytes = n * 4;
	uint32_t *in = malloc(bytes), *out = malloc(bytes);
	CUdeviceptr d_in = 0, d_out = 0;
	int bad = !in || !out || cu.alloc(&d_in, bytes) || cu.alloc(&d_out, bytes);
	for (size_t k = 0; !bad && k < n; k++)
		in[k] = (uint32_t)(k * 2654435761u) ^ (uint32_t)j->id;
	const void *pin = (const void *)(uintptr_t)d_in;
	void *pout = (void *)(uintptr_t)d_out;
	ptxpose_status st = PTXPOSE_OK;
	if (!bad && !(bad = cu.htod(d_in, in, bytes) != 0))
		st = plan ? ptxpose_execute(plan, pin, pout, (ptxpose_stream)s) : ptxpose_transpose(j->h, d, pin, pout, (ptxpose_stream)s);
	if (st)
		snprintf(j->fail, sizeof j->fail, "%s: %s", plan ? "execute" : "transpose", ptxpose_last_error());
	bad |= st != PTXPOSE_OK;
	if (!bad)
		bad = cu.stream_sync(s) || cu.dtoh(out, d_out, bytes);
	for (uint64_t i = 0; !bad && i < rows; i++)
		for (uint64_t c = 0; !bad && c < cols; c++)
			bad = out[c * rows + i] != in[i * cols + c];
	if (bad && !j->fail[0])
		snprintf(j->fail, sizeof j->fail, "%llux%llu: wrong result", (unsigned long long)rows, (unsigned long long)cols);
	cu.free_(d_in);
	cu.free_(d_out);
	free(in);
	free(out);
	return bad;
}

static void *worker(void *arg)
{
	job *j = arg;
	CUstream s = NULL;
	/* a thread of the program's: the handle's context made current for its own driver calls */
	if (cu.push(j->ctx) || cu.stream_create(&s, CU_STREAM_NON_BLOCKING)) {
		snprintf(j->fail, sizeof j->fail, "no stream");
		return NULL;
	}
	for (int r = 0; r < ROUNDS && !j->fail[0]; r++) {
		/* shapes that other threads plan in the same round */
		uint64_t rows = 17 + (uint64_t)(r % 3) * 11, cols = 33 + (uint64_t)((j->id + r) % 2) * 40;
		ptxpose_desc d = PTXPOSE_DESC_INIT;
		d.elem_bytes = 4;
		d.rows = rows;
		d.cols = cols;
		ptxpose_plan p = NULL;
		int n = 0;
		if (ptxpose_plan_create(j->h, &p, &d))
			snprintf(j->fail, sizeof j->fail, "plan: %s", ptxpose_last_error());
		else if (one(j, s, rows, cols, p, &d) || one(j, s, j->rows, j->cols, j->shared, &d) ||
			 one(j, s, rows, cols, NULL, &d))
			; /* j->fail says */
		else if (ptxpose_kernel_count(j->h, &n) || n < 10)
			snprintf(j->fail, sizeof j->fail, "kernel_count: %d", n);
		if (p)
			ptxpose_plan_destroy(p);
	}
	CUcontext popped;
	cu.stream_destroy(s);
	cu.pop(&popped);
	return NULL;
}

/* The registering thread: kernels of new names, then one replaced. */
static void *registrar(void *arg)
{
	job *j = arg;
	char ptx[512];
	for (int k = 0; k < ROUNDS && !j->fail[0]; k++) {
		int len = snprintf(ptx, sizeof ptx,
				   "// ptxpose kernel=reg%d_b32 abi=2 elem=32 grid=tile tile=32x32 block=32x8\n"
				   ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry reg%d_b32(\n)\n{\n\tret;\n}\n",
				   k % 3, k % 3);
		int idx;
		if (ptxpose_register_ptx(j->h, ptx, (size_t)len, &idx))
			snprintf(j->fail, sizeof j->fail, "register: %s", ptxpose_last_error());
	}
	return NULL;
}

int main(void)
{
	setenv("PTXPOSE_LIBCUDA", API_FAKE_DRIVER, 0);
	ptxpose_handle h;
	if (!ok(!ptxpose_create(&h, 0) && !api_driver(), "a handle and the driver (%s)", ptxpose_last_error()))
		return tap_done();
	ptxpose_device_info dev;
	ptxpose_device_get(h, &dev);
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = 4;
	d.rows = 45;
	d.cols = 67;
	ptxpose_plan shared;
	ok(!ptxpose_plan_create(h, &shared, &d), "the shared plan");
	job jobs[THREADS + 1];
	pthread_t tid[THREADS + 1];
	for (int i = 0; i <= THREADS; i++) {
		jobs[i] = (job){.h = h, .shared = shared, .rows = 45, .cols = 67, .ctx = dev.context, .id = i};
		if (pthread_create(&tid[i], NULL, i < THREADS ? worker : registrar, &jobs[i]))
			jobs[i].fail[0] = '!';
	}
	for (int i = 0; i <= THREADS; i++) {
		pthread_join(tid[i], NULL);
		if (!ok(!jobs[i].fail[0], "%s %d: %d rounds, every result bit-exact", i < THREADS ? "thread" : "registrar", i,
			ROUNDS))
			printf("#   %s\n", jobs[i].fail);
	}
	int n = 0, found = 0;
	ptxpose_kernel_count(h, &n);
	for (int i = 0; i < n; i++) {
		ptxpose_kernel_info k;
		found += !ptxpose_kernel_get(h, i, &k) && !strncmp(k.name, "reg", 3);
	}
	ok(found == 3, "three registered names, replaced in place (%d)", found);
	ok(!ptxpose_plan_destroy(shared) && !ptxpose_destroy(h), "plan and handle destroyed");
	return tap_done();
}
