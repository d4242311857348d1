/* model_nd: an N-d desc (rank > 0) as the model's problem: checked
 * (common/nd.c), reduced and classified (lib/nd_reduce.c), then put in the
 * kernels' terms: a copy, a transpose over a batch of up to 6 dims (kernel
 * ABI v2 for one, v3 for more), or a tiled copy (rows of the shared fastest
 * dim moved between strided places). */
#include "lib/model.h"

#include <stdio.h>
#include <string.h>

#include "lib/nd_pack.h"
#include "lib/nd_reduce.h"

#define DIM_MAX 0x7fffffffu

static enum model_status fail(char *err, size_t errlen, enum model_status st, const char *fmt, const char *what,
			      unsigned long long v)
{
	snprintf(err, errlen, fmt, what, v);
	return st;
}

/* The reduced batch dims into p: one as v2's batch, more for ABI v3. */
static enum model_status batch_of(model_problem *p, const nd_reduced *r, char *err, size_t errlen)
{
	p->batch = 1;
	if (r->nbatch > 6)
		return fail(err, errlen, MODEL_EINVAL, "%s: %llu batch dims after reducing (at most 6)", "permutation",
			    r->nbatch);
	uint64_t n = 1;
	for (unsigned k = 0; k < r->nbatch; k++) {
		if (r->batch[k].s_in < 0 || r->batch[k].s_out < 0)
			return fail(err, errlen, MODEL_EINVAL, "%s: negative stride %lld", "batch",
				    (unsigned long long)r->batch[k].s_in);
		n *= r->batch[k].ext; /* each <= 2^31-1 and the product <= the element count */
		p->bd_ext[k] = r->batch[k].ext;
		p->bd_in[k] = (uint64_t)r->batch[k].s_in;
		p->bd_out[k] = (uint64_t)r->batch[k].s_out;
	}
	if (n > DIM_MAX)
		return fail(err, errlen, MODEL_EINVAL, "%s: %llu matrices (kernels walk at most 2^31-1)", "batch", n);
	p->batch = n;
	if (r->nbatch == 1) {
		p->stride_in = p->bd_in[0];
		p->stride_out = p->bd_out[0];
		p->bd_ext[0] = p->bd_in[0] = p->bd_out[0] = 0;
	} else if (r->nbatch > 1) {
		p->nbd = r->nbatch;
	}
	return MODEL_OK;
}

/* One 2-D extent or leading dimension the kernels take in 32 bits. */
static enum model_status dim32(const char *what, int64_t v, char *err, size_t errlen)
{
	if (v < 1 || (uint64_t)v > DIM_MAX)
		return fail(err, errlen, MODEL_EINVAL, "%s %llu after reducing is past what the kernels take (1 to 2^31-1)",
			    what, (unsigned long long)v);
	return MODEL_OK;
}

/* The pack kernels' tile too (kernel ABI v4), preferred where the 2-D
 * core is tiny (nd_pack_preferred); its line after the reduction's in why. */
static void pack_of(model_problem *p, const nd_reduced *r, char *why, size_t whylen)
{
	char line[256];
	unsigned es = r->p.elem_bytes;
	if (nd_pack_choose(r, ND_PACK_CAP(es), &p->pack, line, sizeof line))
		memset(&p->pack, 0, sizeof p->pack);
	else
		p->pack.prefer = nd_pack_preferred(r);
	size_t n = why ? strlen(why) : 0;
	if (why && n + 3 < whylen)
		snprintf(why + n, whylen - n, "; %s%s", line,
			 !p->pack.prefer ? "" : r->cls == ND_TILED_COPY ? " (preferred: short runs)" : " (preferred: a tiny 2-D core)");
}

