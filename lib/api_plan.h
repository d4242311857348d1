/* api_plan: a desc to a plan (api_plan.c), on api_measure.h and api_launch.h. */
#ifndef LIB_API_PLAN_H
#define LIB_API_PLAN_H

#include "lib/api.h"

/* The checked problem of a desc, with the pointers' alignment where the desc
 * promises none and in/out are given (ptxpose_transpose). */
ptxpose_status api_problem(const ptxpose_desc *d, const void *in, const void *out, model_problem *p);

/* Plan p in handle h (the registry read-locked inside): a plan not yet in
 * any list. */
ptxpose_status api_plan_make(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p, ptxpose_plan *out);
void api_plan_free(ptxpose_plan p);

#endif
