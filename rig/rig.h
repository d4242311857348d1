/* rig: run transposes on random data, verify them bit-exactly on the host
 * and time them against the same-run copy.
 *
 *   prefix        file          concern
 *   rig_shape      shape*.c      shapes, leading dimensions, byte sizes, lists
 *   rig_host_fits  hostmem.c     what this machine's memory can hold
 *   vfy_          vfy*.c        fill, poison, reference transpose, compare (no CUDA)
 *   rig_op         op.c          what gets verified and timed: a kernel, the copy
 *   rig_ctx        rig*.c        buffers for one shape, verification, timing
 *   rig_geam       cublas.c      cuBLAS geam as a peer (libcublas opened at run time)
 *   rig_report     rig_report.c  bench.md and bench.csv
 *
 * Functions that can fail return a px_status and write a one-line reason into
 * err[errlen]. Nothing here exits, or prints but through the px_log a caller
 * passes. vfy_, rig_shape and rig_report_md/csv need no driver. */
#ifndef RIG_RIG_H
#define RIG_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "include/ptxpose.h"
#include "loader/cu.h"
#include "loader/meta.h"
#include "loader/status.h"

/* ---- shapes (shape.c) --------------------------------------------------- */

#define RIG_DIM_MAX 0x7fffffffu /* rows, cols, leading dimensions, batch */
#define RIG_STRIDE_MAX 0x7fffffffffffffffull /* batch strides (elements) */

typedef struct {
	uint64_t rows, cols;     /* the input is rows x cols */
	uint64_t ld_in, ld_out;  /* elements; 0 means cols (ld_in) or rows (ld_out) */
	unsigned elem_bits;      /* 8, 16, 32, 64, 128; 0 = any (a list entry without elem=) */
	unsigned offset;         /* both pointers this many elements past an aligned address (0-15) */
	uint64_t batch;          /* matrices, 1 to 2^31-1; 0 is refused (set it: 1 for one matrix) */
	uint64_t stride_in;      /* elements from one input matrix to the next; 0 means rows*ld_in */
	uint64_t stride_out;     /* ... output matrix; 0 means cols*ld_out. Both ignored for batch 1 */
} rig_shape;

/* Resolve default leading dimensions and strides, then check ranges, that
 * a batch stride holds its matrix (stride_in >= (rows-1)*ld_in + cols,
 * stride_out >= (cols-1)*ld_out + rows) and that the byte sizes fit in 64
 * bits and in size_t. PX_EUSAGE with a reason naming the value ("ld-in 31 is
 * less than cols 33", "batch 0 is out of range ...", "too large: ...").
 * Needs elem_bits. */
px_status rig_shape_check(rig_shape *s, char *err, size_t errlen);

/* Sizes of a checked shape. The input buffer holds batch matrices stride_in
 * apart, the last one rows x ld_in elements; the output cols x ld_out for the
 * last one (its ld_out padding included, the last row too). */
uint64_t rig_shape_in_bytes(const rig_shape *s);
uint64_t rig_shape_out_bytes(const rig_shape *s);
/* Bytes a transpose moves: batch*rows*cols*elem read plus as many written. */
uint64_t rig_shape_moved_bytes(const rig_shape *s);
unsigned rig_shape_elem_bytes(const rig_shape *s);

/* "67x129", "67x129 ld_in=132 ld_out=72", "33x31 batch=3 stride_in=1100"
 * (ld and strides shown only when not the default). */
const char *rig_shape_name(const rig_shape *s, char *buf, size_t len);

/* One entry: ROWSxCOLS[:ld_in=N][:ld_out=N][:elem=W][:offset=N]
 * [:batch=B][:stride_in=S][:stride_out=S] ("ld-in", "stride-in" also
 * accepted). Ranges and batch strides are checked, byte sizes are not (elem
 * may be unknown); an unknown key or one given twice (in any spelling) is
 * refused, with the entry quoted: "bad shape '3x3:ld_in=5:ld-in=6': ld-in
 * given twice". */
px_status rig_shape_parse(const char *text, rig_shape *s, char *err, size_t errlen);

/* A comma-separated list of entries into a malloc'd array; an empty entry
 * is refused. */
px_status rig_shape_list(const char *list, rig_shape **out, size_t *n, char *err, size_t errlen);

/* The shapes a command runs: *one when one->rows or one->cols is set
 * (--rows, --cols, --ld-in, --ld-out; its ranges and leading dimensions
 * checked as a list entry's are), else the list. A malloc'd array either way. */
px_status rig_shape_select(const char *list, const rig_shape *one, rig_shape **out, size_t *n,
			  char *err, size_t errlen);

/* PX_EUSAGE ("too large: WHAT: 16.0 GiB of host memory needed, more than half
 * of the 23.1 GiB available on this machine") when `bytes` of host buffers
 * are more than half of what the machine can spare: the least of
 * MemAvailable, what this cgroup's memory limit leaves, and what ulimit -v and
 * ulimit -d leave. Every path asks before it allocates host buffers. */
px_status rig_host_fits(uint64_t bytes, const char *what, char *err, size_t errlen);

