/* op: what gets verified and timed over a shape's buffers (op.c): a plan of
 * the library, the copy. */
#ifndef RIG_OP_H
#define RIG_OP_H

#include <stddef.h>
#include <stdint.h>

#include "include/ptxpose.h"
#include "loader/meta.h"
#include "loader/status.h"
#include "rig/drv.h"
#include "rig/shape.h"

/* One thing to run over a shape's buffers, enqueued on `stream` (the rig's
 * timing stream, or NULL: the default stream), so that the same op can be
 * captured into a CUDA graph. */
typedef struct {
	const char *name;   /* the kernel name, "copy", "cublas_geam" */
	px_status (*enqueue)(void *ud, ptxpose_stream stream, uint64_t in, uint64_t out, const rig_shape *s,
			     char *err, size_t errlen);
	void *ud;
	int finite_input;   /* it computes alpha*a + beta*b: feed it vfy_finite data */
	int is_transpose;   /* 0 for the copy: time it, never verify it */
	int copy_floor;     /* graph timing also times it outside the graph; the faster counts */
} rig_op;

/* A plan of the library (include/ptxpose.h), made for the shape it is run
 * on: ptxpose_execute on the rig's stream, so that graph timing captures
 * the library's call, as a program would make it. */
rig_op rig_op_plan(ptxpose_plan plan, const char *name);
/* cuMemcpyDtoDAsync of rows*cols*elem bytes from in to out: the bar. */
rig_op rig_op_copy(drv_ctx *drv);

/* The rig's status for one of the library's, and the library's last error
 * into err: a failed call's PX_ status. */
px_status rig_from_ptxpose(ptxpose_status st);
px_status rig_api_fail(ptxpose_status st, char *err, size_t errlen);

/* An internal assertion: PX_EUSAGE when meta_grid_dims refuses s (it gives
 * every checked shape a grid; only a bad PTXPOSE_GRID_MAX or an unchecked
 * shape is refused); an N-d shape's reduced problem (rig_shape_reduce). */
px_status rig_launch_check(const px_meta *m, const rig_shape *s, char *err, size_t errlen);

#endif
