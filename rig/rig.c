/* rig: the buffers of one shape at a time on the device and the host, and
 * the bit-exact verification of one operation over them. Timing is in
 * rig_time.c. */
#include "rig/rig_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN (256ull << 20) /* device memory left for the context, modules, libraries */

px_status rig_new(drv_ctx *drv, rig_ctx **out, char *err, size_t errlen)
{
	*out = calloc(1, sizeof **out);
	if (!*out) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	(*out)->drv = drv;
	return PX_OK;
}

void rig_free(rig_ctx *r)
{
	if (!r)
		return;
	rig_drop(r);
	free(r->h_guard);
	free(r);
}

void rig_drop(rig_ctx *r)
{
	/* drv_free, drv_host_free and rig_stream_free skip what an older generation made */
	drv_free(r->drv, &r->d_in);
	drv_free(r->drv, &r->d_out);
	drv_free(r->drv, &r->flush);
	rig_stream_free(r);
	drv_host_free(r->drv, &r->h_in);
	drv_host_free(r->drv, &r->h_out);
	r->filled = 0;
	r->have_shape = 0;
}

uint64_t rig_flush_bytes(const rig_ctx *r)
{
	uint64_t l2 = (uint64_t)drv_device(r->drv)->l2_bytes;
	return 2 * l2 > (32ull << 20) ? 2 * l2 : (32ull << 20);
}

px_status rig_fits(rig_ctx *r, const rig_shape *s, char *err, size_t errlen)
{
	uint64_t in = rig_shape_in_bytes(s), out = rig_shape_out_bytes(s);
	uint64_t need = in + out + 2 * RIG_GUARD + 2 * RIG_SLACK + MARGIN + (r->flush.ptr ? 0 : rig_flush_bytes(r));
	uint64_t free_b, total_b;
	px_status st = drv_mem_info(r->drv, &free_b, &total_b, err, errlen);
	if (st)
		return st;
	uint64_t avail = free_b + r->d_in.bytes + r->d_out.bytes;
	char name[96], a[32], b[32], c[32];
	rig_shape_name(s, name, sizeof name);
	if (need > avail) {
		snprintf(err, errlen, "too large for the device: %s elem=%u needs %s, %s of %s are free", name,
			 rig_shape_elem_bits(s), px_bytes_str(need, a, sizeof a), px_bytes_str(avail, b, sizeof b),
			 px_bytes_str(total_b, c, sizeof c));
		return PX_EUSAGE;
	}
	char what[128];
	snprintf(what, sizeof what, "%s elem=%u", name, rig_shape_elem_bits(s));
	return rig_host_fits(rig_shape_host_bytes(s), what, err, errlen);
}

/* A device buffer of exactly `bytes` (reused when it already is). */
static px_status dev_exact(rig_ctx *r, drv_buf *b, uint64_t bytes, char *err, size_t errlen)
{
	if (b->ptr && b->bytes == bytes && b->gen == drv_generation(r->drv))
		return PX_OK;
	drv_free(r->drv, b);
	return drv_alloc(r->drv, b, bytes, err, errlen);
}

/* A host buffer of at least `bytes`. Returns 1 in *fresh when it is new. */
static px_status host_atleast(rig_ctx *r, drv_host *h, uint64_t bytes, int *fresh, char *err, size_t errlen)
{
	*fresh = 0;
	if (h->p && h->bytes >= bytes && (!h->pinned || h->gen == drv_generation(r->drv)))
		return PX_OK;
	drv_host_free(r->drv, h);
	*fresh = 1;
	return drv_host_alloc(r->drv, h, bytes, err, errlen);
}

/* h_in holds the input stream for seed, plain or made finite. */
static void ensure_input(rig_ctx *r, int finite)
{
	uint64_t bytes = rig_shape_in_bytes(&r->s);
	if (r->finite && !finite)
		r->filled = 0;
	if (r->filled < bytes) {
		vfy_fill_range(r->h_in.p, r->filled, bytes, r->seed);
		r->filled = bytes;
		r->finite = 0;
	}
	if (finite && !r->finite) {
		vfy_finite(r->h_in.p, r->filled, rig_shape_elem_bits(&r->s) == 32 ? 32 : 64);
		r->finite = 1;
	}
}

