/* launch: the operations the rig verifies and times: a ptxpose kernel
 * launched per kernel ABI v2 (docs/DESIGN.md), and the device-to-device copy. */
#include "lib/cu_api.h"
#include "rig/rig.h"

#include <stdio.h>

px_status px_launch_check(const px_meta *m, const px_shape *s, char *err, size_t errlen)
{
	unsigned grid[3];
	char why[256];
	if (!meta_grid_dims(m, s->rows, s->cols, s->batch, grid, why, sizeof why))
		return PX_OK;
	snprintf(err, errlen, "%s", why);
	return PX_EUSAGE;
}

static px_status kernel_enqueue(void *ud, px_stream stream, uint64_t in, uint64_t out, const px_shape *s,
				char *err, size_t errlen)
{
	jit_kernel *k = ud;
	const px_meta *m = jit_meta(k);
	cu_ctx *cu = jit_cu(k);
	unsigned grid[3];
	char why[256];
	if (meta_grid_dims(m, s->rows, s->cols, s->batch, grid, why, sizeof why)) {
		snprintf(err, errlen, "%s", why);
		return PX_EUSAGE;
	}
	/* .u64 in, out; .u32 rows, cols, ld_in, ld_out, batch; .u64 stride_in, stride_out */
	CUdeviceptr p_in = in, p_out = out;
	uint32_t rows = (uint32_t)s->rows, cols = (uint32_t)s->cols;
	uint32_t ld_in = (uint32_t)s->ld_in, ld_out = (uint32_t)s->ld_out, batch = (uint32_t)s->batch;
	uint64_t stride_in = s->stride_in, stride_out = s->stride_out;
	void *args[] = {&p_in, &p_out, &rows, &cols, &ld_in, &ld_out, &batch, &stride_in, &stride_out};
	CUresult rc = cu->f.LaunchKernel(jit_function(k), grid[0], grid[1], grid[2],
					 m->block[0], m->block[1], m->block[2], m->dyn_smem, stream, args, NULL);
	if (!rc)
		return PX_OK;
	char call[320];
	snprintf(call, sizeof call, "cuLaunchKernel(%s, grid %ux%ux%u, block %ux%ux%u, %u B dynamic shared)",
		 m->kernel, grid[0], grid[1], grid[2], m->block[0], m->block[1], m->block[2], m->dyn_smem);
	return CU_FAIL(cu, rc, call, err, errlen);
}

px_op px_op_kernel(jit_kernel *k)
{
	return (px_op){.name = jit_meta(k)->kernel, .enqueue = kernel_enqueue, .ud = k, .is_transpose = 1};
}

static px_status copy_enqueue(void *ud, px_stream stream, uint64_t in, uint64_t out, const px_shape *s,
			      char *err, size_t errlen)
{
	return cu_dtod_async(ud, out, in, px_shape_moved_bytes(s) / 2, stream, err, errlen);
}

px_op px_op_copy(cu_ctx *cu)
{
	return (px_op){.name = "copy", .enqueue = copy_enqueue, .ud = cu, .copy_floor = 1};
}
