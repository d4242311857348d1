/* nd_reduce: an N-d permutation reduced (extent-1 dims dropped, dims that
 * stay adjacent in both tensors merged, a small preserved innermost dim
 * folded into the width) and classified (lib/nd_reduce.h). */
#include "lib/nd_reduce.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *nd_class_name(nd_class c)
{
	switch (c) {
	case ND_COPY:
		return "copy";
	case ND_TRANSPOSE:
		return "transpose";
	case ND_TILED_COPY:
		return "tiled copy";
	case ND_SMALL:
		return "small transpose";
	}
	return "?";
}

/* Canonical order: input stride descending, then output stride descending
 * (distinct among dims of extent >= 2 once nd_check passed). */
static int before(const nd_dim *a, const nd_dim *b)
{
	return a->s_in != b->s_in ? a->s_in > b->s_in : a->s_out > b->s_out;
}

static void sort_dims(nd_dim *d, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		nd_dim t = d[i];
		unsigned j = i;
		for (; j > 0 && before(&t, &d[j - 1]); j--)
			d[j] = d[j - 1];
		d[j] = t;
	}
}

static void remove_dim(nd_dim *d, unsigned *n, unsigned k)
{
	memmove(d + k, d + k + 1, (*n - k - 1) * sizeof *d);
	(*n)--;
}

/* Merge one pair (outer o, inner i: s_in[o] == ext[i]*s_in[i], the same for
 * s_out): o becomes their product with i's strides. 1 if one merged. */
static int merge_one(nd_dim *d, unsigned *n)
{
	for (unsigned o = 0; o < *n; o++)
		for (unsigned i = 0; i < *n; i++) {
			int64_t a, b;
			if (i == o || __builtin_mul_overflow((int64_t)d[i].ext, d[i].s_in, &a) ||
			    __builtin_mul_overflow((int64_t)d[i].ext, d[i].s_out, &b) || a != d[o].s_in ||
			    b != d[o].s_out)
				continue;
			d[o] = (nd_dim){d[o].ext * d[i].ext, d[i].s_in, d[i].s_out};
			remove_dim(d, n, i);
			sort_dims(d, *n);
			return 1;
		}
	return 0;
}

/* The dim of the smallest output stride. */
static unsigned out_fastest(const nd_dim *d, unsigned n)
{
	unsigned f = 0;
	for (unsigned k = 1; k < n; k++)
		if (d[k].s_out < d[f].s_out)
			f = k;
	return f;
}

/* Fold the innermost dim into the width where allowed: 1 if folded. Its
 * unit output stride makes it the output's fastest too (no other output
 * stride is below 2 in a problem nd_check passed). */
static int fold(nd_dim *d, unsigned *n, nd_problem *q, unsigned *folded)
{
	if (!*n)
		return 0;
	unsigned f = *n - 1;
	uint64_t w = d[f].ext * q->elem_bytes;
	if (d[f].s_in != 1 || d[f].s_out != 1 || w > 16 || (w & (w - 1)) ||
	    q->align_in % w || q->align_out % w)
		return 0;
	for (unsigned k = 0; k < f; k++)
		if ((uint64_t)d[k].s_in * q->elem_bytes % w || (uint64_t)d[k].s_out * q->elem_bytes % w)
			return 0;
	for (unsigned k = 0; k < f; k++) {
		d[k].s_in = (int64_t)((uint64_t)d[k].s_in * q->elem_bytes / w);
		d[k].s_out = (int64_t)((uint64_t)d[k].s_out * q->elem_bytes / w);
	}
	*folded = (unsigned)d[f].ext;
	q->elem_bytes = (unsigned)w;
	(*n)--;
	return 1;
}

/* printf at buf + *at while there is room */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	if (*at >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	*at = n < 0 ? len : *at + (size_t)n;
}

