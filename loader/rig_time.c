/* rig_time: time one operation the way docs/PERF.md asks: CUDA events
 * around each call on the default stream, warm-up calls first, the L2
 * emptied before each timed call (unless asked not to), the median. */
#include "loader/cu_api.h"
#include "loader/rig_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static px_status flush_buffer(px_rig *r, char *err, size_t errlen)
{
	if (r->flush.ptr && r->flush.gen == cu_generation(r->cu))
		return PX_OK;
	return cu_alloc(r->cu, &r->flush, rig_flush_bytes(r), err, errlen);
}

/* Enqueue everything, then wait once: the GPU runs the calls back to back. */
static px_status run_timed(px_rig *r, const px_op *op, const px_time_opts *o, CUevent *ev,
			   char *err, size_t errlen)
{
	cu_ctx *cu = r->cu;
	uint64_t d_out = r->d_out.ptr + RIG_GUARD;
	px_status st = PX_OK;
	CUresult rc;
	for (int w = 0; w < o->warmup && !st; w++)
		st = op->enqueue(op->ud, r->d_in.ptr, d_out, &r->s, err, errlen);
	for (int k = 0; k < o->iters && !st; k++) {
		if (o->flush_l2)
			st = cu_memset8(cu, r->flush.ptr, (unsigned char)k, r->flush.bytes, err, errlen);
		if (!st && (rc = cu->f.EventRecord(ev[2 * k], NULL)))
			st = CU_FAIL(cu, rc, "cuEventRecord", err, errlen);
		if (!st)
			st = op->enqueue(op->ud, r->d_in.ptr, d_out, &r->s, err, errlen);
		if (!st && (rc = cu->f.EventRecord(ev[2 * k + 1], NULL)))
			st = CU_FAIL(cu, rc, "cuEventRecord", err, errlen);
	}
	if (st) {
		cu->f.CtxSynchronize();
		return st;
	}
	return cu_sync(cu, op->name, err, errlen);
}

px_status px_rig_time(px_rig *r, const px_op *op, const px_time_opts *o, px_timing *t,
		      char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	if (!r->have_shape || o->iters < 1) {
		snprintf(err, errlen, "px_rig_time needs a shape and at least one call");
		return PX_EUSAGE;
	}
	cu_ctx *cu = r->cu;
	px_status st = o->flush_l2 ? flush_buffer(r, err, errlen) : PX_OK;
	if (st)
		return st;
	int nev = 2 * o->iters, made = 0;
	CUevent *ev = calloc((size_t)nev, sizeof *ev);
	double *us = calloc((size_t)o->iters, sizeof *us);
	if (!ev || !us) {
		snprintf(err, errlen, "out of memory");
		st = PX_ENOMEM;
		goto out;
	}
	CUresult rc;
	for (; made < nev; made++)
		if ((rc = cu->f.EventCreate(&ev[made], CU_EVENT_DEFAULT))) {
			st = CU_FAIL(cu, rc, "cuEventCreate", err, errlen);
			goto out;
		}
	if ((st = run_timed(r, op, o, ev, err, errlen)))
		goto out;
	for (int k = 0; k < o->iters; k++) {
		float ms = 0;
		if ((rc = cu->f.EventElapsedTime(&ms, ev[2 * k], ev[2 * k + 1]))) {
			st = CU_FAIL(cu, rc, "cuEventElapsedTime", err, errlen);
			goto out;
		}
		us[k] = ms * 1e3;
	}
	qsort(us, (size_t)o->iters, sizeof *us, cmp_double);
	int n = o->iters;
	t->iters = n;
	t->min_us = us[0];
	t->max_us = us[n - 1];
	t->median_us = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
	px_logf(cu_log(cu), "time: %s: median %.2f us, min %.2f, max %.2f over %d calls (%d warm-up%s)",
		op->name, t->median_us, t->min_us, t->max_us, n, o->warmup, o->flush_l2 ? ", L2 emptied before each" : "");
out:
	for (int k = 0; k < made; k++)
		cu->f.EventDestroy(ev[k]);
	free(ev);
	free(us);
	return st;
}
