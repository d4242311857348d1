/* vfy: the host side of verification: random input, poisoned output, the
 * reference transpose, exact-size host buffers. No CUDA here. */
#include "rig/rig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"

#define GRAIN_WORDS (1u << 19) /* 4 MiB a thread at least */

/* splitmix64 of a counter: word w of the stream for seed. */
static uint64_t stream_word(uint64_t seed, uint64_t w)
{
	uint64_t z = seed + (w + 1) * 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* The word as bytes, least significant first, on any host. */
static void put_word(unsigned char *dst, uint64_t z, unsigned from, unsigned to)
{
	for (unsigned b = from; b < to; b++)
		dst[b - from] = (unsigned char)(z >> (8 * b));
}

typedef struct {
	unsigned char *buf;
	uint64_t seed;
} fill_job;

/* Whole words [lo, hi) of the stream into buf at 8*w. */
static void fill_words(void *ctx, uint64_t lo, uint64_t hi, int part)
{
	(void)part;
	fill_job *j = ctx;
	for (uint64_t w = lo; w < hi; w++) {
		uint64_t z = stream_word(j->seed, w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		z = __builtin_bswap64(z);
#endif
		memcpy(j->buf + 8 * w, &z, 8);
	}
}

void vfy_fill_range(void *buf, uint64_t from, uint64_t to, uint64_t seed)
{
	unsigned char *b = buf;
	if (from >= to)
		return;
	uint64_t w0 = (from + 7) / 8, w1 = to / 8;
	if (w0 > w1) { /* inside one word */
		put_word(b + from, stream_word(seed, from / 8), (unsigned)(from % 8), (unsigned)(to % 8));
		return;
	}
	if (from % 8)
		put_word(b + from, stream_word(seed, from / 8), (unsigned)(from % 8), 8);
	if (to % 8)
		put_word(b + 8 * w1, stream_word(seed, w1), 0, (unsigned)(to % 8));
	fill_job j = {b, seed};
	/* shift so that part w of the job writes word w0 + w */
	j.buf = b + 8 * w0;
	j.seed = seed + w0 * 0x9E3779B97F4A7C15ull; /* stream_word(seed, w0 + w) == stream_word(seed', w) */
	pool_for(w1 - w0, GRAIN_WORDS, fill_words, &j);
}

void vfy_fill(void *buf, uint64_t bytes, uint64_t seed)
{
	vfy_fill_range(buf, 0, bytes, seed);
}

void vfy_poison(void *buf, uint64_t bytes)
{
	memset(buf, VFY_POISON, bytes);
}

typedef struct {
	unsigned char *buf;
	unsigned lane_bytes;
} finite_job;

static void finite_lanes(void *ctx, uint64_t lo, uint64_t hi, int part)
{
	(void)part;
	finite_job *j = ctx;
	for (uint64_t k = lo; k < hi; k++) {
		unsigned char *p = j->buf + k * j->lane_bytes;
		if (j->lane_bytes == 4) {
			uint32_t v, e;
			memcpy(&v, p, 4);
			e = v & 0x7F800000u;
			if (e == 0 || e == 0x7F800000u)
				v ^= 0x40000000u;
			memcpy(p, &v, 4);
		} else {
			uint64_t v, e;
			memcpy(&v, p, 8);
			e = v & 0x7FF0000000000000ull;
			if (e == 0 || e == 0x7FF0000000000000ull)
				v ^= 0x4000000000000000ull;
			memcpy(p, &v, 8);
		}
	}
}

void vfy_finite(void *buf, uint64_t bytes, unsigned lane_bits)
{
	finite_job j = {buf, lane_bits == 64 ? 8 : 4};
	pool_for(bytes / j.lane_bytes, GRAIN_WORDS, finite_lanes, &j);
}

#define TB 64 /* the reference's tile, in elements */

void vfy_transpose(const void *in, void *out, const rig_shape *s)
{
	unsigned eb = rig_shape_elem_bytes(s);
	for (uint64_t b = 0; b < s->p.batch; b++) {
		const unsigned char *src = (const unsigned char *)in + b * s->p.stride_in * eb;
		unsigned char *dst = (unsigned char *)out + b * s->p.stride_out * eb;
		for (uint64_t ib = 0; ib < s->p.rows; ib += TB)
			for (uint64_t jb = 0; jb < s->p.cols; jb += TB)
				for (uint64_t i = ib; i < ib + TB && i < s->p.rows; i++)
					for (uint64_t j = jb; j < jb + TB && j < s->p.cols; j++)
						memcpy(dst + (j * s->p.ld_out + i) * eb, src + (i * s->p.ld_in + j) * eb, eb);
	}
}

px_status vfy_bufs_prepare(vfy_bufs *b, const rig_shape *s, uint64_t seed, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	b->in_bytes = rig_shape_in_bytes(s);
	b->out_bytes = rig_shape_out_bytes(s);
	b->in = malloc(b->in_bytes);
	b->out = malloc(b->out_bytes);
	if (!b->in || !b->out) {
		char a[32], c[32];
		snprintf(err, errlen, "cannot allocate %s + %s of host memory",
			 px_bytes_str(b->in_bytes, a, sizeof a), px_bytes_str(b->out_bytes, c, sizeof c));
		vfy_bufs_free(b);
		return PX_ENOMEM;
	}
	vfy_fill(b->in, b->in_bytes, seed);
	vfy_poison(b->out, b->out_bytes);
	return PX_OK;
}

void vfy_bufs_free(vfy_bufs *b)
{
	free(b->in);
	free(b->out);
	memset(b, 0, sizeof *b);
}

px_status vfy_host_case(const rig_shape *s, uint64_t seed, vfy_runner run, void *ud,
			vfy_result *res, char *err, size_t errlen)
{
	vfy_bufs b;
	memset(res, 0, sizeof *res);
	px_status st = vfy_bufs_prepare(&b, s, seed, err, errlen);
	if (st)
		return st;
	if (run(ud, &b, s)) {
		snprintf(err, errlen, "the host runner failed");
		st = PX_EUNAVAIL;
	} else if ((st = vfy_compare(b.in, b.out, s, res)) != PX_OK && st != PX_WRONG) {
		snprintf(err, errlen, "no host memory for the N-d reference (%llu bytes)", (unsigned long long)b.out_bytes);
	}
	vfy_bufs_free(&b);
	return st;
}
