/* model_problem: a transpose problem's defaults and its checks, with the
 * limits of kernel ABI 2 (docs/DESIGN.md): the one check every path makes
 * (ptxpose_plan_create, `ptxpose plan`, and the rig's rig_shape_check). */
#include "lib/model.h"

#include <stddef.h>
#include <stdio.h>

#include "common/elem.h"

static enum model_status dim(const char *name, uint64_t v, char *err, size_t errlen)
{
	if (v >= 1 && v <= MODEL_DIM_MAX)
		return MODEL_OK;
	snprintf(err, errlen, "%s %llu is out of range (1 to %u)", name, (unsigned long long)v, MODEL_DIM_MAX);
	return MODEL_EINVAL;
}

/* a*b*c into *out; 0 when it overflows 64 bits. */
static int mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
	uint64_t ab;
	return !__builtin_mul_overflow(a, b, &ab) && !__builtin_mul_overflow(ab, c, out);
}

/* The most one buffer can hold: what malloc and cuMemAlloc take (PTRDIFF_MAX). */
static int fits(uint64_t bytes)
{
	return bytes <= (uint64_t)PTRDIFF_MAX && bytes <= (uint64_t)SIZE_MAX;
}

/* One matrix of n rows of ld elements. */
static enum model_status matrix_bytes(const char *what, uint64_t n, uint64_t ld, unsigned es, char *err,
				      size_t errlen)
{
	uint64_t b;
	if (mul3(n, ld, es, &b) && fits(b))
		return MODEL_OK;
	snprintf(err, errlen, "too large: the %s needs %llu x %llu x %u bytes, more than a buffer can hold", what,
		 (unsigned long long)n, (unsigned long long)ld, es);
	return MODEL_EOVERFLOW;
}

/* A batch's stride holds its matrix: `need` elements from a matrix's first
 * to its last. 0 takes the dense default. */
static enum model_status stride(const char *name, const char *what, const char *formula, uint64_t *s,
				uint64_t dense, uint64_t need, char *err, size_t errlen)
{
	if (!*s)
		*s = dense;
	if (*s >= need)
		return MODEL_OK;
	snprintf(err, errlen, "%s %llu is less than the %s matrix it must hold (%s = %llu elements)", name,
		 (unsigned long long)*s, what, formula, (unsigned long long)need);
	return MODEL_EINVAL;
}

/* A batch buffer, (batch-1)*stride + n*ld elements of es bytes: in 64 bits
 * and within what one buffer can hold. The message names the stride. */
static enum model_status batch_bytes(const char *what, const char *name, const model_problem *p, uint64_t s,
				     uint64_t n, uint64_t ld, char *err, size_t errlen)
{
	uint64_t last, gap, sum;
	if (p->batch < 2 || (mul3(n, ld, p->es, &last) && mul3(p->batch - 1, s, p->es, &gap) &&
			     !__builtin_add_overflow(gap, last, &sum) && fits(sum)))
		return MODEL_OK;
	snprintf(err, errlen, "too large: %s %llu: the %s's %llu matrices need more than a buffer can hold (2^63 bytes)",
		 name, (unsigned long long)s, what, (unsigned long long)p->batch);
	return MODEL_EOVERFLOW;
}

static enum model_status align(const char *name, unsigned *a, unsigned es, char *err, size_t errlen)
{
	if (!*a)
		*a = 256;
	if (*a & (*a - 1)) {
		snprintf(err, errlen, "%s %u is not a power of two", name, *a);
		return MODEL_EINVAL;
	}
	if (*a < es) {
		snprintf(err, errlen, "%s %u: the pointer is misaligned for %u-byte elements", name, *a, es);
		return MODEL_EMISALIGNED;
	}
	return MODEL_OK;
}

