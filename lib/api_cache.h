/* api_cache: ptxpose_transpose's plans by problem (api_cache.c, which also
 * holds ptxpose_transpose), on api_plan.h. */
#ifndef LIB_API_CACHE_H
#define LIB_API_CACHE_H

#include "lib/api.h"

api_cache *api_cache_new(void);
/* Every plan in it, freed with it. */
void api_cache_free(api_cache *c);
/* The plan for (p, kernel, mode) or NULL; under the handle's plan_lock. */
ptxpose_plan api_cache_get(api_cache *c, const model_problem *p, const char *kernel, unsigned mode);
/* Keep plan for (p, kernel, mode): 0, or -1 when full (the caller keeps it). */
int api_cache_put(api_cache *c, const model_problem *p, const char *kernel, unsigned mode, ptxpose_plan plan);

#endif
