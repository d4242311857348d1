/* launch: one kernel of a loaded module on a stream, with the kernel ABI's
 * arguments (loader/abi.h: v3's list, of which a v2 kernel reads nine). No
 * check beyond the driver's: the caller (lib/) has checked the pointers,
 * the stream and the grid. */
#ifndef LOADER_LAUNCH_H
#define LOADER_LAUNCH_H

#include "loader/abi.h"
#include "loader/cu_api.h"

/* cuLaunchKernel of fn. On failure, returns the driver's code and writes
 * "cuLaunchKernel(NAME, grid GxGxG, block BxBxB, N B dynamic shared)" into
 * call (for the caller's message). */
CUresult launch_kernel(const cu_fns *f, CUfunction fn, const char *name, const unsigned grid[3],
		       const unsigned block[3], unsigned dyn_smem, CUstream stream, abi_args *args, char *call,
		       size_t calllen);

#endif
