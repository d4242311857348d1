/* Shared by the kernel ABI v4 tests (emu_pack_unit.c, gpu_pack_unit.c):
 * hand-worked N-d permutations tiled for the pack kernels, their records
 * (abi_tdims_fill, abi_bdims_fill as the plan fills them), buffers and
 * reference. Header-only: each test is its own program. */
#ifndef TESTS_UNIT_PACK_CASE_H
#define TESTS_UNIT_PACK_CASE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/abi.h"

#define PK_POISON 0x5a
#define RANK_MAX 6

/* A permutation of a row-major tensor and how it is tiled: out dim j is in
 * dim perm[j]; the tile's dims (tdim, in the order given to abi_tdims_fill)
 * and their tile extents (text[k] < ext: split). */
typedef struct {
	const char *what;
	unsigned rank, ext[RANK_MAX], perm[RANK_MAX];
	unsigned nt, tdim[RANK_MAX], text[RANK_MAX];
	unsigned pad_out;     /* elements added to the output's slowest stride */
	unsigned misalign;    /* elements added to both pointers */
	const char *grid_max; /* PTXPOSE_GRID_MAX, or NULL */
} pk_case;

static const pk_case pk_cases[] = {
	{"1 tile dim, no split", 2, {5, 7}, {1, 0}, 1, {1}, {7}, 3, 0, NULL},
	{"2 tile dims, a batch dim between", 3, {6, 5, 3}, {2, 0, 1}, 2, {2, 0}, {3, 6}, 0, 1, "2x1x1"},
	{"3 tile dims, one split 8 of 29 (last 5)", 3, {29, 10, 4}, {2, 0, 1}, 3, {2, 0, 1}, {4, 8, 10}, 2, 0, "3x1x1"},
	{"6 tile dims, two splits 3 of 7 and 4 of 9", 6, {7, 3, 9, 2, 2, 3}, {2, 0, 5, 4, 1, 3}, 6, {2, 0, 1, 3, 4, 5},
	 {4, 3, 3, 2, 2, 3}, 1, 1, "4x1x1"},
	{"4 tile dims, two splits 4 of 10 and 5 of 13", 4, {10, 2, 13, 3}, {3, 1, 0, 2}, 4, {3, 0, 2, 1},
	 {3, 4, 5, 2}, 0, 0, NULL},
	{"5 tile dims of 6, reversed", 6, {3, 4, 2, 5, 3, 2}, {5, 4, 3, 2, 1, 0}, 5, {5, 4, 3, 1, 0}, {2, 3, 5, 4, 3},
	 5, 1, "1x1x1"},
	{"40x36x8 perm 2,1,0: splits 8 of 40 and 5 of 36", 3, {40, 36, 8}, {2, 1, 0}, 3, {0, 1, 2}, {8, 5, 8}, 0, 1,
	 "7x1x1"},
	{"a tile of 6, fewer than the threads", 2, {2, 3}, {1, 0}, 2, {0, 1}, {2, 3}, 1, 0, NULL},
	/* the pipeline (a block loads its next tile while it stores this one):
	 * blocks walking 2 and 3 tiles whose last is partial; one block walking
	 * 40 tiles, full and partial ones next to each other */
	{"split 4 of 29 (last 1): blocks walk 3, 3 and 2 tiles", 3, {29, 10, 4}, {2, 0, 1}, 3, {2, 0, 1}, {4, 4, 10}, 0,
	 0, "3x1x1"},
	{"40x36x8 perm 2,1,0: one block walks all 40 tiles", 3, {40, 36, 8}, {2, 1, 0}, 3, {0, 1, 2}, {8, 5, 8}, 1, 0,
	 "1x1x1"},
	/* vol 756: over 512 (pack_s_b32 skips it), the 4-slot walk of the
	 * 256-thread kernels (a kernel walks with the slots below vol only) */
	{"vol 756: split 9 of 50 (last 5), blocks walk 3 tiles", 3, {50, 12, 7}, {2, 0, 1}, 3, {2, 0, 1}, {7, 9, 12}, 0, 1,
	 "2x1x1"},
};

/* The case's tile's vol (a kernel of a smaller capacity skips the case). */
static inline unsigned pk_vol(const pk_case *c)
{
	unsigned v = 1;
	for (unsigned k = 0; k < c->nt; k++)
		v *= c->text[k];
	return v;
}

typedef struct {
	int64_t s_in[RANK_MAX], s_out[RANK_MAX];
	uint8_t tdims[ABI_TDIMS_BYTES], bdims[ABI_BDIMS_BYTES];
	uint32_t vol, batch;
	uint8_t *in, *ref, *out;
	size_t in_bytes, out_bytes;
} pk_data;

static uint64_t pk_rng;
static inline unsigned pk_rnd(unsigned n)
{
	pk_rng = pk_rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(pk_rng >> 33) % n;
}

