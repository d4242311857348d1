/* api_plan: a desc checked into a problem, the kernel chosen (by the cost
 * model, or by name), linked, and its launch fixed in a plan. */
#include "lib/api.h"
#include "lib/api_launch.h"
#include "lib/api_measure.h"
#include "lib/api_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "lib/pick.h"

/* A caller's string in a message: its first META_VAL_MAX bytes, control
 * characters escaped (\n, \x1b), so the message stays one line. */
static const char *shown(const char *s, char *buf, size_t len)
{
	strbuf sb;
	sb_init(&sb);
	sb_add_esc(&sb, s, strnlen(s, META_VAL_MAX), NULL);
	snprintf(buf, len, "%s", sb_str(&sb));
	sb_free(&sb);
	return buf;
}

/* An N-d desc's problem: its 2-D fields 0, then model_problem_of_nd with the
 * alignments known (promised, else the pointers'). */
static ptxpose_status nd_problem_of(const ptxpose_desc *d, unsigned a_in, unsigned a_out, model_problem *p,
				   char *err, size_t errlen)
{
#define NAME_(f) #f,
#define VALUE_(f) d->f,
	static const char *const names[] = {MODEL_SHAPE_FIELDS(NAME_)};
	const uint64_t v[] = {MODEL_SHAPE_FIELDS(VALUE_)};
#undef NAME_
#undef VALUE_
	for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++)
		if (v[k])
			return api_fail(PTXPOSE_ERR_INVALID, "desc->%s is %llu with desc->rank %u: an N-d desc takes "
							     "extents and strides, its 2-D fields stay 0",
					names[k], (unsigned long long)v[k], d->rank);
	return api_fail_model(model_problem_of_nd(p, d, d->align_in ? d->align_in : a_in,
						  d->align_out ? d->align_out : a_out, NULL, 0, err, errlen),
			      "desc->", err);
}

ptxpose_status api_problem(const ptxpose_desc *d, const void *in, const void *out, model_problem *p)
{
	if (!d)
		return api_fail(PTXPOSE_ERR_INVALID, "desc is NULL");
	if (d->size != sizeof *d && d->size != PTXPOSE_DESC_SIZE_0_3)
		return api_fail(PTXPOSE_ERR_INVALID, "desc->size is %u, not sizeof(ptxpose_desc) = %zu (or %zu, a 0.3 "
						     "desc): start from PTXPOSE_DESC_INIT", d->size, sizeof *d,
				(size_t)PTXPOSE_DESC_SIZE_0_3);
	if (d->reserved)
		return api_fail(PTXPOSE_ERR_INVALID, "desc->reserved is %u; it must be 0", d->reserved);
	if (d->mode != PTXPOSE_PLAN_HEURISTIC && d->mode != PTXPOSE_PLAN_MEASURE)
		return api_fail(PTXPOSE_ERR_INVALID, "desc->mode %u is neither PTXPOSE_PLAN_HEURISTIC nor _MEASURE", d->mode);
	if (!(d->measure_budget_ms >= 0) || isinf(d->measure_budget_ms))
		return api_fail(PTXPOSE_ERR_INVALID, "desc->measure_budget_ms %g is not a time in ms", d->measure_budget_ms);
	if (d->kernel && strnlen(d->kernel, 256) > META_VAL_MAX) {
		char name[4 * META_VAL_MAX + 1];
		return api_fail(PTXPOSE_ERR_NO_KERNEL, "desc->kernel '%s...' is longer than a kernel name (%d characters)",
				shown(d->kernel, name, sizeof name), META_VAL_MAX);
	}
	/* an address's alignment up to 256 bytes: that of its offset from 0 */
	unsigned a_in = in ? model_align_of_offset((uintptr_t)in, 1) : 0;
	unsigned a_out = out ? model_align_of_offset((uintptr_t)out, 1) : 0;
	char err[512];
	if (model_desc_is_nd(d)) {
		ptxpose_status st = nd_problem_of(d, a_in, a_out, p, err, sizeof err);
		if (st)
			return st;
	} else {
		model_problem_of_desc(p, d);
	}
	if (!p->align_in)
		p->align_in = a_in;
	if (!p->align_out)
		p->align_out = a_out;
	unsigned es = d->elem_bytes;
	int bad_in = in && a_in < es;
	if (es && !(es & (es - 1)) && es <= 16 && (bad_in || (out && a_out < es)))
		return api_fail(PTXPOSE_ERR_MISALIGNED, "%s %p is not aligned to %u bytes, the element size",
				bad_in ? "in" : "out", bad_in ? in : out, es);
	return api_fail_model(model_problem_check(p, err, sizeof err), "desc->", err);
}

