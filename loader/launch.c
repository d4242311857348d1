/* launch: cuLaunchKernel with the kernel ABI's arguments (v4's list: a v2
 * kernel reads the first nine, a v3 kernel the first ten). */
#include "loader/launch.h"

#include <stdio.h>

CUresult launch_kernel(const cu_fns *f, CUfunction fn, const char *name, const unsigned grid[3],
		       const unsigned block[3], unsigned dyn_smem, CUstream stream, abi_args *args, char *call,
		       size_t calllen)
{
	void *ptrs[ABI_NPARAMS_V4];
	abi_pointers(args, ptrs);
	CUresult rc = f->LaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], dyn_smem, stream,
				      ptrs, NULL);
	if (rc)
		snprintf(call, calllen, "cuLaunchKernel(%s, grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared)", name,
			 grid[0], grid[1], grid[2], block[0], block[1], block[2], dyn_smem);
	return rc;
}
