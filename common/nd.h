/* nd: the N-d permutation problem: its description, defaults,
 * one check and spans (common/nd.c), pure C shared by the library (which
 * reduces and plans it: lib/nd_reduce.h) and the tools (the rig's reference). No
 * device, no allocation; every function is cheap (rank <= 8).
 *
 * The convention is NumPy's: out = in.transpose(perm). Input dim i has
 * extent ext[i] and stride s_in[i]; output dim k is input dim perm[k], so it
 * has extent ext[perm[k]] and stride s_out[k]. Element (x_0, ..., x_{r-1}) of
 * the input (x_i < ext[i]) lands at
 *
 *     out[sum_k x_{perm[k]} * s_out[k]] = in[sum_i x_i * s_in[i]]
 *
 * (offsets in elements of elem_bytes). Dim 0 is the slowest of the packed
 * row-major defaults. Example, attention heads [B,S,H,D] -> [B,H,S,D]:
 * rank 4, ext {B,S,H,D}, perm {0,2,1,3}, strides all 0 (packed).
 *
 * A 2-D transpose (include/ptxpose.h: out[j*ld_out + i] = in[i*ld_in + j]) is
 * rank 2, ext {rows, cols}, perm {1,0}, s_in {ld_in, 1}, s_out {ld_out, 1}; a
 * batch of them is rank 3, ext {batch, rows, cols}, perm {0,2,1}, s_in
 * {stride_in, ld_in, 1}, s_out {stride_out, ld_out, 1}. */
#ifndef COMMON_ND_H
#define COMMON_ND_H

#include <stddef.h>
#include <stdint.h>

#include "common/ndspec.h"
#include "include/ptxpose.h"

#define ND_MAX_RANK 8
/* Both fastest extents at most this many elements: ND_SMALL. */
#define ND_SMALL_EXT 8

typedef struct {
	unsigned rank;                /* 1..ND_MAX_RANK */
	unsigned elem_bytes;          /* 1, 2, 4, 8, 16 */
	uint64_t ext[ND_MAX_RANK];    /* input extents, dim 0 slowest (row-major), each >= 1 */
	/* Strides in elements, >= 0 (negative strides are refused for now),
	 * taken literally by every function here: a 0 is an input broadcast,
	 * or two output elements at one address (refused). A caller that was
	 * given no strides (the packed default) fills them first with
	 * nd_fill_packed. */
	int64_t s_in[ND_MAX_RANK];    /* stride of input dim i */
	int64_t s_out[ND_MAX_RANK];   /* stride of OUTPUT dim k (extent ext[perm[k]]) */
	unsigned perm[ND_MAX_RANK];   /* out dim k is in dim perm[k]: a permutation of 0..rank-1 */
	unsigned align_in, align_out; /* bytes promised for the pointers: 0 (elem_bytes) or a power of
				       * two >= elem_bytes */
} nd_problem;

/* Strides 0 = packed: replace an all-zero s_in (s_out) by the packed
 * row-major strides of the input (output) shape, saturated at INT64_MAX
 * where they overflow (so that nd_check reports the overflow). For callers
 * whose user gave no strides; nothing else applies it (an all-zero s_in
 * is also a full broadcast, which a reduced problem may be). A rank out of
 * range leaves p alone; a perm entry out of range leaves s_out alone
 * (nd_check names it). */
void nd_fill_packed(nd_problem *p);

/* 0, or -1 with a one-line reason naming the value: a rank of 0 or over 8,
 * a width other than 1, 2, 4, 8, 16, an alignment that is not 0 or a power
 * of two >= the width, an extent of 0, a perm that is not a permutation of
 * 0..rank-1 (the entry named), a negative stride ("negative strides are not
 * supported yet"), strides whose last byte offset (max offset + elem_bytes)
 * passes 2^63-1, and output strides under which two elements may share an
 * address.
 *
 * The output test is sufficient, not exact: the dims of extent >= 2 sorted
 * by output stride, each stride must be at least the span (in elements) of
 * the faster ones together. Exotic interleaved layouts that never collide
 * (strides {2,3} over extents {2,2}, ...) are refused as "may alias".
 * Input strides MAY alias (0 broadcasts, overlapping windows): reading an
 * element twice is harmless. */
int nd_check(const nd_problem *p, char *err, size_t errlen);

/* Bytes from the input and output pointers to the end of their last
 * element ((max offset + 1) * elem_bytes; strides are >= 0, so the lowest
 * address is the pointer), for the caller's test that in and out do not
 * overlap. 0, or -1 (both 0) when p fails nd_check. */
int nd_spans(const nd_problem *p, uint64_t *in_bytes, uint64_t *out_bytes);

/* The problem a parsed shape spec (common/ndspec.h) describes, at a width
 * the caller gives; strides not given are packed (nd_fill_packed);
 * alignments 0. Not checked: call nd_check. */
void nd_from_spec(nd_problem *p, const ndspec *s, unsigned elem_bytes);

/* The problem an N-d desc (include/ptxpose.h, rank > 0) describes, strides
 * packed where a side gives none (nd_fill_packed); alignments a_in and
 * a_out where they are known (at least elem_bytes), else 0 (then nothing
 * folds into a wider element). Not checked: call nd_check. */
void nd_of_desc(nd_problem *p, const ptxpose_desc *d, unsigned a_in, unsigned a_out);

#endif
