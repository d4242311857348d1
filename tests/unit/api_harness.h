/* What the library's C tests share (api_unit.c, api_threads.c): the driver
 * functions they need, taken from the driver the library opened (the fake
 * one of tests/fakecuda, which the tests name through $PTXPOSE_LIBCUDA). */
#ifndef TESTS_UNIT_API_HARNESS_H
#define TESTS_UNIT_API_HARNESS_H

#include <cuda.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxpose.h"

#define API_FAKE_DRIVER "build/fakecuda/libcuda.so.1"

static struct {
	CUresult (*alloc)(CUdeviceptr *, size_t);
	CUresult (*free_)(CUdeviceptr);
	CUresult (*htod)(CUdeviceptr, const void *, size_t);
	CUresult (*dtoh)(void *, CUdeviceptr, size_t);
	CUresult (*sync)(void);
	CUresult (*stream_create)(CUstream *, unsigned);
	CUresult (*stream_sync)(CUstream);
	CUresult (*stream_destroy)(CUstream);
	CUresult (*ctx_create)(CUcontext *, unsigned, CUdevice);
	CUresult (*push)(CUcontext);
	CUresult (*pop)(CUcontext *);
} cu;

/* Every entry of cu through ptxpose_driver_symbol: 0, or -1. */
static inline int api_driver(void)
{
	const struct {
		const char *name;
		void *slot;
	} syms[] = {
		{"cuMemAlloc_v2", &cu.alloc}, {"cuMemFree_v2", &cu.free_}, {"cuMemcpyHtoD_v2", &cu.htod},
		{"cuMemcpyDtoH_v2", &cu.dtoh}, {"cuCtxSynchronize", &cu.sync}, {"cuStreamCreate", &cu.stream_create},
		{"cuStreamSynchronize", &cu.stream_sync}, {"cuStreamDestroy_v2", &cu.stream_destroy},
		{"cuCtxCreate_v2", &cu.ctx_create}, {"cuCtxPushCurrent_v2", &cu.push}, {"cuCtxPopCurrent_v2", &cu.pop},
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *fn;
		if (ptxpose_driver_symbol(syms[i].name, &fn))
			return -1;
		memcpy(syms[i].slot, &fn, sizeof fn); /* POSIX: a symbol's address is its function */
	}
	return 0;
}

#endif
