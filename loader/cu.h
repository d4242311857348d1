/* cu: libcuda.so.1 opened at run time, the device, its primary context,
 * device and pinned host memory, driver error text. Internal to the tree:
 * the library's API (lib/api*.c) and the rig (rig/) use it; programs use
 * include/ptxpose.h. PTXPOSE_LIBCUDA names another driver to dlopen (tests);
 * PTXPOSE_JIT=link makes jit_load use the linker (loader/jit.h). */
#ifndef LOADER_CU_H
#define LOADER_CU_H

#include <stddef.h>
#include <stdint.h>

#include "loader/status.h"

typedef struct cu_ctx cu_ctx;

/* CUstream of cuda.h, which this header does not include; NULL is the
 * default (legacy) stream. */
struct CUstream_st;
typedef struct CUstream_st *px_stream;

typedef struct {
	char name[256];
	int ordinal;
	int driver_version;   /* 13000 for 13.0 */
	int cc_major, cc_minor;
	int sm_count;
	int l2_bytes;
	int smem_optin;       /* shared memory per block with opt-in */
	uint64_t total_mem;
	/* for the plan model; 0 where the driver does not say */
	int smem_per_sm, smem_reserved, regs_per_sm, threads_per_sm, blocks_per_sm;
	int mem_clock_khz, bus_bits;
} cu_devinfo;

/* dlopen libcuda.so.1 (or $PTXPOSE_LIBCUDA, for tests), resolve every
 * entry point, cuInit, take device
 * `ordinal`'s primary context and make it current. PX_ENODRIVER ("no CUDA
 * driver: libcuda.so.1 not found (dlerror)"), PX_ENODEVICE ("no CUDA device"). */
px_status cu_open(cu_ctx **out, int ordinal, const px_log *log, char *err, size_t errlen);

/* The context current on this thread, if there is one (not retained: it is
 * the caller's); else device 0's primary context, retained and made current
 * as cu_open does. The library's handle (ptxpose_create) is made this way. */
px_status cu_attach(cu_ctx **out, const px_log *log, char *err, size_t errlen);

/* Release what cu_open or cu_attach retained. */
void cu_close(cu_ctx *cu);

/* An exported symbol of the driver the process opened (NULL before the
 * driver is opened, or when it has no such symbol). */
void *cu_driver_symbol(const char *name);
const cu_devinfo *cu_info(const cu_ctx *cu);
const px_log *cu_log(const cu_ctx *cu);

/* "13.0" */
const char *cu_driver_str(const cu_ctx *cu, char *buf, size_t len);

/* After a sticky error (an illegal address in a kernel), reset the primary
 * context: every module, device and pinned buffer is gone. Resources made
 * before carry an older generation and are dropped, never freed. */
px_status cu_reset(cu_ctx *cu, char *err, size_t errlen);
unsigned cu_generation(const cu_ctx *cu);

px_status cu_sync(cu_ctx *cu, const char *what, char *err, size_t errlen);
px_status cu_mem_info(cu_ctx *cu, uint64_t *free_b, uint64_t *total_b, char *err, size_t errlen);

/* Device memory. */
typedef struct {
	uint64_t ptr, bytes;
	unsigned gen;
} cu_buf;

px_status cu_alloc(cu_ctx *cu, cu_buf *b, uint64_t bytes, char *err, size_t errlen);
void cu_free(cu_ctx *cu, cu_buf *b);
px_status cu_htod(cu_ctx *cu, uint64_t dst, const void *src, uint64_t bytes, char *err, size_t errlen);
px_status cu_dtoh(cu_ctx *cu, void *dst, uint64_t src, uint64_t bytes, char *err, size_t errlen);
/* Asynchronous on the default stream. */
px_status cu_memset8(cu_ctx *cu, uint64_t dst, unsigned char v, uint64_t bytes, char *err, size_t errlen);
/* Asynchronous on `stream` (NULL: the default stream). */
px_status cu_dtod_async(cu_ctx *cu, uint64_t dst, uint64_t src, uint64_t bytes, px_stream stream,
			char *err, size_t errlen);

/* Host memory, pinned (cuMemAllocHost) when it can be had, else malloc. */
typedef struct {
	void *p;
	uint64_t bytes;
	int pinned;
	unsigned gen;
} cu_host;

px_status cu_host_alloc(cu_ctx *cu, cu_host *h, uint64_t bytes, char *err, size_t errlen);
void cu_host_free(cu_ctx *cu, cu_host *h);


#endif