px_status rig_prepare(rig_ctx *r, const rig_shape *s, uint64_t seed, char *err, size_t errlen)
{
	uint64_t in = rig_shape_in_bytes(s), out = rig_shape_out_bytes(s);
	int fresh_in, fresh_out;
	px_status st;
	r->have_shape = 0;
	if ((st = dev_exact(r, &r->d_in, in + RIG_SLACK, err, errlen)) ||
	    (st = dev_exact(r, &r->d_out, out + 2 * RIG_GUARD + RIG_SLACK, err, errlen)) ||
	    (st = host_atleast(r, &r->h_in, in, &fresh_in, err, errlen)) ||
	    (st = host_atleast(r, &r->h_out, out, &fresh_out, err, errlen)))
		return st;
	if (!r->h_guard && !(r->h_guard = malloc(2 * RIG_GUARD))) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	if (fresh_in || seed != r->seed)
		r->filled = 0;
	r->seed = seed;
	r->s = *s;
	r->have_shape = 1;
	ensure_input(r, 0);
	char name[96], a[32], b[32];
	px_logf(drv_log(r->drv), "rig: %s elem=%u: input %s, output %s (+%u B guards each side), seed %llu",
		rig_shape_name(s, name, sizeof name), rig_shape_elem_bits(s), px_bytes_str(in, a, sizeof a),
		px_bytes_str(out, b, sizeof b), RIG_GUARD, (unsigned long long)seed);
	return PX_OK;
}

/* Non-poison bytes in the guards around out: count and first offset. */
static void scan_guards(const rig_ctx *r, vfy_result *res)
{
	uint64_t out = rig_shape_out_bytes(&r->s);
	for (uint64_t k = 0; k < 2 * RIG_GUARD; k++) {
		if (r->h_guard[k] == VFY_POISON)
			continue;
		if (!res->guard_hits++)
			res->guard_first = k < RIG_GUARD ? (int64_t)k - (int64_t)RIG_GUARD
							  : (int64_t)(out + (k - RIG_GUARD));
	}
}

px_status rig_verify(rig_ctx *r, const rig_op *op, vfy_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	if (!r->have_shape || !op->is_transpose) {
		snprintf(err, errlen, "%s", r->have_shape ? "only a transpose can be verified" : "rig_verify before rig_prepare");
		return PX_EUSAGE;
	}
	const rig_shape *s = &r->s;
	uint64_t in = rig_shape_in_bytes(s), out = rig_shape_out_bytes(s);
	uint64_t d_in = rig_in_ptr(r), d_out = rig_out_ptr(r);
	px_status st;
	ensure_input(r, op->finite_input);
	if ((st = drv_htod(r->drv, d_in, r->h_in.p, in, err, errlen)) ||
	    (st = drv_memset8(r->drv, r->d_out.ptr, VFY_POISON, r->d_out.bytes, err, errlen)) ||
	    (st = op->enqueue(op->ud, NULL, d_in, d_out, s, err, errlen)) ||
	    (st = drv_sync(r->drv, op->name, err, errlen)))
		return st;
	if ((st = drv_dtoh(r->drv, r->h_out.p, d_out, out, err, errlen)) ||
	    (st = drv_dtoh(r->drv, r->h_guard, d_out - RIG_GUARD, RIG_GUARD, err, errlen)) ||
	    (st = drv_dtoh(r->drv, r->h_guard + RIG_GUARD, d_out + out, RIG_GUARD, err, errlen)))
		return st;
	st = vfy_compare(r->h_in.p, r->h_out.p, s, res);
	if (st != PX_OK && st != PX_WRONG) {
		snprintf(err, errlen, "no host memory for the N-d reference (%llu bytes)", (unsigned long long)out);
		return st;
	}
	scan_guards(r, res);
	return res->guard_hits ? PX_WRONG : st;
}

void rig_ptrs(const rig_ctx *r, uint64_t *in, uint64_t *out)
{
	*in = rig_in_ptr(r);
	*out = rig_out_ptr(r);
}

double rig_gbps(const rig_shape *s, double us)
{
	return us > 0 ? (double)rig_shape_moved_bytes(s) / (us * 1e3) : 0;
}
