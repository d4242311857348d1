/* api_cache: ptxpose_transpose, and its plans by problem, an open-addressing hash
 * table. Plans stay until the handle goes (a caller may be executing one
 * while another thread looks up), so the table stops taking new ones when
 * it is three quarters full. The handle's plan_lock guards it. */
#include "lib/api.h"
#include "lib/api_cache.h"
#include "lib/api_launch.h"
#include "lib/api_plan.h"

#include <stdlib.h>
#include <string.h>

#include "common/cache.h"

#define SLOTS 1024 /* a power of two */
#define MAX_PLANS (SLOTS / 4 * 3)

typedef struct {
	model_problem p;
	char kernel[META_VAL_MAX + 1]; /* "" when the plan chose */
	unsigned mode;                 /* PTXPOSE_PLAN_HEURISTIC or _MEASURE */
	uint64_t hash;
	ptxpose_plan plan;
} slot;

struct api_cache {
	slot *s;
	int n;
};

api_cache *api_cache_new(void)
{
	api_cache *c = calloc(1, sizeof *c);
	if (c && !(c->s = calloc(SLOTS, sizeof *c->s))) {
		free(c);
		c = NULL;
	}
	return c;
}

void api_cache_free(api_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < SLOTS; i++)
		if (c->s[i].plan)
			api_plan_free(c->s[i].plan);
	free(c->s);
	free(c);
}

/* The fields that make a problem (padding bytes left out): its shape
 * (MODEL_SHAPE_FIELDS), its width and alignments. */
#define PROBLEM_FIELDS(X) MODEL_SHAPE_FIELDS(X) X(es) X(align_in) X(align_out) \
	X(span_in) X(span_out) X(copy_elems) X(op) X(nbd)

static uint64_t hash_of(const model_problem *p, const char *kernel, unsigned mode)
{
#define VALUE(f) (uint64_t)p->f,
	const uint64_t v[] = {PROBLEM_FIELDS(VALUE) mode};
#undef VALUE
	uint64_t h = cache_hash(CACHE_HASH_INIT, v, sizeof v);
	h = cache_hash(h, p->bd_ext, sizeof p->bd_ext);
	h = cache_hash(h, p->bd_in, sizeof p->bd_in);
	h = cache_hash(h, p->bd_out, sizeof p->bd_out);
	h = cache_hash(h, &p->pack, sizeof p->pack); /* all 64-bit fields: no padding */
	return kernel ? cache_hash(h, kernel, strlen(kernel)) : h;
}

static int same(const slot *s, const model_problem *p, const char *kernel, unsigned mode)
{
	const model_problem *q = &s->p;
#define SAME(f) q->f == p->f &&
	return PROBLEM_FIELDS(SAME) !memcmp(q->bd_ext, p->bd_ext, sizeof p->bd_ext) &&
	       !memcmp(q->bd_in, p->bd_in, sizeof p->bd_in) && !memcmp(q->bd_out, p->bd_out, sizeof p->bd_out) &&
	       !memcmp(&q->pack, &p->pack, sizeof p->pack) &&
	       s->mode == mode && !strcmp(s->kernel, kernel ? kernel : "");
#undef SAME
}

ptxpose_plan api_cache_get(api_cache *c, const model_problem *p, const char *kernel, unsigned mode)
{
	uint64_t h = hash_of(p, kernel, mode);
	for (unsigned i = (unsigned)h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		const slot *s = &c->s[i];
		if (!s->plan)
			return NULL;
		if (s->hash == h && same(s, p, kernel, mode))
			return s->plan;
	}
}

int api_cache_put(api_cache *c, const model_problem *p, const char *kernel, unsigned mode, ptxpose_plan plan)
{
	if (c->n >= MAX_PLANS || (kernel && strlen(kernel) > META_VAL_MAX))
		return -1;
	uint64_t h = hash_of(p, kernel, mode);
	unsigned i = (unsigned)h & (SLOTS - 1);
	while (c->s[i].plan)
		i = (i + 1) & (SLOTS - 1);
	slot *s = &c->s[i];
	s->p = *p;
	strcpy(s->kernel, kernel ? kernel : "");
	s->mode = mode;
	s->hash = h;
	s->plan = plan;
	c->n++;
	return 0;
}

/* ptxpose_transpose's plan from the handle's cache (made and kept on a
 * miss), executed. */
static ptxpose_status plan_and_execute(ptxpose_handle h, const ptxpose_desc *desc, const model_problem *p,
				       const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st;
	const char *kernel = desc->kernel;
	unsigned mode = desc->mode;
	pthread_mutex_lock(&h->plan_lock);
	ptxpose_plan plan = api_cache_get(h->cache, p, kernel, mode);
	pthread_mutex_unlock(&h->plan_lock);
	if (!plan) {
		ptxpose_plan made;
		if ((st = api_plan_make(h, desc, p, &made)))
			return st;
		pthread_mutex_lock(&h->plan_lock);
		/* another thread may have made the same plan meanwhile: keep one */
		if (!(plan = api_cache_get(h->cache, p, kernel, mode)) && !api_cache_put(h->cache, p, kernel, mode, made))
			plan = made, made = NULL;
		pthread_mutex_unlock(&h->plan_lock);
		if (!plan) { /* the cache is full: this call's own plan, then gone */
			st = api_execute(made, in, out, stream);
			api_plan_free(made);
			return st;
		}
		if (made)
			api_plan_free(made);
	}
	return api_execute(plan, in, out, stream);
}

ptxpose_status ptxpose_transpose(ptxpose_handle h, const ptxpose_desc *desc, const void *in, void *out,
				 ptxpose_stream stream)
{
	ptxpose_status st = api_check_handle(&h);
	model_problem p;
	if (!st && (!in || !out))
		st = api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", in ? "out" : "in");
	if (st || (st = api_problem(desc, in, out, &p)))
		return st;
	st = plan_and_execute(h, desc, &p, in, out, stream);
	api_log_flush(); /* the last: a callback may even destroy h */
	return st;
}

ptxpose_status ptxpose_permute(ptxpose_handle h, const ptxpose_desc *desc, const void *in, void *out,
			       ptxpose_stream stream)
{
	return ptxpose_transpose(h, desc, in, out, stream);
}