enum model_status model_problem_check(model_problem *p, char *err, size_t errlen)
{
	enum model_status st;
	if (!elem_valid_bytes(p->es)) {
		snprintf(err, errlen, "elem_bytes %u is not " ELEM_BYTES_LIST, p->es);
		return MODEL_EINVAL;
	}
	if (p->span_in) /* an N-d problem: nd_check checked its shape and spans (model_problem_of_nd) */
		goto alignments;
	if ((st = model_problem_check_shape(p, err, errlen)))
		return st;
	if ((st = matrix_bytes("input", p->rows, p->ld_in, p->es, err, errlen)) ||
	    (st = matrix_bytes("output", p->cols, p->ld_out, p->es, err, errlen)) ||
	    (st = batch_bytes("input", "stride_in", p, p->stride_in, p->rows, p->ld_in, err, errlen)) ||
	    (st = batch_bytes("output", "stride_out", p, p->stride_out, p->cols, p->ld_out, err, errlen)))
		return st;
	if (model_problem_in_bytes(p) + model_problem_out_bytes(p) > (uint64_t)PTRDIFF_MAX) { /* each <= 2^63-1 */
		snprintf(err, errlen, "too large: input and output together need more than 2^63 bytes");
		return MODEL_EOVERFLOW;
	}
alignments:
	if ((st = align("align_in", &p->align_in, p->es, err, errlen)))
		return st;
	return align("align_out", &p->align_out, p->es, err, errlen);
}

enum model_status model_problem_check_shape(model_problem *p, char *err, size_t errlen)
{
	enum model_status st;
	if ((st = dim("rows", p->rows, err, errlen)) || (st = dim("cols", p->cols, err, errlen)))
		return st;
	if (!p->ld_in)
		p->ld_in = p->cols;
	if (!p->ld_out)
		p->ld_out = p->rows;
	if (!p->batch)
		p->batch = 1;
	if ((st = dim("ld_in", p->ld_in, err, errlen)) || (st = dim("ld_out", p->ld_out, err, errlen)) ||
	    (st = dim("batch", p->batch, err, errlen)))
		return st;
	if (p->ld_in < p->cols) {
		snprintf(err, errlen, "ld_in %llu is less than cols %llu (an input row holds cols elements)",
			 (unsigned long long)p->ld_in, (unsigned long long)p->cols);
		return MODEL_EINVAL;
	}
	if (p->ld_out < p->rows) {
		snprintf(err, errlen, "ld_out %llu is less than rows %llu (an output row holds rows elements)",
			 (unsigned long long)p->ld_out, (unsigned long long)p->rows);
		return MODEL_EINVAL;
	}
	/* a batch's matrices must not overlap; strides are ignored for one matrix */
	uint64_t in1 = (p->rows - 1) * p->ld_in + p->cols, out1 = (p->cols - 1) * p->ld_out + p->rows; /* < 2^62 */
	if ((st = stride("stride_in", "input", "(rows-1)*ld_in + cols", &p->stride_in, p->rows * p->ld_in,
			 p->batch > 1 ? in1 : 0, err, errlen)))
		return st;
	return stride("stride_out", "output", "(cols-1)*ld_out + rows", &p->stride_out, p->cols * p->ld_out,
		      p->batch > 1 ? out1 : 0, err, errlen);
}

/* Elements a batch of matrices touches, from the first matrix's first
 * element to the last one's last: batch-1 strides, rows-1 leading
 * dimensions and a row (the last row's padding is no part of it). */
static uint64_t span_elems(uint64_t batch, uint64_t stride, uint64_t rows, uint64_t ld, uint64_t cols)
{
	return (batch > 1 ? (batch - 1) * stride : 0) + (rows - 1) * ld + cols;
}

uint64_t model_problem_in_bytes(const model_problem *p)
{
	if (p->span_in)
		return p->span_in;
	return span_elems(p->batch, p->stride_in, p->rows, p->ld_in, p->cols) * p->es;
}

uint64_t model_problem_out_bytes(const model_problem *p)
{
	if (p->span_out)
		return p->span_out;
	return span_elems(p->batch, p->stride_out, p->cols, p->ld_out, p->rows) * p->es;
}

