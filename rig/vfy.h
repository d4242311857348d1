/* vfy: verification on the host, pure C (vfy.c, vfy_cmp.c, vfy_copy.c): fill,
 * poison, the reference transpose (a row copy's too), the bit-exact
 * comparison and its report. */
#ifndef RIG_VFY_H
#define RIG_VFY_H

#include <stddef.h>
#include <stdint.h>

#include "common/nd.h"
#include "loader/status.h"
#include "rig/shape.h"

#define VFY_POISON 0xA5u /* every byte of the output before a run */

/* Random bytes: byte k depends only on (seed, k), so a longer fill extends a
 * shorter one and any range can be filled on its own. Threads for big buffers. */
void vfy_fill(void *buf, uint64_t bytes, uint64_t seed);
void vfy_fill_range(void *buf, uint64_t from, uint64_t to, uint64_t seed);
void vfy_poison(void *buf, uint64_t bytes);
/* Make every lane_bits-wide float lane (32 or 64) finite, normal and non-zero
 * by flipping an exponent bit where the exponent is all zeros or all ones,
 * for peers that compute alpha*a + beta*b. */
void vfy_finite(void *buf, uint64_t bytes, unsigned lane_bits);

/* Reference transpose of every matrix b of the batch:
 * out[b*stride_out + j*ld_out + i] = in[b*stride_in + i*ld_in + j]; the
 * ld_out padding and the gaps between matrices are left as they were. s
 * must be checked. */
void vfy_transpose(const void *in, void *out, const rig_shape *s);

typedef struct {
	uint64_t checked;     /* elements compared: all of out */
	uint64_t mismatches;  /* elements that differ, padding and gaps included */
	uint64_t b, j, i;     /* the first mismatch in out's order: matrix, row, column */
	int in_padding;       /* ... lies in the ld_out padding (i >= rows) */
	int in_gap;           /* ... lies between matrix b and the next (i >= ld_out in its last row) */
	unsigned char got[16], want[16];
	/* an N-d shape's first mismatch (b, j, i unused): its element offset in
	 * out, and its output index when an element lands there (else a gap) */
	uint64_t at;
	uint64_t idx[PTXPOSE_MAX_RANK];
	int written;
	/* bytes changed just outside out (rig guards; 0 on the host path) */
	uint64_t guard_hits;
	int64_t guard_first;  /* offset from out's start of the first: <0 before, >=out_bytes after */
} vfy_result;

/* Compare out against the transpose of in, bit-exactly, over all of out:
 * positions i >= rows in each row and the gaps that strides leave between
 * matrices must still hold the poison. PX_OK or PX_WRONG. */
px_status vfy_compare(const void *in, const void *out, const rig_shape *s, vfy_result *r);

/* "out[j=5][i=7]: got 0x3f800000, want 0x40000000 (12 of 1023 elements wrong)";
 * "out[b=2][j=5][i=7]: ..." for a batch; "out[1,0,4] (element 29): ..." for
 * an N-d shape. */
const char *vfy_describe(const vfy_result *r, const rig_shape *s, char *buf, size_t len);

/* vfy_compare of an N-d shape (vfy_nd.c): the reference is rig/nd_ref.h's
 * on a poisoned buffer, compared over all of out; PX_ENOMEM when there is
 * no room for it. */
px_status vfy_nd_compare(const void *in, const void *out, const rig_shape *s, vfy_result *r);

/* Index of the first byte of buf that is not the poison, or bytes. */
uint64_t vfy_poison_scan(const void *buf, uint64_t bytes);

/* Host buffers of the exact sizes of a shape (so a bounds-checking runner,
 * the emulator, sees the real limits), filled and poisoned. */
typedef struct {
	void *in, *out;
	uint64_t in_bytes, out_bytes;
} vfy_bufs;

px_status vfy_bufs_prepare(vfy_bufs *b, const rig_shape *s, uint64_t seed, char *err, size_t errlen);
void vfy_bufs_free(vfy_bufs *b);

/* A host-side runner (the emulator) that transposes b->in into b->out;
 * returns 0, or non-zero and keeps its own explanation in ud. */
typedef int (*vfy_runner)(void *ud, vfy_bufs *b, const rig_shape *s);

/* Exact buffers, filled and poisoned; run; compare. PX_OK, PX_WRONG (res
 * says where), PX_ENOMEM, or PX_EUNAVAIL when the runner returned non-zero. */
px_status vfy_host_case(const rig_shape *s, uint64_t seed, vfy_runner run, void *ud,
			vfy_result *res, char *err, size_t errlen);

/* ---- row copies (vfy_copy.c): op=copy kernels, gen/tp_rowcopy.c ---------
 * out[b*stride_out + i*ld_out + j] = in[b*stride_in + i*ld_in + j] for
 * i < rows, j < cols, b < batch, with ABI v2's values. */

/* Resolve a shape as a copy (ld_in and ld_out default to cols, batch to 1,
 * strides to rows*ld) in s->p, and check it as the N-d problem it is (rank
 * 3 {batch, rows, cols}, the identity perm: nd_check). PX_EUSAGE with a
 * reason naming the value. Needs s->p.elem_bytes. */
px_status vfy_copy_shape(rig_shape *s, nd_problem *p, char *err, size_t errlen);

/* Compare out (nd_spans' bytes, poisoned before the run) with the copy of in
 * by the N-d reference (rig/nd_ref.h) on a poisoned buffer, every element,
 * padding and gaps included. s and p from vfy_copy_shape. PX_OK, PX_WRONG
 * (res: the first mismatch as b, j = row, i = column) or PX_ENOMEM. */
px_status vfy_copy_compare(const rig_shape *s, const nd_problem *p, const void *in, const void *out, vfy_result *res);

/* vfy_host_case for a copy: exact buffers (nd_spans), filled and poisoned;
 * run (given the resolved shape); vfy_copy_compare. */
px_status vfy_copy_case(const rig_shape *s, uint64_t seed, vfy_runner run, void *ud, vfy_result *res, char *err,
			size_t errlen);

#endif
