/* api_launch: a plan's launch (api_exec.c), the lowest layer of the API
 * above lib/api.h: what measured plans, plans and ptxpose_transpose call. */
#ifndef LIB_API_LAUNCH_H
#define LIB_API_LAUNCH_H

#include "lib/api.h"

/* The launch of kernel k of the registry for p into pl (grid, block, arguments, info). */
ptxpose_status api_fix_launch(ptxpose_plan pl, const kreg_kernel *k, const model_problem *p);

/* Enqueue plan p on stream (the stream's context checked; nothing else). */
ptxpose_status api_launch(ptxpose_plan p, const void *in, void *out, ptxpose_stream stream);

/* A checked plan executed: the pointers checked, the handle's context made
 * current for the call, the launch (ptxpose_execute and ptxpose_transpose). */
ptxpose_status api_execute(ptxpose_plan p, const void *in, void *out, ptxpose_stream stream);

#endif
