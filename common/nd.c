/* nd: the N-d permutation problem's defaults, its one check and its spans
 * (common/nd.h). */
#include "common/nd.h"

#include "common/elem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

_Static_assert(NDSPEC_MAX_RANK == ND_MAX_RANK, "common/ndspec.h and common/nd.h disagree on the rank");

/* Offsets and byte counts must stay at or below this. */
#define ND_BYTES_MAX ((uint64_t)INT64_MAX)

static int all_zero(const int64_t *s, unsigned rank)
{
	for (unsigned k = 0; k < rank; k++)
		if (s[k])
			return 0;
	return 1;
}

/* Packed row-major strides of extents e[0..rank-1] into s, saturated. */
static void packed(int64_t *s, const uint64_t *e, unsigned rank)
{
	uint64_t st = 1;
	for (unsigned k = rank; k-- > 0;) {
		s[k] = (int64_t)st;
		if (st != ND_BYTES_MAX && (__builtin_mul_overflow(st, e[k], &st) || st > ND_BYTES_MAX))
			st = ND_BYTES_MAX;
	}
}

void nd_fill_packed(nd_problem *p)
{
	if (p->rank < 1 || p->rank > ND_MAX_RANK)
		return;
	if (all_zero(p->s_in, p->rank))
		packed(p->s_in, p->ext, p->rank);
	if (!all_zero(p->s_out, p->rank))
		return;
	uint64_t e[ND_MAX_RANK];
	for (unsigned k = 0; k < p->rank; k++) {
		if (p->perm[k] >= p->rank)
			return;
		e[k] = p->ext[p->perm[k]];
	}
	packed(p->s_out, e, p->rank);
}

void nd_from_spec(nd_problem *p, const ndspec *s, unsigned elem_bytes)
{
	memset(p, 0, sizeof *p);
	p->rank = s->rank;
	p->elem_bytes = elem_bytes;
	for (unsigned k = 0; k < s->rank && k < ND_MAX_RANK; k++) {
		p->ext[k] = s->ext[k];
		p->perm[k] = s->perm[k];
	}
	nd_fill_packed(p);
	for (unsigned k = 0; k < s->rank && k < ND_MAX_RANK; k++) {
		if (s->has_s_in)
			p->s_in[k] = s->s_in[k];
		if (s->has_s_out)
			p->s_out[k] = s->s_out[k];
	}
}

void nd_of_desc(nd_problem *q, const ptxpose_desc *d, unsigned a_in, unsigned a_out)
{
	memset(q, 0, sizeof *q);
	q->rank = d->rank;
	q->elem_bytes = d->elem_bytes;
	for (unsigned k = 0; k < d->rank && k < ND_MAX_RANK; k++) {
		q->ext[k] = d->extents[k];
		q->perm[k] = d->perm[k];
		q->s_in[k] = d->strides_in[k];
		q->s_out[k] = d->strides_out[k];
	}
	/* an alignment known (promised, or the pointers'): 0 lets nothing fold */
	q->align_in = a_in >= d->elem_bytes ? a_in : 0;
	q->align_out = a_out >= d->elem_bytes ? a_out : 0;
	nd_fill_packed(q);
}

static int check_align(const char *name, unsigned a, unsigned es, char *err, size_t errlen)
{
	if (a && (a & (a - 1))) {
		snprintf(err, errlen, "%s %u is not a power of two", name, a);
		return -1;
	}
	if (a && a < es) {
		snprintf(err, errlen, "%s %u is less than elem_bytes %u (give 0 or a multiple of it)", name, a, es);
		return -1;
	}
	return 0;
}

/* The largest offset (elements) of extents e with strides s (checked >= 0)
 * into *off, or -1 naming the dim where the bytes pass 2^63-1. */
static int last_offset(const char *side, const uint64_t *e, const int64_t *s, unsigned rank, unsigned es,
		       uint64_t *off, char *err, size_t errlen)
{
	uint64_t sum = 0, t;
	for (unsigned k = 0; k < rank; k++) {
		if (__builtin_mul_overflow(e[k] - 1, (uint64_t)s[k], &t) || __builtin_add_overflow(sum, t, &sum) ||
		    sum >= ND_BYTES_MAX / es) {
			snprintf(err, errlen,
				 "%s strides overflow: with %s[%u] = %" PRId64 " (extent %" PRIu64 ") the byte offset of "
				 "the last element passes 2^63-1", side, side, k, s[k], e[k]);
			return -1;
		}
	}
	*off = sum;
	return 0;
}

