/* fuzz_desc: the public API's descriptor surface on any bytes: a desc
 * (every field, from zero and small values to any 64 bits, a kernel by index
 * or a name of garbage) through ptxpose_plan_create or ptxpose_transpose,
 * then ptxpose_execute with good, misaligned, overlapping, NULL or stale
 * pointers and plans, with the fake driver (tests/fakecuda, $PTXPOSE_LIBCUDA;
 * build/fakecuda/libcuda.so.1 from the repository's root by default) or,
 * with FUZZ_DESC_NO_DRIVER set, none. A refusal must be a status with a
 * one-line message; a plan the library accepts must run and transpose
 * exactly (small ones are executed on buffers of their exact size, which
 * the fake driver bounds-checks). libFuzzer; see fuzz/README.md. */
#include <cuda.h>
#include <stdio.h>

#include "fuzz/fuzz.h"
#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"

typedef struct {
	const uint8_t *p;
	size_t n;
} input;

static uint64_t take(input *in, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)in->p[0] << (8 * i);
	return v;
}

/* A dimension: 0, small, medium, or any 64 bits, by a selector byte. */
static uint64_t dim(input *in)
{
	switch (take(in, 1) & 3) {
	case 0: return 0;
	case 1: return take(in, 1);
	case 2: return take(in, 2);
	default: return take(in, 8);
	}
}

static ptxpose_handle h;
static int no_driver;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	no_driver = getenv("FUZZ_DESC_NO_DRIVER") != NULL;
	setenv("PTXPOSE_LIBCUDA", no_driver ? "/nonexistent/libcuda.so.1" : API_FAKE_DRIVER, 0);
	if (ptxpose_create(&h, 0)) {
		if (!no_driver) {
			fprintf(stderr, "fuzz_desc: %s (run from the repository's root, or set PTXPOSE_LIBCUDA)\n",
				ptxpose_last_error());
			abort();
		}
		return 0;
	}
	if (api_driver())
		abort();
	return 0;
}

/* A refusal: a status and one line saying why. */
static void refused(ptxpose_status st)
{
	const char *e = ptxpose_last_error();
	if (st == PTXPOSE_OK || !e[0] || strchr(e, '\n') || strlen(ptxpose_status_string(st)) < 10)
		abort();
}

/* Run plan on exact-size buffers (the fake driver checks every access)
 * and check the transpose of a rows x cols matrix of es-byte elements
 * (batch 1, packed, the problem the caller made small). */
static void run_checked(ptxpose_plan plan, const ptxpose_desc *d, unsigned how)
{
	size_t bytes = (size_t)(d->rows * d->cols * d->elem_bytes);
	unsigned char *in = malloc(bytes), *out = malloc(bytes);
	CUdeviceptr d_in = 0, d_out = 0;
	if (!in || !out || cu.alloc(&d_in, bytes) || cu.alloc(&d_out, bytes))
		abort();
	for (size_t k = 0; k < bytes; k++)
		in[k] = (unsigned char)(k * 131 + 7);
	if (cu.htod(d_in, in, bytes))
		abort();
	const char *pin = (const char *)(uintptr_t)d_in;
	char *pout = (char *)(uintptr_t)d_out;
	if (plan && (how & 3) == 1) { /* misaligned for the element, or overlapping: refused */
		if (d->elem_bytes > 1)
			refused(ptxpose_execute(plan, pin + 1, pout, NULL));
		refused(ptxpose_execute(plan, pin, (char *)pin, NULL));
	} else if (plan && (how & 3) == 2) {
		refused(ptxpose_execute(plan, NULL, pout, NULL));
	}
	ptxpose_status st = plan ? ptxpose_execute(plan, pin, pout, NULL) : ptxpose_transpose(h, d, pin, pout, NULL);
	if (st || cu.sync() || cu.dtoh(out, d_out, bytes))
		abort();
	unsigned es = d->elem_bytes;
	for (uint64_t i = 0; i < d->rows; i++)
		for (uint64_t j = 0; j < d->cols; j++)
			if (memcmp(out + (j * d->rows + i) * es, in + (i * d->cols + j) * es, es))
				abort();
	cu.free_(d_in);
	cu.free_(d_out);
	free(in);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input in = {data, size};
	unsigned op = (unsigned)take(&in, 1), how = (unsigned)take(&in, 1);
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.size ^= (uint32_t)(take(&in, 1) == 0xff ? 8 : 0); /* now and then a desc of the wrong size */
	d.elem_bytes = (uint32_t)take(&in, 1);
	d.rows = dim(&in), d.cols = dim(&in);
	d.ld_in = dim(&in), d.ld_out = dim(&in);
	d.batch = dim(&in), d.stride_in = dim(&in), d.stride_out = dim(&in);
	d.align_in = (uint32_t)dim(&in), d.align_out = (uint32_t)dim(&in);
	d.mode = (uint32_t)(take(&in, 1) % 3);
	d.reserved = take(&in, 1) == 0xfe;
	d.measure_budget_ms = (double)(int8_t)take(&in, 1);
	char name[96] = "";
	unsigned k = (unsigned)take(&in, 1);
	if (k >= 200) { /* a name of garbage */
		size_t n = in.n < sizeof name - 1 ? in.n : sizeof name - 1;
		memcpy(name, in.p, n);
		name[n] = '\0';
		d.kernel = name;
	} else if (k && h) {
		ptxpose_kernel_info info;
		if (!ptxpose_kernel_get(h, (int)k % 64, &info))
			d.kernel = info.name;
	}
	ptxpose_plan plan = NULL;
	ptxpose_status st = (op & 1) ? ptxpose_plan_create(h, &plan, &d) : ptxpose_transpose(h, &d, NULL, NULL, NULL);
	if (!h || !(op & 1)) {
		refused(st); /* no driver; or transpose with NULL buffers */
		return 0;
	}
	if (st) {
		refused(st);
		if (plan)
			abort(); /* a refused plan leaves nothing behind */
		return 0;
	}
	ptxpose_plan_info info;
	if (ptxpose_plan_get(plan, &info) || !info.kernel)
		abort();
	int copy = !strcmp(info.kernel, PTXPOSE_COPY); /* a copy plan: no launch, kernel_index -1 */
	if (copy ? info.kernel_index != -1 || info.grid[0] || info.block[0]
		 : info.kernel_index < 0 || !info.grid[0] || !info.block[0])
		abort();
	/* small dense problems run, checked: the plan's and transpose's */
	int small = d.rows * d.cols <= 4096 && (d.batch <= 1) && (!d.ld_in || d.ld_in == d.cols) &&
		    (!d.ld_out || d.ld_out == d.rows) && d.rows && d.cols && !d.align_in && !d.align_out;
	if (small)
		run_checked(plan, &d, how);
	ptxpose_plan_destroy(plan);
	if (small && (how & 4))
		run_checked(NULL, &d, 0);
	if (how & 8)
		refused(ptxpose_execute(plan, (void *)64, (void *)4096, NULL)); /* destroyed: stale */
	return 0;
}
