/* Shared by the N-d unit tests (nd_unit.c, pack_unit.c): a packed problem
 * from lists, and out = in.transpose(perm) the naive way, every input
 * multi-index from a flat counter (the reference the others are checked
 * against), and their random numbers. Header-only: each test is its own
 * program. */
#ifndef TESTS_UNIT_ND_NAIVE_H
#define TESTS_UNIT_ND_NAIVE_H

#include <stdint.h>
#include <string.h>

#include "common/nd.h"

/* A packed problem: rank, width, extents and perm from lists. */
static inline nd_problem mk(unsigned rank, unsigned es, const uint64_t *ext, const unsigned *perm)
{
	nd_problem p = {.rank = rank, .elem_bytes = es};
	for (unsigned k = 0; k < rank; k++)
		p.ext[k] = ext[k], p.perm[k] = perm[k];
	nd_fill_packed(&p);
	return p;
}
#define MK(es, E, P) mk(sizeof(uint64_t[])E / sizeof(uint64_t), es, (uint64_t[])E, (unsigned[])P)
#define L(...) {__VA_ARGS__}

static inline void naive(const nd_problem *p0, const unsigned char *in, unsigned char *out)
{
	const nd_problem p = *p0;
	uint64_t n = 1;
	for (unsigned k = 0; k < p.rank; k++)
		n *= p.ext[k];
	for (uint64_t c = 0; c < n; c++) {
		uint64_t x[ND_MAX_RANK], rest = c, io = 0, oo = 0;
		for (unsigned k = p.rank; k-- > 0;)
			x[k] = rest % p.ext[k], rest /= p.ext[k];
		for (unsigned k = 0; k < p.rank; k++)
			io += x[k] * (uint64_t)p.s_in[k], oo += x[p.perm[k]] * (uint64_t)p.s_out[k];
		memcpy(out + oo * p.elem_bytes, in + io * p.elem_bytes, p.elem_bytes);
	}
}

/* A seeded xorshift the caller seeds (rng = ...), and a random perm of
 * 0..r-1 drawn from it. */
static uint64_t rng;
static inline uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return n ? rng % n : 0;
}

static inline void random_perm(unsigned *perm, unsigned r)
{
	for (unsigned k = 0; k < r; k++)
		perm[k] = k;
	for (unsigned k = r; k > 1; k--) {
		unsigned j = (unsigned)rnd(k), t = perm[k - 1];
		perm[k - 1] = perm[j], perm[j] = t;
	}
}

#endif