/* The strides, the records, random input, the reference and the poisoned
 * output. 0, or -1 with why. */
static inline int pk_prepare(const pk_case *c, unsigned es, pk_data *d, char *why, size_t wlen)
{
	memset(d, 0, sizeof *d);
	uint64_t n_in = 1, n_out = 1;
	for (unsigned k = c->rank; k-- > 0;)
		d->s_in[k] = (int64_t)n_in, n_in *= c->ext[k];
	for (unsigned j = c->rank; j-- > 0;) {
		unsigned k = c->perm[j];
		d->s_out[k] = (int64_t)n_out;
		n_out *= c->ext[k];
	}
	d->s_out[c->perm[0]] += c->pad_out; /* a gap between the output's slowest slices */
	n_out = (uint64_t)d->s_out[c->perm[0]] * c->ext[c->perm[0]];
	/* the tile, then the batch: the other dims (slowest first), then the
	 * splits' outer dims, split 1 before split 0 so that split k is record k */
	abi_tdim t[RANK_MAX];
	uint64_t bext[ABI_BDIMS];
	int64_t bin[ABI_BDIMS], bout[ABI_BDIMS];
	unsigned nb = 0, in_tile[RANK_MAX] = {0}, split[2], nsplit = 0;
	for (unsigned k = 0; k < c->nt; k++) {
		unsigned dim = c->tdim[k];
		t[k] = (abi_tdim){c->text[k], c->ext[dim], d->s_in[dim], d->s_out[dim]};
		in_tile[dim] = 1;
		if (c->text[k] < c->ext[dim])
			split[nsplit++] = k;
	}
	for (unsigned dim = 0; dim < c->rank; dim++)
		if (!in_tile[dim])
			bext[nb] = c->ext[dim], bin[nb] = d->s_in[dim], bout[nb++] = d->s_out[dim];
	for (unsigned s = nsplit; s-- > 0;) {
		unsigned k = split[s], dim = c->tdim[k];
		bext[nb] = (c->ext[dim] + c->text[k] - 1) / c->text[k];
		bin[nb] = d->s_in[dim] * c->text[k], bout[nb++] = d->s_out[dim] * c->text[k];
	}
	char e[160];
	if (abi_tdims_fill(c->nt, t, es, d->tdims, &d->vol, e, sizeof e)) {
		snprintf(why, wlen, "abi_tdims_fill: %s", e);
		return -1;
	}
	if (abi_bdims_fill(nb, bext, bin, bout, d->bdims, &d->batch)) {
		snprintf(why, wlen, "abi_bdims_fill refused the case");
		return -1;
	}
	d->in_bytes = n_in * es, d->out_bytes = n_out * es;
	d->in = malloc(d->in_bytes), d->ref = malloc(d->out_bytes), d->out = malloc(d->out_bytes);
	if (!d->in || !d->ref || !d->out) {
		snprintf(why, wlen, "out of host memory");
		return -1;
	}
	pk_rng = es * 977u + c->rank * 31u + c->nt;
	for (size_t k = 0; k < d->in_bytes; k++)
		d->in[k] = (uint8_t)pk_rnd(256);
	memset(d->out, PK_POISON, d->out_bytes);
	memset(d->ref, PK_POISON, d->out_bytes);
	for (uint64_t i = 0; i < n_in; i++) { /* every input element, by its row-major index */
		uint64_t rest = i, oo = 0;
		for (unsigned k = c->rank; k-- > 0;)
			oo += rest % c->ext[k] * (uint64_t)d->s_out[k], rest /= c->ext[k];
		memcpy(d->ref + oo * es, d->in + i * es, es);
	}
	if (c->grid_max)
		setenv("PTXPOSE_GRID_MAX", c->grid_max, 1);
	else
		unsetenv("PTXPOSE_GRID_MAX");
	return 0;
}

static inline void pk_release(pk_data *d)
{
	free(d->in), free(d->ref), free(d->out);
	unsetenv("PTXPOSE_GRID_MAX");
}

/* 1 when out is the reference, else 0 with the first difference in why. */
static inline int pk_same(const pk_data *d, unsigned es, char *why, size_t wlen)
{
	size_t k = 0;
	while (k < d->out_bytes && d->out[k] == d->ref[k])
		k++;
	if (k == d->out_bytes)
		return 1;
	snprintf(why, wlen, "output byte %zu (element %zu) is 0x%02x, want 0x%02x", k, k / es, d->out[k], d->ref[k]);
	return 0;
}

/* A case whose tile is exactly the kernel's capacity C: 3 x (C/8) x 8,
 * perm 0,2,1, the last two dims whole (3 tiles, 2 blocks). */
static inline pk_case pk_full_case(unsigned C)
{
	pk_case c = {"a tile of the kernel's capacity", 3, {3, C / 8, 8}, {0, 2, 1}, 2, {2, 1}, {8, C / 8},
		     1, 1, "2x1x1"};
	return c;
}

#endif
