/* ndspec: an N-d permutation as a user writes it:
 *
 *     D0xD1x...xDn:perm=p0,p1,...[:strides_in=a,b,...][:strides_out=a,b,...]
 *
 * extents (dim 0 slowest), NumPy's perm (out = in.transpose(perm)) and
 * strides in elements (input strides per input dim, output strides per
 * output dim; packed where not given). No width: the caller sets it. Only
 * the form is checked here (numbers, counts, keys); what the values mean
 * (an extent of 0, a perm that is not a permutation, negative strides) is
 * lib/nd_reduce.h's nd_check. */
#ifndef COMMON_NDSPEC_H
#define COMMON_NDSPEC_H

#include <stddef.h>
#include <stdint.h>

/* lib/nd_reduce.h's ND_MAX_RANK (nd_check.c asserts they agree). */
#define NDSPEC_MAX_RANK 8

typedef struct {
	unsigned rank;
	uint64_t ext[NDSPEC_MAX_RANK];
	unsigned perm[NDSPEC_MAX_RANK];
	int has_s_in, has_s_out;          /* 0: not given (packed) */
	int64_t s_in[NDSPEC_MAX_RANK];    /* 0 where not given */
	int64_t s_out[NDSPEC_MAX_RANK];
} ndspec;

/* Parse one spec at text into *s: 0, or -1 with one line in err naming the
 * bad token ("ndspec '4xx5': extent 2 is empty"). perm= is required; each
 * key at most once; perm and the strides have exactly rank entries;
 * extents and perm entries are decimal, strides may have a '-' (nd_check
 * refuses them); numbers that overflow (extents 2^64, perm 2^32, strides
 * 2^63) are refused.
 *
 * end NULL: the whole text is the spec. Otherwise parsing stops at a ','
 * after a complete spec (the shape, or the rank-th value of a list), or at
 * the end, and *end points there: so a comma-separated list of specs
 * ("4x5:perm=1,0,2x3x4:perm=2,1,0") splits without ambiguity. */
int ndspec_parse(const char *text, ndspec *s, const char **end, char *err, size_t errlen);

#endif
