/* gpu: what run, check and bench share on the GPU path: the driver and the
 * rig (rig/), and a ptxpose handle on the rig's context through which every
 * kernel is registered, planned and executed (include/ptxpose.h), as a
 * program would. */
#ifndef CLI_GPU_H
#define CLI_GPU_H

#include "common/strbuf.h"
#include "include/ptxpose.h"
#include "loader/pxfile.h"
#include "rig/rig.h"

typedef struct {
	drv_ctx *drv;      /* the rig's driver context (rig/drv.h) */
	rig_ctx *rig;
	ptxpose_handle h;
	char device[256];  /* its name (ptxpose_device_get) */
	unsigned gen;      /* bumped by cli_gpu_reset: files must be linked again */
	int verbose;
	unsigned plan_mode;  /* cli_gpu_plan's desc.mode: PTXPOSE_PLAN_HEURISTIC (0) or _MEASURE */
	strbuf jit;        /* the JIT's logs since the last cli_gpu_take_jit */
	px_log log;        /* -v: "# " lines on stderr */
} cli_gpu;

/* A handle (on device 0's primary context), the rig's driver context on it
 * and a rig; the handle's notes (-v) go to stderr, its JIT logs into g->jit. */
px_status cli_gpu_open(cli_gpu *g, int verbose, char *err, size_t errlen);
void cli_gpu_close(cli_gpu *g);

/* After a kernel faulted: the handle goes, the primary context is reset,
 * the rig's buffers are dropped, a new handle comes (g->gen changes). */
px_status cli_gpu_reset(cli_gpu *g, char *err, size_t errlen);

/* Register f's PTX with the handle (replacing the kernel of its name) and
 * link it, so that a JIT failure is told once, with its log. */
px_status cli_gpu_link(cli_gpu *g, const px_file *f, char *err, size_t errlen);

/* A plan for the rig's current shape s (rig_prepare done): the kernel
 * named (NULL: the library's choice), for the alignment of the rig's
 * pointers. */
px_status cli_gpu_plan(cli_gpu *g, const char *kernel, const rig_shape *s, ptxpose_plan *out, char *err,
		       size_t errlen);

/* The JIT logs gathered so far (then forgotten), "" when none. */
const char *cli_gpu_jit(cli_gpu *g);
void cli_gpu_jit_clear(cli_gpu *g);

#endif
