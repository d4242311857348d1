/* rig_time: time one operation the way PERF.md asks and peers.py does:
 * warm-up calls, then CUDA events around each call on the default stream
 * and a wait for the second, the median; optionally the L2 emptied first. */
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

/* One timed call: [flush], event, the call, event, wait; its time in us. */
static px_status time_call(px_rig *r, const px_op *op, const px_time_opts *o, CUevent ev[2], int k, double *us,
			   char *err, size_t errlen)
{
	cu_ctx *cu = r->cu;
	px_status st = PX_OK;
	CUresult rc;
	float ms = 0;
	if (o->flush_l2)
		st = cu_memset8(cu, r->flush.ptr, (unsigned char)k, r->flush.bytes, err, errlen);
	if (!st && (rc = cu->f.EventRecord(ev[0], NULL)))
		st = CU_FAIL(cu, rc, "cuEventRecord", err, errlen);
	if (!st)
		st = op->enqueue(op->ud, rig_in_ptr(r), rig_out_ptr(r), &r->s, err, errlen);
	if (!st && (rc = cu->f.EventRecord(ev[1], NULL)))
		st = CU_FAIL(cu, rc, "cuEventRecord", err, errlen);
	if (!st && (rc = cu->f.EventSynchronize(ev[1]))) {
		char call[160];
		snprintf(call, sizeof call, "cuEventSynchronize after %s", op->name);
		st = CU_FAIL(cu, rc, call, err, errlen);
	}
	if (!st && (rc = cu->f.EventElapsedTime(&ms, ev[0], ev[1])))
		st = CU_FAIL(cu, rc, "cuEventElapsedTime", err, errlen);
	*us = ms * 1e3;
	return st;
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
	CUevent ev[2];
	int made = 0;
	double *us = calloc((size_t)o->iters, sizeof *us);
	if (!us) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	CUresult rc;
	for (; made < 2; made++)
		if ((rc = cu->f.EventCreate(&ev[made], CU_EVENT_DEFAULT))) {
			st = CU_FAIL(cu, rc, "cuEventCreate", err, errlen);
			goto out;
		}
	for (int w = 0; w < o->warmup && !st; w++)
		st = op->enqueue(op->ud, rig_in_ptr(r), rig_out_ptr(r), &r->s, err, errlen);
	if (!st)
		st = cu_sync(cu, op->name, err, errlen);
	for (int k = 0; k < o->iters && !st; k++)
		st = time_call(r, op, o, ev, k, &us[k], err, errlen);
	if (st)
		goto out;
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
	free(us);
	return st;
}
