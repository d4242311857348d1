/* rig_time: time one operation (rig/rig.h, rig_time_opts): the method chosen,
 * per-call events (warm-up calls, then events around each call on the
 * default stream and a wait for the second, the median; optionally the L2
 * emptied first), the statistics, and the words that name a method.
 * Graph timing is in rig_graph.c. */
#include "rig/rig_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void rig_stats(double *us, int n, rig_timing *t)
{
	qsort(us, (size_t)n, sizeof *us, cmp_double);
	t->iters = n;
	t->min_us = us[0];
	t->max_us = us[n - 1];
	t->median_us = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
}

px_status rig_timer_open(rig_timer *tm, drv_ctx *drv, CUstream s, char *err, size_t errlen)
{
	memset(tm, 0, sizeof *tm);
	tm->drv = drv;
	tm->s = s;
	for (; tm->made < 2; tm->made++) {
		CUresult rc = drv->f.EventCreate(&tm->ev[tm->made], CU_EVENT_DEFAULT);
		if (rc)
			return DRV_FAIL(drv, rc, "cuEventCreate", err, errlen);
	}
	return PX_OK;
}

px_status rig_timer_start(rig_timer *tm, char *err, size_t errlen)
{
	CUresult rc = tm->drv->f.EventRecord(tm->ev[0], tm->s);
	return rc ? DRV_FAIL(tm->drv, rc, "cuEventRecord", err, errlen) : PX_OK;
}

px_status rig_timer_stop(rig_timer *tm, const char *what, double *us, char *err, size_t errlen)
{
	drv_ctx *drv = tm->drv;
	float ms = 0;
	CUresult rc = drv->f.EventRecord(tm->ev[1], tm->s);
	*us = 0;
	if (rc)
		return DRV_FAIL(drv, rc, "cuEventRecord", err, errlen);
	if ((rc = drv->f.EventSynchronize(tm->ev[1]))) {
		char call[160];
		snprintf(call, sizeof call, "cuEventSynchronize after %s", what);
		return DRV_FAIL(drv, rc, call, err, errlen);
	}
	if ((rc = drv->f.EventElapsedTime(&ms, tm->ev[0], tm->ev[1])))
		return DRV_FAIL(drv, rc, "cuEventElapsedTime", err, errlen);
	*us = ms * 1e3;
	return PX_OK;
}

void rig_timer_close(rig_timer *tm)
{
	for (int k = 0; k < tm->made; k++)
		tm->drv->f.EventDestroy(tm->ev[k]);
	tm->made = 0;
}

static px_status flush_buffer(rig_ctx *r, char *err, size_t errlen)
{
	if (r->flush.ptr && r->flush.gen == drv_generation(r->drv))
		return PX_OK;
	return drv_alloc(r->drv, &r->flush, rig_flush_bytes(r), err, errlen);
}

/* One timed call: [flush], event, the call, event, wait; its time in us. */
static px_status time_call(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timer *tm, int k, double *us,
			   char *err, size_t errlen)
{
	px_status st = PX_OK;
	if (o->flush_l2)
		st = drv_memset8(r->drv, r->flush.ptr, (unsigned char)k, r->flush.bytes, err, errlen);
	if (!st)
		st = rig_timer_start(tm, err, errlen);
	if (!st)
		st = op->enqueue(op->ud, NULL, rig_in_ptr(r), rig_out_ptr(r), &r->s, err, errlen);
	if (!st)
		st = rig_timer_stop(tm, op->name, us, err, errlen);
	return st;
}

