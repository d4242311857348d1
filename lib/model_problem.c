/* model_problem: a transpose problem's defaults and its checks, with the
 * limits of kernel ABI 2 (docs/DESIGN.md). */
#include "lib/model.h"

#include <stdio.h>

static enum model_status dim(const char *name, uint64_t v, char *err, size_t errlen)
{
	if (v == 0) {
		snprintf(err, errlen, "%s 0: a zero dimension", name);
		return MODEL_EINVAL;
	}
	if (v > MODEL_DIM_MAX) {
		snprintf(err, errlen, "%s %llu is over %u, the kernels' limit", name, (unsigned long long)v,
			 MODEL_DIM_MAX);
		return MODEL_EINVAL;
	}
	return MODEL_OK;
}

/* Elements from one matrix's first element to one past its last. */
static uint64_t extent(uint64_t n, uint64_t ld, uint64_t len)
{
	return (n - 1) * ld + len; /* n, ld, len <= 2^31: no overflow */
}

static enum model_status stride(const char *name, uint64_t *s, uint64_t dense, uint64_t need,
				const char *what, char *err, size_t errlen)
{
	if (!*s)
		*s = dense;
	if (*s < need) {
		snprintf(err, errlen, "%s %llu is less than the %s matrix (%llu elements): matrices would overlap",
			 name, (unsigned long long)*s, what, (unsigned long long)need);
		return MODEL_EINVAL;
	}
	return MODEL_OK;
}

static enum model_status span(const char *side, const model_problem *p, uint64_t s, uint64_t one,
			      char *err, size_t errlen)
{
	uint64_t n, bytes;
	if (__builtin_mul_overflow(p->batch - 1, s, &n) || __builtin_add_overflow(n, one, &n) ||
	    __builtin_mul_overflow(n, (uint64_t)p->es, &bytes) || bytes > INT64_MAX) {
		snprintf(err, errlen, "the %s spans %llu matrices %llu elements apart of %u-byte elements: "
			 "its bytes overflow 2^63", side, (unsigned long long)p->batch,
			 (unsigned long long)s, p->es);
		return MODEL_EOVERFLOW;
	}
	return MODEL_OK;
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
	if (p->es != 1 && p->es != 2 && p->es != 4 && p->es != 8 && p->es != 16) {
		snprintf(err, errlen, "element size %u bytes is not 1, 2, 4, 8 or 16", p->es);
		return MODEL_EINVAL;
	}
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
		snprintf(err, errlen, "ld_in %llu is less than cols %llu", (unsigned long long)p->ld_in,
			 (unsigned long long)p->cols);
		return MODEL_EINVAL;
	}
	if (p->ld_out < p->rows) {
		snprintf(err, errlen, "ld_out %llu is less than rows %llu", (unsigned long long)p->ld_out,
			 (unsigned long long)p->rows);
		return MODEL_EINVAL;
	}
	uint64_t in1 = extent(p->rows, p->ld_in, p->cols), out1 = extent(p->cols, p->ld_out, p->rows);
	if (p->batch == 1) {
		p->stride_in = p->stride_out = 0; /* ignored (kernel ABI 2) */
	} else if ((st = stride("stride_in", &p->stride_in, p->rows * p->ld_in, in1, "input", err, errlen)) ||
		   (st = stride("stride_out", &p->stride_out, p->cols * p->ld_out, out1, "output", err, errlen))) {
		return st;
	}
	if ((st = span("input", p, p->stride_in, in1, err, errlen)) ||
	    (st = span("output", p, p->stride_out, out1, err, errlen)))
		return st;
	if ((st = align("align_in", &p->align_in, p->es, err, errlen)) ||
	    (st = align("align_out", &p->align_out, p->es, err, errlen)))
		return st;
	return MODEL_OK;
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