unsigned model_align_of_offset(uint64_t offset, unsigned es)
{
	uint64_t b = offset * es;
	if (!b)
		return 256;
	unsigned a = 1;
	while (!(b & a) && a < 256)
		a <<= 1;
	return a;
}

int model_problem_is_copy(const model_problem *p, char *why, size_t whylen)
{
	/* out[j*ld_out + i] = in[i*ld_in + j]: with one row (i = 0) that is
	 * out[j*ld_out] = in[j], the identity when ld_out is 1; with one column
	 * (j = 0), out[i] = in[i*ld_in], when ld_in is 1 */
	if (p->copy_elems) {
		snprintf(why, whylen, "an N-d permutation whose merged dims are the identity: out[k] = in[k] for all "
				      "%llu elements", (unsigned long long)p->copy_elems);
		return 1;
	}
	if (p->op || p->nbd) {
		snprintf(why, whylen, "an N-d %s", p->op ? "tiled copy" : "transpose over several batch dims");
		return 0;
	}
	const char *line = p->rows == 1 && p->cols == 1 ? "a single element"
			 : p->rows == 1 && p->ld_out == 1 ? "one row and ld_out 1"
			 : p->cols == 1 && p->ld_in == 1 ? "one column and ld_in 1" : NULL;
	uint64_t n = p->rows * p->cols;
	if (!line && p->rows == 1)
		snprintf(why, whylen, "one row, but ld_out %llu spreads it out", (unsigned long long)p->ld_out);
	else if (!line && p->cols == 1)
		snprintf(why, whylen, "one column, but ld_in %llu spreads it out", (unsigned long long)p->ld_in);
	else if (!line)
		snprintf(why, whylen, "%llu rows and %llu columns", (unsigned long long)p->rows,
			 (unsigned long long)p->cols);
	if (!line)
		return 0;
	if (p->batch > 1 && (p->stride_in != n || p->stride_out != n)) {
		snprintf(why, whylen, "%s, but the batch's strides (%llu, %llu) leave gaps between its %llu-element "
				      "matrices", line, (unsigned long long)p->stride_in, (unsigned long long)p->stride_out,
			 (unsigned long long)n);
		return 0;
	}
	snprintf(why, whylen, "%s%s: out[k] = in[k] for all %llu elements", line,
		 p->batch > 1 ? ", the batch packed" : "", (unsigned long long)(n * p->batch));
	return 1;
}

void model_problem_of_desc(model_problem *p, const ptxpose_desc *d)
{
	*p = (model_problem){.es = d->elem_bytes, .align_in = d->align_in, .align_out = d->align_out};
#define TO_PROBLEM(f) p->f = d->f;
	MODEL_SHAPE_FIELDS(TO_PROBLEM)
#undef TO_PROBLEM
}

int model_desc_is_nd(const ptxpose_desc *d)
{
	return d->size >= sizeof *d && d->rank;
}

enum model_status model_desc_check(ptxpose_desc *d, int shape_only, char *err, size_t errlen)
{
	model_problem p;
	if (model_desc_is_nd(d)) {
		enum model_status st = model_problem_of_nd(&p, d, d->align_in, d->align_out, NULL, 0, err, errlen);
		return st || shape_only || p.copy_elems ? st : model_problem_check(&p, err, errlen);
	}
	model_problem_of_desc(&p, d);
	enum model_status st = shape_only ? model_problem_check_shape(&p, err, errlen)
					  : model_problem_check(&p, err, errlen);
	if (!st) {
#define TO_DESC(f) d->f = p.f;
		MODEL_SHAPE_FIELDS(TO_DESC)
#undef TO_DESC
	}
	return st;
}

void model_desc_bytes(const ptxpose_desc *d, uint64_t *in, uint64_t *out)
{
	model_problem p;
	char err[256];
	if (model_desc_is_nd(d)) {
		if (model_nd_spans(d, in, out, err, sizeof err))
			*in = *out = 0;
		return;
	}
	model_problem_of_desc(&p, d);
	*in = model_problem_in_bytes(&p);
	*out = model_problem_out_bytes(&p);
}
