/* rig_int: the rig's state, shared by rig.c and rig_time.c (internal). */
#ifndef LOADER_RIG_INT_H
#define LOADER_RIG_INT_H

#include "loader/loader.h"

#define RIG_GUARD (64u << 10) /* poisoned bytes before and after out, checked */

struct px_rig {
	cu_ctx *cu;
	px_shape s;          /* the current shape, checked */
	int have_shape;
	cu_buf d_in;         /* exactly the input */
	cu_buf d_out;        /* guard, out, guard */
	cu_host h_in, h_out; /* at least in and out */
	unsigned char *h_guard;
	uint64_t seed, filled; /* h_in holds bytes [0, filled) of seed's stream */
	int finite;            /* ... passed through vfy_finite */
	cu_buf flush;          /* overwritten before each timed call to empty the L2 */
};

#define RIG_SLACK 256u /* room for pointers offset from alignment (shape.offset) */

uint64_t rig_flush_bytes(const px_rig *r);

/* The kernel's `in` and `out`: offset.elements past the allocations'
 * aligned starts (out after its leading guard). */
static inline uint64_t rig_in_ptr(const px_rig *r)
{
	return r->d_in.ptr + (uint64_t)r->s.offset * px_shape_elem_bytes(&r->s);
}

static inline uint64_t rig_out_ptr(const px_rig *r)
{
	return r->d_out.ptr + RIG_GUARD + (uint64_t)r->s.offset * px_shape_elem_bytes(&r->s);
}

#endif
