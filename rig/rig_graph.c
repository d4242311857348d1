/* rig_graph: graph timing (rig/rig.h, RIG_TIME_GRAPH). K calls of an op are
 * captured on the rig's non-blocking stream into one CUDA graph and the
 * graph is replayed between two events; a call is the median replay / K.
 * K back-to-back calls between two events stand in for what cannot be
 * captured, and give the copy its second figure.
 *
 * Capture mode: thread-local. ptxpose makes every CUDA call of a capture from
 * the thread that captures, so an unsafe call there (an allocation or a
 * synchronous copy inside cuBLAS) still ends the capture with an error, which
 * is what we want to know; other threads of a program that links the rig
 * are neither refused nor able to spoil the capture, as they would be in
 * global mode. */
#include "rig/rig_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

px_status rig_stream(rig_ctx *r, CUstream *out, char *err, size_t errlen)
{
	drv_ctx *drv = r->drv;
	if (!r->stream || r->stream_gen != drv_generation(drv)) {
		CUstream s = NULL;
		CUresult rc = drv->f.StreamCreate(&s, CU_STREAM_NON_BLOCKING);
		r->stream = NULL;
		if (rc)
			return DRV_FAIL(drv, rc, "cuStreamCreate", err, errlen);
		r->stream = s;
		r->stream_gen = drv_generation(drv);
	}
	*out = r->stream;
	return PX_OK;
}

/* A failed destroy changes no result: said with -v, then ignored. */
static void destroyed(drv_ctx *drv, CUresult rc, const char *call)
{
	char text[256];
	if (rc)
		px_logf(drv_log(drv), "cu: %s: %s (ignored)", call, drv_error_text(drv, rc, text, sizeof text));
}

void rig_stream_free(rig_ctx *r)
{
	/* a stream of a context that was reset went with it */
	if (r->stream && r->stream_gen == drv_generation(r->drv))
		destroyed(r->drv, r->drv->f.StreamDestroy(r->stream), "cuStreamDestroy");
	r->stream = NULL;
}

static px_status enqueue(rig_ctx *r, const rig_op *op, CUstream s, char *err, size_t errlen)
{
	return op->enqueue(op->ud, s, rig_in_ptr(r), rig_out_ptr(r), &r->s, err, errlen);
}

/* n calls back to back between the timer's events: the time of one. */
static px_status back_to_back(rig_ctx *r, const rig_op *op, rig_timer *tm, int n, double *us, char *err,
			      size_t errlen)
{
	px_status st = rig_timer_start(tm, err, errlen);
	for (int k = 0; k < n && !st; k++)
		st = enqueue(r, op, tm->s, err, errlen);
	if (!st)
		st = rig_timer_stop(tm, op->name, us, err, errlen);
	*us /= n;
	return st;
}

/* Calls that make a replay last RIG_GRAPH_REPLAY_US, from est_us a call. */
static int calls_for(double est_us)
{
	if (!(est_us > 0) || est_us * RIG_GRAPH_MAX_CALLS < RIG_GRAPH_REPLAY_US)
		return RIG_GRAPH_MAX_CALLS;
	int k = (int)ceil(RIG_GRAPH_REPLAY_US / est_us);
	return k < 1 ? 1 : k;
}

/* Capture k calls of op into an instantiated graph. *exec stays NULL when
 * the capture was refused (why says by what); that is not an error: the
 * caller times the op back to back instead. */
static void capture(rig_ctx *r, const rig_op *op, CUstream s, int k, CUgraphExec *exec, char *why, size_t whylen)
{
	drv_ctx *drv = r->drv;
	CUgraph graph = NULL;
	CUresult rc;
	*exec = NULL;
	if (!drv->f.GraphInstantiateWithFlags) {
		snprintf(why, whylen, "the CUDA driver has no cuGraphInstantiateWithFlags (CUDA 11.4 or newer)");
		return;
	}
	if ((rc = drv->f.StreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL))) {
		DRV_FAIL(drv, rc, "cuStreamBeginCapture", why, whylen);
		return;
	}
	px_status st = PX_OK;
	for (int c = 0; c < k && !st; c++)
		st = enqueue(r, op, s, why, whylen);
	/* the capture ends either way; after a refused call it reports that */
	rc = drv->f.StreamEndCapture(s, &graph);
	if (!st && rc)
		DRV_FAIL(drv, rc, "cuStreamEndCapture", why, whylen);
	if (!st && !rc && (rc = drv->f.GraphInstantiateWithFlags(exec, graph, 0))) {
		*exec = NULL;
		DRV_FAIL(drv, rc, "cuGraphInstantiateWithFlags", why, whylen);
	}
	if (graph)
		destroyed(drv, drv->f.GraphDestroy(graph), "cuGraphDestroy");
}

