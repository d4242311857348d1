/* nd: an N-d permutation reduced and classified for a plan (nd_reduce.c):
 * extent-1 dims dropped, dims that stay adjacent in both tensors merged, a
 * small preserved innermost dim folded into the width. The problem itself is
 * common/nd.h. */
#ifndef LIB_ND_REDUCE_H
#define LIB_ND_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "common/nd.h"

/* ---- reduction and classification (nd_reduce.c) --------------------------- */

typedef enum {
	ND_COPY,        /* the identity after merging: one run of `run.ext` elements */
	ND_TRANSPOSE,   /* the input's and the output's fastest dims differ */
	ND_TILED_COPY,  /* the same fastest dim on both sides: runs moved between strided places */
	ND_SMALL,       /* a transpose whose rows and cols are both <= ND_SMALL_EXT (cuTT's "packed") */
} nd_class;

/* One dim of the reduced problem: its extent and strides (elements of the
 * reduced width). */
typedef struct {
	uint64_t ext;
	int64_t s_in, s_out;
} nd_dim;

typedef struct {
	/* The reduced problem itself, as good as the original for nd_check and
	 * the reference (rig/nd_ref.h): extent-1 dims dropped (one dim of
	 * extent 1 left when all were 1), dims merged, maybe a wider
	 * elem_bytes, alignments made explicit (never 0). Its dims are in
	 * canonical order: input stride descending (ties: output stride
	 * descending), so dim rank-1 is the input's fastest; perm orders the
	 * output by output stride descending. */
	nd_problem p;
	nd_class cls;
	unsigned rank_in;             /* the original rank */
	unsigned dropped;             /* extent-1 dims dropped */
	unsigned merged_from;         /* dims before merging (after dropping) */
	unsigned folded;              /* the extent folded into the width, or 0 */
	unsigned elem_bytes_in;       /* the original width */
	/* ND_COPY: run = the one dim (contiguous: both strides 1, or one
	 * element). ND_TILED_COPY: run = the fastest dim of both sides, and
	 * batch[] the outer dims. */
	nd_dim run;
	int contiguous;
	/* ND_TRANSPOSE and ND_SMALL, in the 2-D kernels' terms
	 * (out[j*ld_out + i*inner_out] = in[i*ld_in + j*inner_in], i < rows,
	 * j < cols): cols is the input's fastest dim, rows the output's.
	 * inner_in and inner_out are 1 for the existing kernels. */
	uint64_t rows, cols;
	int64_t ld_in, ld_out;
	int64_t inner_in, inner_out;
	/* The dims around that core: a transpose's batch (up to rank-2) or a
	 * tiled copy's outer dims (up to rank-1), slowest first by input
	 * stride, so the fastest-varying is last. */
	unsigned nbatch;
	nd_dim batch[ND_MAX_RANK];
} nd_reduced;

/* Check p (nd_check), then reduce it: (a) drop extent-1 dims; (b) merge
 * every two dims that stay adjacent in both tensors (HPTT's bilateral
 * fusion: outer dim o and inner dim n merge when s_in[o] == ext[n]*s_in[n]
 * and likewise for the output strides; merging is exact for any strides);
 * (c) fold a preserved innermost dim (the fastest of both sides, unit
 * strides) into a wider element when ext*elem_bytes is a power of two
 * <= 16 and every other stride (in bytes) and both alignments are
 * multiples of it; (d) classify. 0 with *r filled and one line in why
 * ("merged 4 dims to 2, folded 2x2B into 4B, transpose 96x8192 batch [3]"),
 * or -1 with nd_check's reason in why. */
int nd_reduce(const nd_problem *p, nd_reduced *r, char *why, size_t whylen);

/* "copy", "transpose", "tiled copy", "small transpose". */
const char *nd_class_name(nd_class c);

/* The reduced shape, class and strides in a few lines for `ptxpose plan`,
 * each ending in '\n': the length written, >= len when it was cut. */
int nd_reduced_describe(const nd_reduced *r, char *buf, size_t len);

#endif
