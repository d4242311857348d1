/* vfy_copy: the host verification of a row copy (op=copy kernels,
 * gen/tp_rowcopy.c): the shape as the N-d problem it is, the N-d reference
 * (rig/nd_ref.h) on a poisoned buffer, and a bit-exact comparison of every
 * byte of the output with it. */
#include "rig/rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig/nd_ref.h"

px_status vfy_copy_shape(rig_shape *s, nd_problem *p, char *err, size_t errlen)
{
	ptxpose_desc *d = &s->p;
	if (!d->batch)
		d->batch = 1;
	if (!d->ld_in)
		d->ld_in = d->cols;
	if (!d->ld_out)
		d->ld_out = d->cols;
	if (!d->stride_in)
		d->stride_in = d->rows * d->ld_in;
	if (!d->stride_out)
		d->stride_out = d->rows * d->ld_out;
	if (!d->rows || !d->cols || d->rows > RIG_DIM_MAX || d->cols > RIG_DIM_MAX || d->batch > RIG_DIM_MAX ||
	    d->ld_in > RIG_DIM_MAX || d->ld_out > RIG_DIM_MAX || d->stride_in > RIG_STRIDE_MAX ||
	    d->stride_out > RIG_STRIDE_MAX) {
		snprintf(err, errlen, "copy %llux%llu batch %llu: rows, cols, batch and leading dimensions must be 1 to "
			 "2^31-1, strides below 2^63", (unsigned long long)d->rows, (unsigned long long)d->cols,
			 (unsigned long long)d->batch);
		return PX_EUSAGE;
	}
	if (d->ld_in < d->cols || d->ld_out < d->cols) {
		int in = d->ld_in < d->cols;
		snprintf(err, errlen, "copy: %s %llu is less than cols %llu", in ? "ld_in" : "ld_out",
			 (unsigned long long)(in ? d->ld_in : d->ld_out), (unsigned long long)d->cols);
		return PX_EUSAGE;
	}
	memset(p, 0, sizeof *p);
	p->rank = 3;
	p->elem_bytes = rig_shape_elem_bytes(s);
	uint64_t ext[3] = {d->batch, d->rows, d->cols}, sin[3] = {d->stride_in, d->ld_in, 1},
		 sout[3] = {d->stride_out, d->ld_out, 1};
	for (unsigned k = 0; k < 3; k++) {
		p->ext[k] = ext[k];
		p->s_in[k] = (int64_t)sin[k];
		p->s_out[k] = (int64_t)sout[k];
		p->perm[k] = k;
	}
	char why[256];
	if (nd_check(p, why, sizeof why)) {
		snprintf(err, errlen, "copy: %s", why);
		return PX_EUSAGE;
	}
	return PX_OK;
}

/* Where element k of out lies: matrix, row, column (past cols: the ld_out
 * padding; past the last row: the gap before the next matrix). */
static void locate(const ptxpose_desc *d, uint64_t k, vfy_result *r)
{
	uint64_t b = d->batch > 1 ? k / d->stride_out : 0;
	b = b < d->batch ? b : d->batch - 1;
	uint64_t rem = k - b * d->stride_out;
	r->b = b;
	r->j = rem / d->ld_out;
	r->i = rem % d->ld_out;
	r->in_gap = r->j >= d->rows;
	r->in_padding = !r->in_gap && r->i >= d->cols;
}

px_status vfy_copy_compare(const rig_shape *s, const nd_problem *p, const void *in, const void *out, vfy_result *res)
{
	uint64_t in_bytes, out_bytes;
	memset(res, 0, sizeof *res);
	if (nd_spans(p, &in_bytes, &out_bytes))
		return PX_EUSAGE;
	unsigned char *want = malloc(out_bytes ? out_bytes : 1);
	if (!want)
		return PX_ENOMEM;
	vfy_poison(want, out_bytes);
	ndref_permute(p, in, want);
	unsigned eb = p->elem_bytes;
	const unsigned char *got = out;
	res->checked = out_bytes / eb;
	for (uint64_t k = 0; k < res->checked; k++)
		if (memcmp(got + k * eb, want + k * eb, eb) && !res->mismatches++) {
			locate(&s->p, k, res);
			memcpy(res->got, got + k * eb, eb);
			memcpy(res->want, want + k * eb, eb);
		}
	free(want);
	return res->mismatches ? PX_WRONG : PX_OK;
}

px_status vfy_copy_case(const rig_shape *s0, uint64_t seed, vfy_runner run, void *ud, vfy_result *res, char *err,
			size_t errlen)
{
	rig_shape s = *s0;
	nd_problem p;
	memset(res, 0, sizeof *res);
	px_status st = vfy_copy_shape(&s, &p, err, errlen);
	vfy_bufs b = {0};
	if (st || nd_spans(&p, &b.in_bytes, &b.out_bytes))
		return st ? st : PX_EUSAGE;
	if ((st = rig_host_fits(b.in_bytes + 2 * b.out_bytes, "the input, the output and the reference", err, errlen)))
		return st;
	b.in = malloc(b.in_bytes);
	b.out = malloc(b.out_bytes);
	if (!b.in || !b.out) {
		st = PX_ENOMEM;
	} else {
		vfy_fill(b.in, b.in_bytes, seed);
		vfy_poison(b.out, b.out_bytes);
		if (run(ud, &b, &s)) {
			snprintf(err, errlen, "the host runner failed");
			st = PX_EUNAVAIL;
		} else {
			st = vfy_copy_compare(&s, &p, b.in, b.out, res);
		}
	}
	if (st == PX_ENOMEM)
		snprintf(err, errlen, "cannot allocate the copy's host buffers");
	vfy_bufs_free(&b);
	return st;
}