/* " [e0,e1,...]" of the batch extents into buf at *at. */
static void add_batch(char *buf, size_t len, size_t *at, const nd_reduced *r)
{
	for (unsigned k = 0; k < r->nbatch; k++)
		add(buf, len, at, "%s%" PRIu64 "%s", k ? "," : " [", r->batch[k].ext, k + 1 == r->nbatch ? "]" : "");
}

/* The class part of why: "transpose 96x8192 batch [3]". */
static void class_line(const nd_reduced *r, char *buf, size_t len)
{
	size_t at = 0;
	switch (r->cls) {
	case ND_COPY:
		add(buf, len, &at, "%s copy of %" PRIu64 " elements", r->contiguous ? "contiguous" : "strided",
			      r->run.ext);
		break;
	case ND_TILED_COPY:
		add(buf, len, &at, "tiled copy of runs of %" PRIu64 " elements, outer", r->run.ext);
		break;
	case ND_TRANSPOSE:
	case ND_SMALL:
		add(buf, len, &at, "%s %" PRIu64 "x%" PRIu64 "%s", nd_class_name(r->cls), r->rows, r->cols,
			      r->nbatch ? " batch" : "");
		break;
	}
	add_batch(buf, len, &at, r);
}

static void classify(nd_reduced *r, const nd_dim *d, unsigned n)
{
	r->nbatch = 0;
	if (n <= 1) {
		r->cls = ND_COPY;
		r->run = n ? d[0] : (nd_dim){1, 1, 1};
		r->contiguous = r->run.ext == 1 || (r->run.s_in == 1 && r->run.s_out == 1);
		return;
	}
	unsigned fi = n - 1, fo = out_fastest(d, n);
	for (unsigned k = 0; k < n; k++)
		if (k != fi && k != fo)
			r->batch[r->nbatch++] = d[k];
	if (fi == fo) {
		r->cls = ND_TILED_COPY;
		r->run = d[fi];
		r->contiguous = d[fi].s_in == 1 && d[fi].s_out == 1;
		return;
	}
	r->cols = d[fi].ext, r->inner_in = d[fi].s_in, r->ld_out = d[fi].s_out;
	r->rows = d[fo].ext, r->ld_in = d[fo].s_in, r->inner_out = d[fo].s_out;
	r->cls = r->rows <= ND_SMALL_EXT && r->cols <= ND_SMALL_EXT ? ND_SMALL : ND_TRANSPOSE;
}

/* r->p from the canonical dims. */
static void reduced_problem(nd_reduced *r, const nd_problem *q, const nd_dim *d, unsigned n)
{
	nd_problem *p = &r->p;
	memset(p, 0, sizeof *p);
	p->elem_bytes = q->elem_bytes;
	p->align_in = q->align_in, p->align_out = q->align_out;
	if (!n) {
		p->rank = 1;
		p->ext[0] = 1, p->s_in[0] = p->s_out[0] = 1;
		return;
	}
	p->rank = n;
	for (unsigned k = 0; k < n; k++) {
		p->ext[k] = d[k].ext;
		p->s_in[k] = d[k].s_in;
		p->perm[k] = k;
	}
	/* output dims by output stride descending */
	for (unsigned i = 1; i < n; i++) {
		unsigned t = p->perm[i], j = i;
		for (; j > 0 && d[t].s_out > d[p->perm[j - 1]].s_out; j--)
			p->perm[j] = p->perm[j - 1];
		p->perm[j] = t;
	}
	for (unsigned k = 0; k < n; k++)
		p->s_out[k] = d[p->perm[k]].s_out;
}