/* The kernel: by name, or the model's first; its prediction into info. */
static ptxpose_status choose(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p, int *index,
			     ptxpose_plan_info *info)
{
	char err[512];
	if (d->kernel) {
		int i = kreg_find(h->reg, d->kernel);
		if (i < 0)
			return api_fail(PTXPOSE_ERR_NO_KERNEL, "no kernel named '%s' in this handle",
					shown(d->kernel, err, sizeof err));
		const kreg_kernel *k = kreg_get(h->reg, i);
		if (k->mk.es != p->es)
			return api_fail(PTXPOSE_ERR_INVALID, "kernel %s moves %u-byte elements, desc->elem_bytes is %u",
					d->kernel, k->mk.es, p->es);
		if (!pick_runs_on(&k->mk, &h->dev))
			return api_fail(PTXPOSE_ERR_JIT, "kernel %s needs sm_%u (its PTX's target); this device is sm_%u%u",
					d->kernel, k->mk.sm, h->dev.cc_major, h->dev.cc_minor);
		model_features f;
		model_estimate e;
		model_features_of(&h->dev, &k->mk, p, h->params, &f);
		model_estimate_of(h->params, &k->mk, &f, &e);
		info->predicted_us = e.us;
		info->candidates = 1;
		*index = i;
		return PTXPOSE_OK;
	}
	pick_result r;
	px_status st = pick_rank(h->reg, &h->dev, h->params, p, &r, err, sizeof err);
	if (st)
		return api_fail_px(st, err);
	*index = r.c[0].index;
	info->predicted_us = r.c[0].e.us;
	info->unsure = r.unsure;
	info->candidates = r.n;
	pick_free(&r);
	return PTXPOSE_OK;
}

/* A problem that is the identity on memory: one cuMemcpyDtoDAsync, no kernel. */
static void fix_copy(ptxpose_handle h, ptxpose_plan pl, const model_problem *p)
{
	pl->es = p->es;
	pl->in_bytes = model_problem_in_bytes(p);
	pl->out_bytes = model_problem_out_bytes(p);
	pl->copy_bytes = (p->copy_elems ? p->copy_elems : p->rows * p->cols * p->batch) * p->es;
	ptxpose_plan_info *i = &pl->info;
	i->kernel = PTXPOSE_COPY;
	i->kernel_index = -1;
	i->predicted_us = model_copy_us(&h->dev, p);
}

ptxpose_status api_plan_make(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p, ptxpose_plan *out)
{
	ptxpose_plan pl = calloc(1, sizeof *pl);
	if (!pl)
		return api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory");
	int pushed, index = -1;
	char why[256];
	ptxpose_status st = PTXPOSE_OK;
	if (p->copy_elems || (!d->kernel && model_problem_is_copy(p, why, sizeof why))) {
		/* an N-d identity is a copy even with a kernel named: no kernel takes its one run */
		fix_copy(h, pl, p);
	} else if (!(st = api_enter(h, &pushed))) {
		/* read-locked until linked: a registration cannot swap the kernel meanwhile */
		pthread_rwlock_rdlock(&h->reg_lock);
		if (!d->kernel && d->mode == PTXPOSE_PLAN_MEASURE)
			st = api_measure_choose(h, d, p, pl, &index);
		else
			st = choose(h, d, p, &index, &pl->info);
		if (!st && !(st = api_fix_launch(pl, kreg_get(h->reg, index), p)))
			st = api_kernel_fn(h, index, &pl->fn);
		pthread_rwlock_unlock(&h->reg_lock);
		api_leave(h, pushed);
		pl->info.kernel_index = index;
	}
	if (st) {
		api_plan_free(pl);
		return st;
	}
	pl->h = h;
	pl->f = h->cu->f;
	pl->ctx = h->cu->ctx;
	pl->need_in = d->align_in ? d->align_in : p->es;
	pl->need_out = d->align_out ? d->align_out : p->es;
	*out = pl;
	return PTXPOSE_OK;
}

void api_plan_free(ptxpose_plan p)
{
	if (p->report)
		free(p->report->c);
	free(p->report);
	p->report = NULL;
	if (p->id)
		api_live_drop(p->id);
	free(p);
}

ptxpose_status ptxpose_plan_create(ptxpose_handle h, ptxpose_plan *plan, const ptxpose_desc *desc)
{
	ptxpose_status st = api_check_handle_arg(&h, plan, "the plan pointer");
	if (st)
		return st;
	*plan = NULL;
	model_problem p;
	ptxpose_plan pl;
	if (!(st = api_problem(desc, NULL, NULL, &p)) && !(st = api_plan_make(h, desc, &p, &pl))) {
		if (!(pl->id = api_live_add(pl, 1))) {
			api_plan_free(pl);
			st = api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory (too many handles and plans alive)");
		} else {
			pthread_mutex_lock(&h->plan_lock);
			if ((pl->next = h->plans))
				h->plans->prev = pl;
			h->plans = pl;
			pthread_mutex_unlock(&h->plan_lock);
			*plan = (ptxpose_plan)pl->id;
		}
	}
	api_log_flush(); /* the last: a callback may even destroy h */
	return st;
}

ptxpose_status ptxpose_plan_destroy(ptxpose_plan plan)
{
	ptxpose_status st = api_take_plan(&plan);
	if (st)
		return st;
	plan->id = 0; /* taken */
	ptxpose_handle h = plan->h;
	pthread_mutex_lock(&h->plan_lock);
	if (plan->prev)
		plan->prev->next = plan->next;
	else
		h->plans = plan->next;
	if (plan->next)
		plan->next->prev = plan->prev;
	pthread_mutex_unlock(&h->plan_lock);
	api_plan_free(plan);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_plan_get(ptxpose_plan plan, ptxpose_plan_info *info)
{
	ptxpose_status st = api_check_plan_arg(&plan, info, "info");
	if (st)
		return st;
	*info = plan->info;
	return PTXPOSE_OK;
}