/* ---- verification, pure C (vfy.c, vfy_cmp.c) ----------------------------- */

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
	/* bytes changed just outside out (rig guards; 0 on the host path) */
	uint64_t guard_hits;
	int64_t guard_first;  /* offset from out's start of the first: <0 before, >=out_bytes after */
} vfy_result;

/* Compare out against the transpose of in, bit-exactly, over all of out:
 * positions i >= rows in each row and the gaps that strides leave between
 * matrices must still hold the poison. PX_OK or PX_WRONG. */
px_status vfy_compare(const void *in, const void *out, const rig_shape *s, vfy_result *r);

/* "out[j=5][i=7]: got 0x3f800000, want 0x40000000 (12 of 1023 elements wrong)";
 * "out[b=2][j=5][i=7]: ..." for a batch. */
const char *vfy_describe(const vfy_result *r, const rig_shape *s, char *buf, size_t len);

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


/* ---- operations to verify and time (op.c) ------------------------------ */

/* One thing to run over a shape's buffers, enqueued on `stream` (the rig's
 * timing stream, or NULL: the default stream), so that the same op can be
 * captured into a CUDA graph. */
typedef struct {
	const char *name;   /* the kernel name, "copy", "cublas_geam" */
	px_status (*enqueue)(void *ud, px_stream stream, uint64_t in, uint64_t out, const rig_shape *s,
			     char *err, size_t errlen);
	void *ud;
	int finite_input;   /* it computes alpha*a + beta*b: feed it vfy_finite data */
	int is_transpose;   /* 0 for the copy: time it, never verify it */
	int copy_floor;     /* graph timing also times it outside the graph; the faster counts */
} rig_op;

/* A plan of the library (include/ptxpose.h), made for the shape it is run
 * on: ptxpose_execute on the rig's stream, so that graph timing captures
 * the library's call, as a program would make it. */
rig_op rig_op_plan(ptxpose_plan plan, const char *name);
/* cuMemcpyDtoDAsync of rows*cols*elem bytes from in to out: the bar. */
rig_op rig_op_copy(cu_ctx *cu);

/* The rig's status for one of the library's, and the library's last error
 * into err: a failed call's PX_ status. */
px_status rig_from_ptxpose(ptxpose_status st);
px_status rig_api_fail(ptxpose_status st, char *err, size_t errlen);

/* An internal assertion: PX_EUSAGE when meta_grid_dims refuses s (it gives
 * every checked shape a grid; only a bad PTXPOSE_GRID_MAX or an unchecked
 * shape is refused). */
px_status rig_launch_check(const px_meta *m, const rig_shape *s, char *err, size_t errlen);

/* ---- the rig: buffers, verification, timing (rig.c, rig_time.c) ---------- */

typedef struct rig_ctx rig_ctx;

/* How rig_time measures (docs/DESIGN.md, "Timing"):
 *
 * RIG_TIME_GRAPH (the default): warm-up calls back to back between two events
 * give a first estimate of a call; K = the calls that make one replay last
 * RIG_GRAPH_REPLAY_US (1 to RIG_GRAPH_MAX_CALLS) are captured on a
 * non-blocking stream into one CUDA graph; after RIG_GRAPH_WARM_REPLAYS
 * untimed replays, each of `iters` replays is timed between two events on
 * that stream; a call is the median replay / K. The L2 stays warm. An op that
 * cannot be captured (cuBLAS in some setups) is timed as K back-to-back calls
 * between two events instead, `iters` times, and rig_timing.note says why. An
 * op with copy_floor (the copy) is timed both ways and the faster counts: a
 * large memcpy node inside a graph ran slower than the same copy outside one.
 *
 * RIG_TIME_EVENTS: `warmup` calls, then for each of `iters` timed calls: record
 * an event, the call, record an event, wait for it; the median. Launch
 * overhead is counted. The only method that can empty the L2 before each
 * call (flush_l2): a flush inside a graph would be timed with the call. */
typedef enum { RIG_TIME_GRAPH, RIG_TIME_EVENTS } rig_time_method;

#define RIG_GRAPH_REPLAY_US 1000.0 /* one replay lasts at least this long ... */
#define RIG_GRAPH_MAX_CALLS 1000   /* ... with at most this many calls */
#define RIG_GRAPH_WARM_REPLAYS 3

typedef struct {
	rig_time_method method;
	int iters;     /* timed calls (events) or timed replays (graph); the median is reported */
	int warmup;    /* untimed calls first; with a graph they also estimate K */
	int flush_l2;  /* events only: overwrite a buffer of twice the L2 before each timed call */
} rig_time_opts;

/* How one op was measured in the end. */
typedef enum { RIG_HOW_EVENTS, RIG_HOW_GRAPH, RIG_HOW_BACK_TO_BACK } rig_time_how;

typedef struct {
	double median_us, min_us, max_us;  /* one call */
	int iters;          /* timed calls, replays, or runs of K back-to-back calls */
	int calls;          /* K: calls per timed replay or run (1 with events) */
	rig_time_how how;
	/* copy_floor ops timed with a graph: both figures (a call); median_us
	 * is the faster. 0 when not measured. */
	double graph_us, b2b_us;
	char note[320];     /* why not a graph, or which copy figure counts; "" */
} rig_timing;