/* Output dims of extent >= 2, by stride ascending: each stride at least
 * the span of the faster ones (a sufficient test that no two elements
 * share an address). */
static int check_output_disjoint(const uint64_t *e, const int64_t *s, unsigned rank, char *err, size_t errlen)
{
	unsigned ix[ND_MAX_RANK], n = 0;
	for (unsigned k = 0; k < rank; k++) {
		if (e[k] < 2)
			continue;
		unsigned j = n++;
		for (; j > 0 && s[ix[j - 1]] > s[k]; j--)
			ix[j] = ix[j - 1];
		ix[j] = k;
	}
	uint64_t span = 1; /* elements the faster dims cover; fits: last_offset passed */
	for (unsigned j = 0; j < n; j++) {
		unsigned k = ix[j];
		if ((uint64_t)s[k] < span) {
			snprintf(err, errlen,
				 "output strides may alias: s_out[%u] = %" PRId64 " is less than %" PRIu64 ", the span of "
				 "the output dims with smaller strides (interleaved layouts are refused as may alias)",
				 k, s[k], span);
			return -1;
		}
		span = (uint64_t)s[k] * (e[k] - 1) + span;
	}
	return 0;
}

int nd_check(const nd_problem *p0, char *err, size_t errlen)
{
	const nd_problem p = *p0;
	if (p.rank < 1 || p.rank > ND_MAX_RANK) {
		snprintf(err, errlen, "rank %u is out of range (1 to %u)", p.rank, ND_MAX_RANK);
		return -1;
	}
	unsigned es = p.elem_bytes;
	if (!elem_valid_bytes(es)) {
		snprintf(err, errlen, "elem_bytes %u is not " ELEM_BYTES_LIST, es);
		return -1;
	}
	if (check_align("align_in", p.align_in, es, err, errlen) ||
	    check_align("align_out", p.align_out, es, err, errlen))
		return -1;
	for (unsigned k = 0; k < p.rank; k++)
		if (!p.ext[k]) {
			snprintf(err, errlen, "extent %u is 0 (every extent is at least 1)", k);
			return -1;
		}
	unsigned seen[ND_MAX_RANK];
	for (unsigned k = 0; k < p.rank; k++)
		seen[k] = ND_MAX_RANK;
	for (unsigned k = 0; k < p.rank; k++) {
		unsigned v = p.perm[k];
		if (v >= p.rank) {
			snprintf(err, errlen, "perm[%u] = %u is out of range (a permutation of 0 to %u)", k, v, p.rank - 1);
			return -1;
		}
		if (seen[v] != ND_MAX_RANK) {
			snprintf(err, errlen, "perm[%u] = %u repeats perm[%u] (a permutation of 0 to %u)", k, v, seen[v],
				 p.rank - 1);
			return -1;
		}
		seen[v] = k;
	}
	for (unsigned k = 0; k < 2 * p.rank; k++) {
		int out = k >= p.rank;
		int64_t s = out ? p.s_out[k - p.rank] : p.s_in[k];
		if (s < 0) {
			snprintf(err, errlen, "%s[%u] = %" PRId64 ": negative strides are not supported yet",
				 out ? "s_out" : "s_in", k % p.rank, s);
			return -1;
		}
	}
	uint64_t eo[ND_MAX_RANK], off;
	for (unsigned k = 0; k < p.rank; k++)
		eo[k] = p.ext[p.perm[k]];
	if (last_offset("s_in", p.ext, p.s_in, p.rank, es, &off, err, errlen) ||
	    last_offset("s_out", eo, p.s_out, p.rank, es, &off, err, errlen))
		return -1;
	return check_output_disjoint(eo, p.s_out, p.rank, err, errlen);
}

int nd_spans(const nd_problem *p, uint64_t *in_bytes, uint64_t *out_bytes)
{
	char err[256];
	*in_bytes = *out_bytes = 0;
	if (nd_check(p, err, sizeof err))
		return -1;
	uint64_t in = 0, out = 0;
	for (unsigned k = 0; k < p->rank; k++) {
		in += (p->ext[k] - 1) * (uint64_t)p->s_in[k];
		out += (p->ext[p->perm[k]] - 1) * (uint64_t)p->s_out[k];
	}
	*in_bytes = (in + 1) * p->elem_bytes;
	*out_bytes = (out + 1) * p->elem_bytes;
	return 0;
}