/* Untimed replays, then `runs` timed ones: a call each into us[]. */
static px_status replays(rig_ctx *r, const rig_op *op, rig_timer *tm, CUgraphExec exec, int k, int runs, double *us,
			 char *err, size_t errlen)
{
	drv_ctx *drv = r->drv;
	CUresult rc = CUDA_SUCCESS;
	for (int w = 0; w < RIG_GRAPH_WARM_REPLAYS && !rc; w++)
		rc = drv->f.GraphLaunch(exec, tm->s);
	px_status st = rc ? DRV_FAIL(drv, rc, "cuGraphLaunch", err, errlen) : PX_OK;
	for (int i = 0; i < runs && !st; i++) {
		if (!(st = rig_timer_start(tm, err, errlen)) && (rc = drv->f.GraphLaunch(exec, tm->s)))
			st = DRV_FAIL(drv, rc, "cuGraphLaunch", err, errlen);
		if (!st)
			st = rig_timer_stop(tm, op->name, &us[i], err, errlen);
		us[i] /= k;
	}
	return st;
}

static px_status b2b_runs(rig_ctx *r, const rig_op *op, rig_timer *tm, int k, int runs, double *us, char *err,
			  size_t errlen)
{
	px_status st = PX_OK;
	for (int i = 0; i < runs && !st; i++)
		st = back_to_back(r, op, tm, k, &us[i], err, errlen);
	return st;
}

/* The copy, timed both ways: the faster counts; both go in graph_us, b2b_us. */
static void copy_floor(const rig_op *op, rig_timing *t, const rig_timing *b2b, const px_log *log)
{
	double g = t->median_us, b = b2b->median_us;
	if (b < g) {
		t->median_us = b;
		t->min_us = b2b->min_us;
		t->max_us = b2b->max_us;
		t->how = RIG_HOW_BACK_TO_BACK;
	}
	t->graph_us = g;
	t->b2b_us = b;
	snprintf(t->note, sizeof t->note, "the faster of: graph %.3f us, back-to-back %.3f us a call", g, b);
	px_logf(log, "time: %s: graph %.2f us a call, %d back-to-back between two events %.2f us: the %s counts",
		op->name, g, t->calls, b, b < g ? "back-to-back figure" : "graph");
}

/* Capture refused (why): `iters` runs of K back-to-back calls between two events. */
static px_status uncaptured(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timer *tm, const char *why,
			    double *us, rig_timing *t, char *err, size_t errlen)
{
	const px_log *log = drv_log(r->drv);
	int k = t->calls;
	px_logf(log, "time: %s: not captured in a graph (%s)", op->name, why);
	px_status st = b2b_runs(r, op, tm, k, o->iters, us, err, errlen);
	if (st)
		return st;
	rig_stats(us, o->iters, t);
	t->how = RIG_HOW_BACK_TO_BACK;
	snprintf(t->note, sizeof t->note, "not captured in a CUDA graph (%.200s): %d back-to-back calls between two events",
		 why, k);
	px_logf(log, "time: %s: %d back-to-back calls between two events, median of %d runs / %d: %.2f us a call "
		     "(min %.2f, max %.2f), L2 warm", op->name, k, t->iters, k, t->median_us, t->min_us, t->max_us);
	return PX_OK;
}

static px_status measure(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timer *tm, double *us,
			 rig_timing *t, char *err, size_t errlen)
{
	drv_ctx *drv = r->drv;
	const px_log *log = drv_log(drv);
	int warm = o->warmup > 0 ? o->warmup : 1;
	double est;
	/* one call and a wait first: lazy module loading and the like */
	px_status st = enqueue(r, op, tm->s, err, errlen);
	if (!st)
		st = drv_sync(drv, op->name, err, errlen);
	if (!st)
		st = back_to_back(r, op, tm, warm, &est, err, errlen);
	if (st)
		return st;
	int k = calls_for(est);
	char why[sizeof t->note];
	CUgraphExec exec;
	capture(r, op, tm->s, k, &exec, why, sizeof why);
	t->calls = k;
	if (!exec)
		return uncaptured(r, op, o, tm, why, us, t, err, errlen);
	st = replays(r, op, tm, exec, k, o->iters, us, err, errlen);
	destroyed(drv, drv->f.GraphExecDestroy(exec), "cuGraphExecDestroy");
	if (st)
		return st;
	rig_stats(us, o->iters, t);
	t->how = RIG_HOW_GRAPH;
	px_logf(log, "time: %s: CUDA graph replay of %d back-to-back calls, median of %d replays / %d: %.2f us a call "
		     "(min %.2f, max %.2f; %d warm-up calls estimated %.2f us), L2 warm",
		op->name, k, t->iters, k, t->median_us, t->min_us, t->max_us, warm, est);
	if (op->copy_floor) {
		rig_timing b = {0};
		if ((st = b2b_runs(r, op, tm, k, o->iters, us, err, errlen)))
			return st;
		rig_stats(us, o->iters, &b);
		b.how = RIG_HOW_BACK_TO_BACK;
		copy_floor(op, t, &b, log);
	}
	return PX_OK;
}

px_status rig_time_graph(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timing *t,
			 char *err, size_t errlen)
{
	rig_timer tm = {0};
	CUstream s;
	double *us = calloc((size_t)o->iters, sizeof *us);
	if (!us) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	/* what the default stream was doing (the upload, the poison) is done */
	px_status st = drv_sync(r->drv, op->name, err, errlen);
	if (!st)
		st = rig_stream(r, &s, err, errlen);
	if (!st && !(st = rig_timer_open(&tm, r->drv, s, err, errlen)))
		st = measure(r, op, o, &tm, us, t, err, errlen);
	if (tm.drv)
		rig_timer_close(&tm);
	free(us);
	return st;
}