/* o->method from a --time value ("graph", "events", or NULL: graph, but
 * events when flush_l2 asks for an emptied L2, which only per-call timing
 * can give) and o->flush_l2. PX_EUSAGE for another name, or for graph with
 * flush_l2. */
px_status rig_time_choose(const char *method, int flush_l2, rig_time_opts *o, char *err, size_t errlen);

/* "CUDA graph replay of K back-to-back calls, median of R replays, L2 warm"
 * and the like: the method of o, for headers (K left as K). */
const char *rig_time_method_text(const rig_time_opts *o, char *buf, size_t len);
/* "graph K=37", "back-to-back K=37", "events": how t was measured, short. */
const char *rig_time_how_text(const rig_timing *t, char *buf, size_t len);

px_status rig_new(cu_ctx *cu, rig_ctx **out, char *err, size_t errlen);
void rig_free(rig_ctx *r);

/* PX_EUSAGE ("too large for the device: ...") when s's buffers cannot be had
 * in device or host memory; the buffers the rig holds count as free. */
px_status rig_fits(rig_ctx *r, const rig_shape *s, char *err, size_t errlen);

/* Make buffers for checked shape s: device in and out (out between two
 * guards), host in filled from seed, host out. Reuses what fits. */
px_status rig_prepare(rig_ctx *r, const rig_shape *s, uint64_t seed, char *err, size_t errlen);

/* The device addresses ops get for the current shape: in, and out (past
 * its leading guard), each offset elements past the allocation's start. */
void rig_ptrs(const rig_ctx *r, uint64_t *in, uint64_t *out);

/* Upload the input, poison out and its guards, run op once, synchronize,
 * download, compare. PX_OK, PX_WRONG (res says where), or the failure. */
px_status rig_verify(rig_ctx *r, const rig_op *op, vfy_result *res, char *err, size_t errlen);

/* Time op on the rig's shape per rig_time_opts (see above). Every op
 * enqueued during a capture goes on the rig's stream; verification stays on
 * the default stream. */
px_status rig_time(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timing *t,
		      char *err, size_t errlen);

/* After cu_reset: forget the device and pinned buffers (they are gone). */
void rig_drop(rig_ctx *r);

/* GB/s for moving rig_shape_moved_bytes(s) in `us` microseconds. */
double rig_gbps(const rig_shape *s, double us);

/* ---- cuBLAS geam as a peer (cublas.c) ------------------------------------ */

typedef struct rig_geam rig_geam;

/* dlopen libcublas.so.13, .12 or libcublas.so and make a handle on the
 * current context. PX_EUNAVAIL when there is none. */
px_status rig_geam_open(cu_ctx *cu, rig_geam **out, char *err, size_t errlen);
void rig_geam_close(rig_geam *g);
/* 1 for 32 (Sgeam), 64 (Dgeam) and 128 (Zgeam) bit elements. */
int rig_geam_supports(unsigned elem_bits);
/* C = 1 * A^T + 0 * C, column-major, on the rig's buffers. */
rig_op rig_op_geam(rig_geam *g);
/* "libcublas.so.13 (version 130002)" */
const char *rig_geam_version(const rig_geam *g);

/* ---- bench tables (rig_report.c) ---------------------------------------------- */

typedef enum { RIG_ROW_OK, RIG_ROW_FAIL, RIG_ROW_SKIP, RIG_ROW_ERROR } rig_row_state;

typedef struct {
	char variant[128];
	rig_shape shape;       /* elem_bits set */
	rig_row_state state;
	char note[360];       /* why FAIL, SKIP or ERROR; how it was timed when not the usual way */
	double us, gbps, pct_copy;  /* pct_copy < 0 when there is no copy row */
	char timing[40];      /* rig_time_how_text: "graph K=37", "events" */
} rig_row;

typedef struct {
	char device[256];
	int sm_count;
	char driver[32];
	char date[32];        /* "2026-11-22 10:11:12 UTC" */
	char commit[64];
	rig_time_opts time;
	char extra[256];      /* one more header line, or "" */
} rig_report_head;

/* Device, SM count and driver from cu; the date now (UTC); the commit the
 * binary was built from (ver_commit, common/version.h). */
void rig_report_head_init(rig_report_head *h, cu_ctx *cu, const rig_time_opts *t);

void rig_report_md(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n);
void rig_report_csv(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n);

/* PX_EINPUT, naming it, when dir (or the nearest of its parents that exists,
 * as dir will be made) cannot take new files. Makes nothing. */
px_status rig_report_writable(const char *dir, char *err, size_t errlen);

/* Make dir (and its parents), then write dir/bench.md and dir/bench.csv,
 * both or neither, across a crash too (common/fstx.h). PX_EINPUT when that
 * cannot be done. */
px_status rig_report_write(const char *dir, const rig_report_head *h, const rig_row *rows, size_t n,
			  char *err, size_t errlen);

#endif

