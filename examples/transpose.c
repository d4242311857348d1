/* transpose.c: transpose a matrix on the GPU with libptxpose, the way a
 * program would: plan once, execute on its own stream, copy back, check.
 *
 *   cc transpose.c -I/usr/local/cuda/include $(pkg-config --cflags --libs ptxpose) -o transpose
 *
 * It links nothing but ptxpose. cuda.h gives the driver's types; the driver's
 * functions come from the driver the library opened (ptxpose_driver_symbol),
 * so the program starts on a machine without a driver and says so, and it
 * calls the same driver as the library even where $PTXPOSE_LIBCUDA names
 * another. A program that already links the CUDA runtime or libcuda uses
 * its own calls instead and hands ptxpose its pointers and stream.
 *
 * Exit status: 0 transposed bit-exactly; the ptxpose_status of a call that
 * failed (4, PTXPOSE_ERR_NO_DRIVER, without a driver; 5 without a device);
 * 90 a driver call failed; 91 the result is wrong. */
#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptxpose.h>

#define ROWS 1000
#define COLS 3001

/* The driver entry points this program uses, by their exported names. */
typedef struct {
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*htod)(CUdeviceptr, const void *, size_t);
	CUresult (*dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*stream_create)(CUstream *, unsigned);
	CUresult (*stream_sync)(CUstream);
	CUresult (*stream_destroy)(CUstream);
} driver_fns;

static driver_fns cu;

static ptxpose_status driver(void)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
		{"cuMemAlloc_v2", offsetof(driver_fns, mem_alloc)},
		{"cuMemFree_v2", offsetof(driver_fns, mem_free)},
		{"cuMemcpyHtoD_v2", offsetof(driver_fns, htod)},
		{"cuMemcpyDtoH_v2", offsetof(driver_fns, dtoh)},
		{"cuStreamCreate", offsetof(driver_fns, stream_create)},
		{"cuStreamSynchronize", offsetof(driver_fns, stream_sync)},
		{"cuStreamDestroy_v2", offsetof(driver_fns, stream_destroy)},
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *fn;
		ptxpose_status st = ptxpose_driver_symbol(syms[i].name, &fn);
		if (st)
			return st;
		memcpy((char *)&cu + syms[i].off, &fn, sizeof fn); /* POSIX: a symbol's address is its function */
	}
	return PTXPOSE_OK;
}

static int failed(const char *call, ptxpose_status st)
{
	fprintf(stderr, "transpose: %s: %s (%s)\n", call, ptxpose_last_error(), ptxpose_status_string(st));
	return (int)st;
}

static int cuda_failed(const char *call, CUresult rc)
{
	fprintf(stderr, "transpose: %s: CUresult %d\n", call, (int)rc);
	return 90;
}

int main(void)
{
	size_t bytes = (size_t)ROWS * COLS * sizeof(float);
	float *in = malloc(bytes), *out = malloc(bytes);
	if (!in || !out)
		return 90;
	for (size_t k = 0; k < (size_t)ROWS * COLS; k++)
		in[k] = (float)k * 0.5f;

	/* a handle: the current context, or device 0's primary context made current */
	ptxpose_handle h;
	ptxpose_status st = ptxpose_create(&h, 0);
	if (st)
		return failed("ptxpose_create", st);
	if ((st = driver()))
		return failed("ptxpose_driver_symbol", st);

	CUdeviceptr d_in, d_out;
	CUstream stream;
	CUresult rc;
	if ((rc = cu.mem_alloc(&d_in, bytes)) || (rc = cu.mem_alloc(&d_out, bytes)))
		return cuda_failed("cuMemAlloc", rc);
	if ((rc = cu.stream_create(&stream, CU_STREAM_NON_BLOCKING)))
		return cuda_failed("cuStreamCreate", rc);
	if ((rc = cu.htod(d_in, in, bytes)))
		return cuda_failed("cuMemcpyHtoD", rc);

	/* plan once: the cost model picks the kernel for this shape and device */
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = sizeof(float);
	d.rows = ROWS;
	d.cols = COLS;
	ptxpose_plan plan;
	if ((st = ptxpose_plan_create(h, &plan, &d)))
		return failed("ptxpose_plan_create", st);
	ptxpose_plan_info info;
	ptxpose_plan_get(plan, &info);

	/* execute as often as you like: asynchronous, on the program's stream */
	if ((st = ptxpose_execute(plan, (const void *)(uintptr_t)d_in, (void *)(uintptr_t)d_out, stream)))
		return failed("ptxpose_execute", st);
	if ((rc = cu.stream_sync(stream)))
		return cuda_failed("cuStreamSynchronize", rc);
	if ((rc = cu.dtoh(out, d_out, bytes)))
		return cuda_failed("cuMemcpyDtoH", rc);

	size_t wrong = 0;
	for (size_t i = 0; i < ROWS; i++)
		for (size_t j = 0; j < COLS; j++)
			wrong += memcmp(&out[j * ROWS + i], &in[i * COLS + j], sizeof(float)) != 0;
	ptxpose_device_info dev;
	ptxpose_device_get(h, &dev);
	printf("transpose: %dx%d floats by %s on %s: %s\n", ROWS, COLS, info.kernel, dev.name,
	       wrong ? "WRONG" : "bit-exact");

	ptxpose_plan_destroy(plan);
	cu.stream_destroy(stream);
	cu.mem_free(d_in);
	cu.mem_free(d_out);
	ptxpose_destroy(h);
	free(in);
	free(out);
	return wrong ? 91 : 0;
}