static px_status time_events(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timing *t,
			     char *err, size_t errlen)
{
	drv_ctx *drv = r->drv;
	px_status st = o->flush_l2 ? flush_buffer(r, err, errlen) : PX_OK;
	if (st)
		return st;
	rig_timer tm;
	double *us = calloc((size_t)o->iters, sizeof *us);
	if (!us) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	st = rig_timer_open(&tm, drv, NULL, err, errlen);
	for (int w = 0; w < o->warmup && !st; w++)
		st = op->enqueue(op->ud, NULL, rig_in_ptr(r), rig_out_ptr(r), &r->s, err, errlen);
	if (!st)
		st = drv_sync(drv, op->name, err, errlen);
	for (int k = 0; k < o->iters && !st; k++)
		st = time_call(r, op, o, &tm, k, &us[k], err, errlen);
	if (!st) {
		rig_stats(us, o->iters, t);
		t->how = RIG_HOW_EVENTS;
		t->calls = 1;
		px_logf(drv_log(drv), "time: %s: median %.2f us, min %.2f, max %.2f over %d calls (%d warm-up%s)",
			op->name, t->median_us, t->min_us, t->max_us, t->iters, o->warmup,
			o->flush_l2 ? ", L2 emptied before each" : "");
	}
	rig_timer_close(&tm);
	free(us);
	return st;
}

px_status rig_time(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timing *t,
		      char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	if (!r->have_shape || o->iters < 1) {
		snprintf(err, errlen, "rig_time needs a shape and at least one call");
		return PX_EUSAGE;
	}
	if (o->method == RIG_TIME_EVENTS)
		return time_events(r, op, o, t, err, errlen);
	if (o->flush_l2) {
		snprintf(err, errlen, "emptying the L2 needs per-call timing (events): inside a graph the flush "
				      "would be timed with the calls");
		return PX_EUSAGE;
	}
	return rig_time_graph(r, op, o, t, err, errlen);
}

px_status rig_time_choose(const char *method, int flush_l2, rig_time_opts *o, char *err, size_t errlen)
{
	o->flush_l2 = flush_l2;
	if (!method) {
		o->method = flush_l2 ? RIG_TIME_EVENTS : RIG_TIME_GRAPH;
		return PX_OK;
	}
	if (strcmp(method, "graph") && strcmp(method, "events")) {
		snprintf(err, errlen, "--time: expected graph or events, got '%s'", method);
		return PX_EUSAGE;
	}
	o->method = strcmp(method, "graph") ? RIG_TIME_EVENTS : RIG_TIME_GRAPH;
	if (flush_l2 && o->method == RIG_TIME_GRAPH) {
		snprintf(err, errlen, "--flush-l2 empties the L2 before each call, which needs --time events (in a "
				      "graph the flush would be timed with the calls)");
		return PX_EUSAGE;
	}
	return PX_OK;
}

const char *rig_time_method_text(const rig_time_opts *o, char *buf, size_t len)
{
	if (o->method == RIG_TIME_EVENTS)
		snprintf(buf, len, "per-call events: median of %d calls after %d warm-up, CUDA events around each and a "
				   "wait after it (launch overhead included), %s",
			 o->iters, o->warmup, o->flush_l2 ? "L2 emptied before each call" : "L2 warm");
	else
		snprintf(buf, len, "CUDA graph replay of K back-to-back calls, median of %d replays after %d warm-up, "
				   "divided by K (K so that a replay lasts >= %.0f ms, 1 to %d), L2 warm; the copy is the "
				   "faster of that and K back-to-back cuMemcpyDtoDAsync calls between two events; an op "
				   "that cannot be captured is timed as K back-to-back calls between two events (its note "
				   "says so)",
			 o->iters, RIG_GRAPH_WARM_REPLAYS, RIG_GRAPH_REPLAY_US / 1e3, RIG_GRAPH_MAX_CALLS);
	return buf;
}

const char *rig_time_how_text(const rig_timing *t, char *buf, size_t len)
{
	switch (t->how) {
	case RIG_HOW_GRAPH: snprintf(buf, len, "graph K=%d", t->calls); break;
	case RIG_HOW_BACK_TO_BACK: snprintf(buf, len, "back-to-back K=%d", t->calls); break;
	default: snprintf(buf, len, "events"); break;
	}
	return buf;
}
