/* Shared by the kernel ABI v3 tests (emu_nd_unit.c, gpu_nd_unit.c): a
 * multi-dimensional batch of transposes, its buffers and its reference.
 * Batch dims are laid out in a random order on each side (the batch
 * permuted between in and out) with gaps; the input is random, the
 * reference output poisoned where no element goes, so a byte written there
 * fails too. Header-only: each test is its own program. */
#ifndef TESTS_UNIT_ND_CASE_H
#define TESTS_UNIT_ND_CASE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/abi.h"

#define ND_POISON 0x5a

typedef struct {
	unsigned nb;                        /* batch dims, slowest first */
	uint64_t ext[ABI_BDIMS];
	uint32_t rows, cols, pad_in, pad_out;
	unsigned misalign;                  /* elements added to both pointers */
	const char *grid_max;               /* PTXPOSE_GRID_MAX, or NULL: the loader's grid */
	unsigned seed;
	unsigned gap;                       /* gaps between matrices: multiples of this (elements) */
} nd_case;

typedef struct {
	uint32_t ld_in, ld_out, batch;
	int64_t s_in[ABI_BDIMS], s_out[ABI_BDIMS]; /* each batch dim's strides, slowest first */
	uint8_t bdims[ABI_BDIMS_BYTES];
	uint8_t *in, *ref, *out;            /* in_bytes, out_bytes, out_bytes (out poisoned, for the result) */
	size_t in_bytes, out_bytes;
} nd_data;

static uint64_t nd_rng;
static inline unsigned nd_rnd(unsigned n)
{
	nd_rng = nd_rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(nd_rng >> 33) % n;
}

/* Strides with gaps, the dims packed in a random order (fastest first);
 * returns the largest offset of a matrix's first element. */
static inline uint64_t nd_layout(const nd_case *c, uint64_t span, int64_t *s)
{
	unsigned order[ABI_BDIMS];
	for (unsigned k = 0; k < c->nb; k++)
		order[k] = k;
	for (unsigned k = c->nb; k > 1; k--) {
		unsigned j = nd_rnd(k), t = order[k - 1];
		order[k - 1] = order[j], order[j] = t;
	}
	uint64_t acc = span + c->gap * nd_rnd(4), last = 0;
	for (unsigned k = 0; k < c->nb; k++) {
		unsigned d = order[k];
		s[d] = (int64_t)acc;
		last += (c->ext[d] - 1) * acc;
		acc = acc * c->ext[d] + c->gap * nd_rnd(3);
	}
	return last;
}

/* The case's strides, records, random input, reference and poisoned
 * output for es-byte elements, and its PTXPOSE_GRID_MAX set (or unset).
 * 0, or -1 with why (nothing to free). */
static inline int nd_prepare(const nd_case *c, unsigned es, nd_data *d, char *why, size_t wlen)
{
	uint32_t rows = c->rows, cols = c->cols;
	memset(d, 0, sizeof *d);
	int64_t *sin = d->s_in, *sout = d->s_out;
	d->ld_in = cols + c->pad_in, d->ld_out = rows + c->pad_out;
	nd_rng = c->seed * 7919u + es;
	uint64_t in_n = nd_layout(c, (uint64_t)rows * d->ld_in, sin) + (uint64_t)(rows - 1) * d->ld_in + cols;
	uint64_t out_n = nd_layout(c, (uint64_t)cols * d->ld_out, sout) + (uint64_t)(cols - 1) * d->ld_out + rows;
	if (abi_bdims_fill(c->nb, c->ext, sin, sout, d->bdims, &d->batch)) {
		snprintf(why, wlen, "abi_bdims_fill refused the case");
		return -1;
	}
	d->in_bytes = in_n * es, d->out_bytes = out_n * es;
	d->in = malloc(d->in_bytes), d->ref = malloc(d->out_bytes), d->out = malloc(d->out_bytes);
	if (!d->in || !d->ref || !d->out) {
		free(d->in), free(d->ref), free(d->out);
		snprintf(why, wlen, "out of host memory");
		return -1;
	}
	memset(d->out, ND_POISON, d->out_bytes);
	if (c->grid_max)
		setenv("PTXPOSE_GRID_MAX", c->grid_max, 1);
	else
		unsetenv("PTXPOSE_GRID_MAX");
	for (size_t k = 0; k < d->in_bytes; k++)
		d->in[k] = (uint8_t)nd_rnd(256);
	memset(d->ref, ND_POISON, d->out_bytes);
	for (uint32_t b = 0; b < d->batch; b++) { /* row-major over the batch, by loops */
		uint64_t rest = b, oi = 0, oo = 0;
		for (unsigned k = c->nb; k-- > 0;) {
			uint64_t x = rest % c->ext[k];
			rest /= c->ext[k];
			oi += x * (uint64_t)sin[k], oo += x * (uint64_t)sout[k];
		}
		for (uint64_t i = 0; i < rows; i++)
			for (uint64_t j = 0; j < cols; j++)
				memcpy(d->ref + (oo + j * d->ld_out + i) * es, d->in + (oi + i * d->ld_in + j) * es, es);
	}
	return 0;
}

static inline void nd_free(nd_data *d)
{
	free(d->in), free(d->ref), free(d->out);
	d->in = d->ref = d->out = NULL;
	unsetenv("PTXPOSE_GRID_MAX");
}

/* 1 when d->out is the reference, else 0 with the first difference in why. */
static inline int nd_same(const nd_data *d, unsigned es, char *why, size_t wlen)
{
	const uint8_t *out = d->out;
	size_t k = 0;
	while (k < d->out_bytes && out[k] == d->ref[k])
		k++;
	if (k == d->out_bytes)
		return 1;
	snprintf(why, wlen, "output byte %zu (element %zu) is 0x%02x, want 0x%02x", k, k / es, out[k], d->ref[k]);
	return 0;
}

/* "2x1x3" */
static inline const char *nd_extents(const nd_case *c, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned i = 0, n = 0; i < c->nb && n < len; i++)
		n += (unsigned)snprintf(buf + n, len - n, "%s%llu", i ? "x" : "", (unsigned long long)c->ext[i]);
	return buf;
}

#endif
