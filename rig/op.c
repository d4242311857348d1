/* op: the operations the rig verifies and times: a ptxpose plan executed
 * through the library's public API (include/ptxpose.h), and the
 * device-to-device copy. */
#include "rig/rig.h"

#include <stdio.h>

px_status rig_launch_check(const px_meta *m, const rig_shape *s, char *err, size_t errlen)
{
	unsigned grid[3];
	char why[256];
	uint64_t rows = s->p.rows, cols = s->p.cols, batch = s->p.batch;
	if (s->p.rank) { /* the reduced problem's launch; a copy launches nothing */
		ptxpose_tool_problem t;
		px_status st = rig_shape_reduce(s, &t, NULL, 0, err, errlen);
		char pending[256];
		if (st || t.copy_elems || *rig_kernel_pending(m, &t, pending, sizeof pending))
			return st;
		rows = t.rows, cols = t.cols, batch = t.batch ? t.batch : 1;
	}
	if (!meta_grid_dims(m, rows, cols, batch, grid, why, sizeof why))
		return PX_OK;
	snprintf(err, errlen, "%s", why);
	return PX_EUSAGE;
}

px_status rig_from_ptxpose(ptxpose_status st)
{
	switch (st) {
	case PTXPOSE_OK: return PX_OK;
	case PTXPOSE_ERR_NO_DRIVER: return PX_ENODRIVER;
	case PTXPOSE_ERR_NO_DEVICE: return PX_ENODEVICE;
	case PTXPOSE_ERR_CUDA: return PX_ECUDA;
	case PTXPOSE_ERR_JIT: return PX_EJIT;
	case PTXPOSE_ERR_NO_MEMORY: return PX_ENOMEM;
	case PTXPOSE_ERR_NO_KERNEL:
	case PTXPOSE_ERR_UNSUPPORTED: /* no kernel for the class yet: exit 3, as plan's */
	case PTXPOSE_ERR_BAD_PTX: return PX_EINPUT;
	default: return PX_EUSAGE; /* the arguments: invalid, misaligned, too large, another context */
	}
}

px_status rig_api_fail(ptxpose_status st, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", ptxpose_last_error());
	return rig_from_ptxpose(st);
}

static px_status plan_enqueue(void *ud, ptxpose_stream stream, uint64_t in, uint64_t out, const rig_shape *s,
			      char *err, size_t errlen)
{
	(void)s; /* the plan was made for it */
	ptxpose_status st = ptxpose_execute(ud, (const void *)(uintptr_t)in, (void *)(uintptr_t)out, stream);
	return st ? rig_api_fail(st, err, errlen) : PX_OK;
}

rig_op rig_op_plan(ptxpose_plan plan, const char *name)
{
	return (rig_op){.name = name, .enqueue = plan_enqueue, .ud = plan, .is_transpose = 1};
}

static px_status copy_enqueue(void *ud, ptxpose_stream stream, uint64_t in, uint64_t out, const rig_shape *s,
			      char *err, size_t errlen)
{
	return drv_dtod_async(ud, out, in, rig_shape_moved_bytes(s) / 2, stream, err, errlen);
}

rig_op rig_op_copy(drv_ctx *drv)
{
	return (rig_op){.name = "copy", .enqueue = copy_enqueue, .ud = drv, .copy_floor = 1};
}