enum model_status model_problem_of_nd(model_problem *p, const ptxpose_desc *d, unsigned a_in, unsigned a_out,
				      char *why, size_t whylen, char *err, size_t errlen)
{
	nd_problem q;
	nd_reduced r;
	char line[256];
	memset(p, 0, sizeof *p);
	nd_of_desc(&q, d, a_in, a_out);
	if (nd_check(&q, err, errlen))
		return strstr(err, "overflow") || strstr(err, "2^63") ? MODEL_EOVERFLOW : MODEL_EINVAL;
	if (nd_reduce(&q, &r, line, sizeof line)) {
		snprintf(err, errlen, "%s", line);
		return MODEL_EINVAL;
	}
	if (why)
		snprintf(why, whylen, "%s", line);
	uint64_t in_bytes, out_bytes;
	nd_spans(&q, &in_bytes, &out_bytes);
	p->es = r.p.elem_bytes;
	p->align_in = d->align_in, p->align_out = d->align_out;
	if (r.p.elem_bytes != d->elem_bytes) /* folded: the alignment that let it fold */
		p->align_in = r.p.align_in, p->align_out = r.p.align_out;
	p->span_in = in_bytes, p->span_out = out_bytes;
	p->rows = p->cols = p->ld_in = p->ld_out = p->batch = 1;
	enum model_status st;
	switch (r.cls) {
	case ND_COPY:
		if (r.contiguous) {
			p->copy_elems = r.run.ext;
			return MODEL_OK;
		}
		/* one strided run: rows of one element */
		p->op = 1;
		p->rows = r.run.ext;
		if ((st = dim32("run", (int64_t)r.run.ext, err, errlen)) || (st = dim32("input stride", r.run.s_in, err, errlen)) ||
		    (st = dim32("output stride", r.run.s_out, err, errlen)))
			return st;
		p->ld_in = (uint64_t)r.run.s_in, p->ld_out = (uint64_t)r.run.s_out;
		return MODEL_OK;
	case ND_TILED_COPY: {
		if (r.run.s_in != 1 || r.run.s_out != 1)
			return fail(err, errlen, MODEL_EINVAL, "%s: a fastest stride of %llu elements (kernels take 1)",
				    "tiled copy", (unsigned long long)(r.run.s_in != 1 ? r.run.s_in : r.run.s_out));
		p->op = 1;
		p->cols = r.run.ext;
		nd_reduced rows = r;
		/* the fastest outer dim becomes the rows, the rest the batch */
		const nd_dim *o = &r.batch[r.nbatch - 1];
		p->rows = o->ext;
		if ((st = dim32("cols", (int64_t)p->cols, err, errlen)) || (st = dim32("rows", (int64_t)o->ext, err, errlen)) ||
		    (st = dim32("input row stride", o->s_in, err, errlen)) ||
		    (st = dim32("output row stride", o->s_out, err, errlen)))
			return st;
		p->ld_in = (uint64_t)o->s_in, p->ld_out = (uint64_t)o->s_out;
		rows.nbatch = r.nbatch - 1;
		if ((st = batch_of(p, &rows, err, errlen)))
			return st;
		pack_of(p, &r, why, whylen); /* short runs: the pack kernels move any permutation */
		return MODEL_OK;
	}
	case ND_TRANSPOSE:
	case ND_SMALL:
		if (r.inner_in != 1 || r.inner_out != 1)
			return fail(err, errlen, MODEL_EINVAL, "%s: a fastest stride of %llu elements (kernels take 1)",
				    "transpose", (unsigned long long)(r.inner_in != 1 ? r.inner_in : r.inner_out));
		if ((st = dim32("rows", (int64_t)r.rows, err, errlen)) || (st = dim32("cols", (int64_t)r.cols, err, errlen)) ||
		    (st = dim32("ld_in", r.ld_in, err, errlen)) || (st = dim32("ld_out", r.ld_out, err, errlen)))
			return st;
		p->rows = r.rows, p->cols = r.cols, p->ld_in = (uint64_t)r.ld_in, p->ld_out = (uint64_t)r.ld_out;
		if ((st = batch_of(p, &r, err, errlen)))
			return st;
		pack_of(p, &r, why, whylen);
		return MODEL_OK;
	}
	snprintf(err, errlen, "permutation: class %d unknown", (int)r.cls);
	return MODEL_EINVAL;
}

enum model_status model_nd_spans(const ptxpose_desc *d, uint64_t *in, uint64_t *out, char *err, size_t errlen)
{
	nd_problem q;
	nd_of_desc(&q, d, 0, 0);
	if (nd_check(&q, err, errlen))
		return MODEL_EINVAL;
	nd_spans(&q, in, out);
	return MODEL_OK;
}
