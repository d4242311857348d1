/* cu: libcuda.so.1 opened at run time, the device, the context a handle
 * works in, driver error text. Private to lib/ and loader/: programs, the
 * rig among them, use include/ptxpose.h (ptxpose_driver_symbol).
 * PTXPOSE_LIBCUDA names another driver to dlopen (tests); PTXPOSE_JIT=link
 * makes jit_load use the linker (loader/jit.h). */
#ifndef LOADER_CU_H
#define LOADER_CU_H

#include <stddef.h>
#include <stdint.h>

#include "loader/status.h"

typedef struct cu_ctx cu_ctx;

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

/* The context current on this thread, if there is one (not retained: it is
 * the caller's); else device 0's primary context, retained and made current.
 * The library's handle (ptxpose_create) is made this way. PX_ENODRIVER
 * ("no CUDA driver: libcuda.so.1 not found (dlerror)"), PX_ENODEVICE ("no
 * CUDA device"). */
px_status cu_attach(cu_ctx **out, const px_log *log, char *err, size_t errlen);

/* Device 0's description (what cu_info gives after cu_attach), without a
 * context: nothing is retained or made current. The same errors as
 * cu_attach's up to the context. */
px_status cu_probe(cu_devinfo *out, char *err, size_t errlen);

/* Release what cu_attach retained. */
void cu_close(cu_ctx *cu);

/* An exported symbol of the driver the process opened (NULL before the
 * driver is opened, or when it has no such symbol). */
void *cu_driver_symbol(const char *name);
const cu_devinfo *cu_info(const cu_ctx *cu);

#endif
