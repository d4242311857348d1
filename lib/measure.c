/* measure: candidate launches timed with events on scratch buffers (measure.h). */
#include "lib/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* What the timing holds: buffers, stream, events. */
typedef struct {
	const measure_job *j;
	cu_ctx cu;                  /* for error text only */
	CUdeviceptr in_base, out_base, in, out;
	CUstream s;
	CUevent e0, e1;
	double start_ms;
	char *err;
	size_t errlen;
} timer;

/* a failed driver call as the error, naming the line of the call */
#define FAIL(t, rc, call) CU_FAIL(&(t)->cu, rc, call, (t)->err, (t)->errlen)

/* A pointer into [base, base + slack) with the alignment asked for exactly
 * (up to 256: what the model tells apart). */
static CUdeviceptr aligned(CUdeviceptr base, unsigned align)
{
	CUdeviceptr p = (base + 255) & ~(CUdeviceptr)255;
	return p + (align && align < 256 ? align : 0);
}

static px_status setup(timer *t)
{
	const cu_fns *f = t->j->f;
	CUresult rc;
	if ((rc = f->MemAlloc(&t->in_base, (size_t)t->j->in_bytes + 512)) ||
	    (rc = f->MemAlloc(&t->out_base, (size_t)t->j->out_bytes + 512)))
		return FAIL(t, rc, "cuMemAlloc (scratch buffers to measure on)");
	t->in = aligned(t->in_base, t->j->align_in);
	t->out = aligned(t->out_base, t->j->align_out);
	if ((rc = f->StreamCreate(&t->s, CU_STREAM_NON_BLOCKING)))
		return FAIL(t, rc, "cuStreamCreate");
	if ((rc = f->EventCreate(&t->e0, CU_EVENT_DEFAULT)) || (rc = f->EventCreate(&t->e1, CU_EVENT_DEFAULT)))
		return FAIL(t, rc, "cuEventCreate");
	return PX_OK;
}

static void teardown(timer *t)
{
	const cu_fns *f = t->j->f;
	if (t->s && t->e1 && !f->EventRecord(t->e1, t->s))
		f->EventSynchronize(t->e1); /* nothing of ours runs when the buffers go */
	if (t->e0)
		f->EventDestroy(t->e0);
	if (t->e1)
		f->EventDestroy(t->e1);
	if (t->s)
		f->StreamDestroy(t->s);
	if (t->in_base)
		f->MemFree(t->in_base);
	if (t->out_base)
		f->MemFree(t->out_base);
}

/* k launches of candidate i between the two events: microseconds a launch.
 * A launch the driver refuses sets *refused (the candidate is skipped). */
static px_status run(timer *t, int i, int k, double *us, int *refused)
{
	const cu_fns *f = t->j->f;
	CUresult rc;
	float ms = 0;
	px_status st;
	if ((rc = f->EventRecord(t->e0, t->s)))
		return FAIL(t, rc, "cuEventRecord");
	for (int n = 0; n < k; n++)
		if ((st = t->j->launch(t->j->ud, i, t->in, t->out, t->s, t->err, t->errlen))) {
			*refused = 1;
			return st;
		}
	if ((rc = f->EventRecord(t->e1, t->s)))
		return FAIL(t, rc, "cuEventRecord");
	if ((rc = f->EventSynchronize(t->e1)))
		return FAIL(t, rc, "cuEventSynchronize (a measured candidate)");
	if ((rc = f->EventElapsedTime(&ms, t->e0, t->e1)))
		return FAIL(t, rc, "cuEventElapsedTime");
	*us = 1e3 * ms / k;
	return PX_OK;
}

static int spent(const timer *t)
{
	return now_ms() - t->start_ms >= t->j->budget_ms;
}

/* One candidate: the warm-up, then runs while the budget lasts. */
static px_status time_one(timer *t, int i, measure_time *mt, int *refused)
{
	double warm, v[MEASURE_RUNS];
	px_status st = run(t, i, 1, &warm, refused);
	if (st)
		return st;
	double k = warm > 0 ? MEASURE_RUN_US / warm + 1 : MEASURE_K_MAX; /* in double: warm may be tiny */
	mt->k = k >= MEASURE_K_MAX ? MEASURE_K_MAX : k < 1 ? 1 : (int)k;
	mt->runs = 0;
	while (mt->runs < MEASURE_RUNS && (!mt->runs || !spent(t))) {
		if ((st = run(t, i, mt->k, &v[mt->runs], refused)))
			return st;
		mt->runs++;
	}
	qsort(v, (size_t)mt->runs, sizeof v[0], cmp_double);
	int h = mt->runs / 2; /* the median: the middle two's mean for an even count */
	mt->us = mt->runs % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
	return PX_OK;
}

px_status measure_run(const measure_job *j, measure_time *mt, double *spent_ms, char *err, size_t errlen)
{
	timer t = {.j = j, .cu = {.f = j->f}, .start_ms = now_ms(), .err = err, .errlen = errlen};
	int timed = 0;
	px_status last = PX_OK;
	char why[512] = "";
	for (int i = 0; i < j->n; i++)
		mt[i] = (measure_time){.us = -1, .skipped = "the budget was spent"};
	px_status st = setup(&t);
	/* A candidate that cannot be prepared (it does not link, its entry is
	 * not found, its launch does not fit) is skipped; the budget ends the
	 * loop only once one candidate has been timed. */
	for (int i = 0; !st && i < j->n; i++) {
		if (timed && spent(&t))
			break;
		px_status pst = j->prepare(j->ud, i, why, sizeof why);
		if (pst) {
			mt[i].skipped = pst == PX_EJIT ? "it did not link" : "it could not be prepared";
			last = pst;
			continue;
		}
		int refused = 0;
		if (!(st = time_one(&t, i, &mt[i], &refused))) {
			mt[i].skipped = NULL;
			timed++;
		} else if (refused) { /* a launch the driver refused (resources): skipped, as in prepare */
			mt[i] = (measure_time){.us = -1, .skipped = "its launch failed"};
			snprintf(why, sizeof why, "%s", err);
			last = st;
			st = PX_OK;
		}
	}
	teardown(&t);
	*spent_ms = now_ms() - t.start_ms;
	if (!st && !timed) {
		snprintf(err, errlen, "no candidate could be timed: %s", why[0] ? why : "none could be prepared");
		st = last ? last : PX_EJIT;
	}
	return st;
}