int nd_reduce(const nd_problem *p0, nd_reduced *r, char *why, size_t whylen)
{
	memset(r, 0, sizeof *r);
	if (nd_check(p0, why, whylen))
		return -1;
	nd_problem q = *p0;
	if (!q.align_in)
		q.align_in = q.elem_bytes;
	if (!q.align_out)
		q.align_out = q.elem_bytes;
	r->rank_in = q.rank;
	r->elem_bytes_in = q.elem_bytes;
	unsigned inv[ND_MAX_RANK];
	for (unsigned k = 0; k < q.rank; k++)
		inv[q.perm[k]] = k;
	nd_dim d[ND_MAX_RANK];
	unsigned n = 0;
	for (unsigned i = 0; i < q.rank; i++) {
		if (q.ext[i] == 1)
			r->dropped++;
		else
			d[n++] = (nd_dim){q.ext[i], q.s_in[i], q.s_out[inv[i]]};
	}
	sort_dims(d, n);
	r->merged_from = n;
	while (merge_one(d, &n))
		;
	unsigned merged = n;
	fold(d, &n, &q, &r->folded);
	reduced_problem(r, &q, d, n);
	classify(r, d, n);

	char cls[160];
	class_line(r, cls, sizeof cls);
	size_t at = 0;
	why[0] = '\0';
	if (r->dropped)
		add(why, whylen, &at, "dropped %u extent-1 dim%s, ", r->dropped, r->dropped > 1 ? "s" : "");
	if (merged != r->merged_from)
		add(why, whylen, &at, "merged %u dims to %u, ", r->merged_from, merged);
	if (r->folded)
		add(why, whylen, &at, "folded %ux%uB into %uB, ", r->folded, r->elem_bytes_in, r->p.elem_bytes);
	add(why, whylen, &at, "%s", cls);
	return 0;
}

/* " a,b,c" of n numbers */
static void add_list(char *buf, size_t len, size_t *at, const int64_t *v, const uint64_t *u, const unsigned *w,
		     unsigned n, const char *sep)
{
	for (unsigned k = 0; k < n; k++) {
		const char *s = k ? sep : "";
		if (v)
			add(buf, len, at, "%s%" PRId64, s, v[k]);
		else if (u)
			add(buf, len, at, "%s%" PRIu64, s, u[k]);
		else
			add(buf, len, at, "%s%u", s, w[k]);
	}
}

int nd_reduced_describe(const nd_reduced *r, char *buf, size_t len)
{
	const nd_problem *p = &r->p;
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	add(buf, len, &at, "reduced: ");
	add_list(buf, len, &at, NULL, p->ext, NULL, p->rank, "x");
	add(buf, len, &at, " perm ");
	add_list(buf, len, &at, NULL, NULL, p->perm, p->rank, ",");
	add(buf, len, &at, ", %uB elements (from rank %u, %uB)\n", p->elem_bytes, r->rank_in, r->elem_bytes_in);
	add(buf, len, &at, "strides: in ");
	add_list(buf, len, &at, p->s_in, NULL, NULL, p->rank, ",");
	add(buf, len, &at, ", out ");
	add_list(buf, len, &at, p->s_out, NULL, NULL, p->rank, ",");
	add(buf, len, &at, " (elements; align in %uB, out %uB)\n", p->align_in, p->align_out);
	add(buf, len, &at, "class: %s", nd_class_name(r->cls));
	if (r->cls == ND_COPY || r->cls == ND_TILED_COPY)
		add(buf, len, &at, ", %s run of %" PRIu64 " (s_in %" PRId64 ", s_out %" PRId64 ")",
		    r->contiguous ? "contiguous" : "strided", r->run.ext, r->run.s_in, r->run.s_out);
	else
		add(buf, len, &at, ", rows %" PRIu64 " cols %" PRIu64 " ld_in %" PRId64 " ld_out %" PRId64
		    " inner_in %" PRId64 " inner_out %" PRId64, r->rows, r->cols, r->ld_in, r->ld_out, r->inner_in,
		    r->inner_out);
	if (r->nbatch)
		add(buf, len, &at, "; %s", r->cls == ND_TILED_COPY ? "outer" : "batch");
	for (unsigned k = 0; k < r->nbatch; k++)
		add(buf, len, &at, " [%" PRIu64 ": s_in %" PRId64 " s_out %" PRId64 "]", r->batch[k].ext,
		    r->batch[k].s_in, r->batch[k].s_out);
	add(buf, len, &at, "\n");
	return at > INT32_MAX ? INT32_MAX : (int)at;
}
