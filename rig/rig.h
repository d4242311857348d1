/* rig: run transposes on random data, verify them bit-exactly on the host
 * and time them against the same-run copy.
 *
 *   header        prefix         file           concern
 *   shape.h       rig_shape      shape.c        shapes, leading dimensions, byte sizes, lists
 *                 rig_host_fits  hostmem.c      what this machine's memory can hold
 *   vfy.h         vfy_           vfy*.c         fill, poison, reference transpose, compare (no CUDA)
 *   op.h          rig_op         op.c           what gets verified and timed: a kernel, the copy
 *   rig.h         rig_           rig*.c         buffers for one shape, verification, timing (this file)
 *   geam.h        rig_geam       cublas.c       cuBLAS geam as a peer (libcublas opened at run time)
 *   rig_report.h  rig_report     rig_report.c   bench.md and bench.csv
 *   drv.h         drv_           drv*.c         the driver through ptxpose_driver_symbol: the
 *                                               context, device and pinned buffers, copies
 *
 * Functions that can fail return a px_status and write a one-line reason into
 * err[errlen]. Nothing here exits, or prints but through the px_log a caller
 * passes. vfy_, rig_shape and rig_report_md/csv need no driver. */
#ifndef RIG_RIG_H
#define RIG_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "include/ptxpose.h"
#include "loader/status.h"
#include "rig/drv.h"
#include "rig/op.h"
#include "rig/shape.h"
#include "rig/vfy.h"

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

px_status rig_new(drv_ctx *drv, rig_ctx **out, char *err, size_t errlen);
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

/* After drv_reset: forget the device and pinned buffers (they are gone). */
void rig_drop(rig_ctx *r);

/* GB/s for moving rig_shape_moved_bytes(s) in `us` microseconds. */
double rig_gbps(const rig_shape *s, double us);

#endif
