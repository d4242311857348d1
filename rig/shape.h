/* shape: a transpose problem as the rig and the CLI give it, shape lists
 * (shape.c), and what this machine's memory can hold (hostmem.c). Pure C,
 * no driver. */
#ifndef RIG_SHAPE_H
#define RIG_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "common/nd.h"
#include "include/ptxpose.h"
#include "include/ptxpose_tools.h"
#include "loader/meta.h"
#include "loader/status.h"

#define RIG_DIM_MAX 0x7fffffffu /* rows, cols, leading dimensions, batch */
#define RIG_STRIDE_MAX 0x7fffffffffffffffull /* batch strides (elements) */

/* A problem as the library takes it, and what only the harness adds. The
 * flags (cli/opts.h) and shape lists fill p; the library converts it to its
 * own problem in one place (ptxpose_tool_problem_of_desc, lib/model_problem.c). */
typedef struct {
	ptxpose_desc p;  /* the problem: from RIG_SHAPE_INIT or rig_shape_of (p.batch 1);
			  * p.elem_bytes 0: any width (a list entry without elem=) */
	uint64_t offset; /* the harness's: both pointers this many elements past an
			  * aligned address (0-15 for the rig) */
} rig_shape;

#define RIG_SHAPE_INIT {PTXPOSE_DESC_INIT, 0}

/* A rows x cols shape of elem_bits elements (0: any), one matrix, packed. */
rig_shape rig_shape_of(uint64_t rows, uint64_t cols, unsigned elem_bits);

/* Resolve default leading dimensions and strides, then check ranges, that
 * a batch stride holds its matrix (stride_in >= (rows-1)*ld_in + cols,
 * stride_out >= (cols-1)*ld_out + rows) and that the byte sizes fit in 64
 * bits and in size_t. PX_EUSAGE with a reason naming the value ("ld-in 31 is
 * less than cols 33", "batch 0 is out of range ...", "too large: ...").
 * Needs p.elem_bytes. */
px_status rig_shape_check(rig_shape *s, char *err, size_t errlen);

/* Sizes of a checked shape. The input buffer holds batch matrices stride_in
 * apart, the last one rows x ld_in elements; the output cols x ld_out for the
 * last one (its ld_out padding included, the last row too). */
uint64_t rig_shape_in_bytes(const rig_shape *s);
uint64_t rig_shape_out_bytes(const rig_shape *s);
/* Host bytes verification takes: the input and the output, and for an N-d
 * shape the reference's buffer of the output's size too (vfy_nd.c). */
uint64_t rig_shape_host_bytes(const rig_shape *s);
/* Bytes a transpose moves: batch*rows*cols*elem read plus as many written. */
uint64_t rig_shape_moved_bytes(const rig_shape *s);
unsigned rig_shape_elem_bytes(const rig_shape *s);
unsigned rig_shape_elem_bits(const rig_shape *s);

/* "67x129", "67x129 ld_in=132 ld_out=72", "33x31 batch=3 stride_in=1100"
 * (ld and strides shown only when not the default); an N-d shape by its
 * spec, "2x3x5:perm=2,0,1". */
const char *rig_shape_name(const rig_shape *s, char *buf, size_t len);

/* A shape list entry, for messages and help. */
#define RIG_SHAPE_SYNTAX "ROWSxCOLS[:ld_in=N][:ld_out=N][:elem=W][:offset=0-15][:batch=B][:stride_in=S][:stride_out=S]"
/* ... and an N-d permutation's (common/ndspec.h, with the rig's keys). */
#define RIG_SHAPE_ND_SYNTAX "D0xD1x...:perm=p0,p1,...[:strides_in=a,b,...][:strides_out=a,b,...][:elem=W][:offset=0-15]"

/* ---- N-d permutations (shape_nd.c): s->p.rank > 0 ---------------------------
 * The desc's N-d fields (rank, extents, perm, strides; rows, cols, ld,
 * batch and batch strides 0), from a spec (common/ndspec.h): the flags
 * --dims/--perm and list entries of RIG_SHAPE_ND_SYNTAX. */

/* s->p becomes the N-d problem of sp (strides not given: 0, packed). */
void rig_shape_set_nd(rig_shape *s, const ndspec *sp);

/* The reference's problem of an N-d shape (common/nd.h): the desc's fields,
 * packed strides filled in, the width s->p.elem_bytes. */
void rig_shape_nd(const rig_shape *s, nd_problem *q);

/* The problem the kernels run for an N-d shape: the library's reduction
 * (ptxpose_tool_problem_of_desc), with the alignment the pointers have at
 * s->offset as the plan sees it; why gets the reduction's line ("merged 4
 * dims to 3, transpose ..."). PX_EUSAGE with the library's message. */
px_status rig_shape_reduce(const rig_shape *s, ptxpose_tool_problem *p, char *why, size_t wlen, char *err,
			   size_t errlen);

/* Why kernel m cannot run the reduced problem p: "" when it can (or p is a
 * copy, which runs no kernel), else one line into buf ("the problem reduces
 * to a tiled copy, fast_b32 transposes"; "... a batch of 2 dims, which takes
 * a kernel of ABI v3 (abi=3); fast_b32 has abi=2"; a pack kernel, abi=4,
 * needs the problem's pack tile, and one that holds it). Returns buf. */
const char *rig_kernel_pending(const px_meta *m, const ptxpose_tool_problem *p, char *buf, size_t len);

/* rig_shape_name's and rig_shape_moved_bytes's N-d part: "2x3x5:perm=2,0,1"
 * (strides and offset when given), and the elements. */
const char *rig_shape_nd_name(const rig_shape *s, char *buf, size_t len);
uint64_t rig_shape_nd_elems(const rig_shape *s);

/* One entry: ROWSxCOLS[:ld_in=N][:ld_out=N][:elem=W][:offset=N]
 * [:batch=B][:stride_in=S][:stride_out=S] ("ld-in", "stride-in" also
 * accepted), or an N-d one, RIG_SHAPE_ND_SYNTAX (3 extents or more, or
 * a perm= or strides key). Ranges and batch strides are checked, byte sizes are not (elem
 * may be unknown); an unknown key or one given twice (in any spelling) is
 * refused, with the entry quoted: "bad shape '3x3:ld_in=5:ld-in=6': ld-in
 * given twice". */
px_status rig_shape_parse(const char *text, rig_shape *s, char *err, size_t errlen);

/* A comma-separated list of entries into a malloc'd array (an N-d entry's
 * perm= and strides lists take its rank's values, commas between); an
 * empty entry is refused. */
px_status rig_shape_list(const char *list, rig_shape **out, size_t *n, char *err, size_t errlen);

/* The shapes a command runs: *one when one->p.rows, one->p.cols or
 * one->p.rank is set (--rows, --cols, --ld-in, --ld-out, --dims; its ranges and leading dimensions
 * checked as a list entry's are), else the list. A malloc'd array either way. */
px_status rig_shape_select(const char *list, const rig_shape *one, rig_shape **out, size_t *n,
			  char *err, size_t errlen);

/* PX_EUSAGE ("too large: WHAT: 16.0 GiB of host memory needed, more than half
 * of the 23.1 GiB available on this machine") when `bytes` of host buffers
 * are more than half of what the machine can spare: the least of
 * MemAvailable, what this cgroup's memory limit leaves, and what ulimit -v and
 * ulimit -d leave. Every path asks before it allocates host buffers. */
px_status rig_host_fits(uint64_t bytes, const char *what, char *err, size_t errlen);

#endif
