/* api_measure: a measured plan's kernel (api_measure.c), on api_launch.h. */
#ifndef LIB_API_MEASURE_H
#define LIB_API_MEASURE_H

#include "lib/api.h"

/* Kernel *index for p by timing the model's plausible candidates on the
 * GPU, or from the on-disk cache: info's measured fields and pl->report
 * filled (ptxpose_tool_plan_report gives it to the tools). Under the
 * registry's read lock and the handle's context. */
ptxpose_status api_measure_choose(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p,
				  ptxpose_plan pl, int *index);

#endif
