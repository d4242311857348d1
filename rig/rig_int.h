/* rig_int: the rig's state, shared by rig.c, rig_time.c and rig_graph.c
 * (internal). */
#ifndef RIG_RIG_INT_H
#define RIG_RIG_INT_H

#include "rig/drv_api.h"
#include "rig/rig.h"

#define RIG_GUARD (64u << 10) /* poisoned bytes before and after out, checked */

struct rig_ctx {
	drv_ctx *drv;
	rig_shape s;          /* the current shape, checked */
	int have_shape;
	drv_buf d_in;         /* exactly the input */
	drv_buf d_out;        /* guard, out, guard */
	drv_host h_in, h_out; /* at least in and out */
	unsigned char *h_guard;
	uint64_t seed, filled; /* h_in holds bytes [0, filled) of seed's stream */
	int finite;            /* ... passed through vfy_finite */
	drv_buf flush;         /* overwritten before each timed call to empty the L2 */
	CUstream stream;       /* non-blocking, for graph timing; made on first use */
	unsigned stream_gen;   /* the context generation it belongs to */
};

#define RIG_SLACK 256u /* room for pointers offset from alignment (shape.offset) */

uint64_t rig_flush_bytes(const rig_ctx *r);

/* The stream graph timing captures and replays on (made once a context). */
px_status rig_stream(rig_ctx *r, CUstream *out, char *err, size_t errlen);
void rig_stream_free(rig_ctx *r);

/* Graph timing (rig_graph.c) of op per o into t. */
px_status rig_time_graph(rig_ctx *r, const rig_op *op, const rig_time_opts *o, rig_timing *t,
			 char *err, size_t errlen);

/* The median, min and max of us[0..n) (sorted in place) into t. */
void rig_stats(double *us, int n, rig_timing *t);

/* Two events on stream s (NULL: the default stream): start, stop (which
 * waits for the second event) and the microseconds between them. */
typedef struct {
	drv_ctx *drv;
	CUstream s;
	CUevent ev[2];
	int made;
} rig_timer;

px_status rig_timer_open(rig_timer *tm, drv_ctx *drv, CUstream s, char *err, size_t errlen);
px_status rig_timer_start(rig_timer *tm, char *err, size_t errlen);
px_status rig_timer_stop(rig_timer *tm, const char *what, double *us, char *err, size_t errlen);
void rig_timer_close(rig_timer *tm);

/* The kernel's `in` and `out`: offset.elements past the allocations'
 * aligned starts (out after its leading guard). */
static inline uint64_t rig_in_ptr(const rig_ctx *r)
{
	return r->d_in.ptr + (uint64_t)r->s.offset * rig_shape_elem_bytes(&r->s);
}

static inline uint64_t rig_out_ptr(const rig_ctx *r)
{
	return r->d_out.ptr + RIG_GUARD + (uint64_t)r->s.offset * rig_shape_elem_bytes(&r->s);
}

#endif
