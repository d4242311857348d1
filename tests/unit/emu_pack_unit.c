/* Kernel ABI v4 in the emulator: every committed pack kernel (ptx/pack_*,
 * gen/tp_pack.c) on hand-worked N-d permutations, tiles filled with
 * abi_tdims_fill and batches with abi_bdims_fill as the plan does: 1 to 6
 * tile dims, 0, 1 and 2 split dims with partial last tiles, tiles below and
 * at the kernel's capacity, pointers one element off alignment, grids
 * capped (PTXPOSE_GRID_MAX) so that blocks walk several tiles. Random input;
 * the output poisoned and padded, compared bit-exactly with a reference by
 * loops over the whole buffer (a byte written where no element goes fails
 * too). Also: a v4 kernel without tdims, and a v3 kernel with them, are
 * refused. Prints TAP. */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "loader/abi.h"
#include "loader/pxfile.h"
#include "tests/unit/tap.h"

#define POISON 0x5a
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

static const pk_case cases[] = {
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
};

typedef struct {
	int64_t s_in[RANK_MAX], s_out[RANK_MAX];
	uint8_t tdims[ABI_TDIMS_BYTES], bdims[ABI_BDIMS_BYTES];
	uint32_t vol, batch;
	uint8_t *in, *ref, *out;
	size_t in_bytes, out_bytes;
} pk_data;

static uint64_t rng;
static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33) % n;
}

/* The strides, the records, random input, the reference and the poisoned
 * output. 0, or -1 with why. */
static int prepare(const pk_case *c, unsigned es, pk_data *d, char *why, size_t wlen)
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
	rng = es * 977u + c->rank * 31u + c->nt;
	for (size_t k = 0; k < d->in_bytes; k++)
		d->in[k] = (uint8_t)rnd(256);
	memset(d->out, POISON, d->out_bytes);
	memset(d->ref, POISON, d->out_bytes);
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

static void release(pk_data *d)
{
	free(d->in), free(d->ref), free(d->out);
	unsetenv("PTXPOSE_GRID_MAX");
}

/* One kernel on one case: 1, or 0 with why. misalign moves both of the
 * emulator's pointers off alignment by whole elements. */
static int run_case(const emu_prog *p, const px_meta *m, const pk_case *c, char *why, size_t wlen)
{
	unsigned es = m->elem_bits / 8;
	pk_data d;
	int good = 0;
	if (prepare(c, es, &d, why, wlen)) {
		release(&d);
		return 0;
	}
	if (d.vol > m->per_block) {
		snprintf(why, wlen, "the case's tile of %u is over the kernel's %llu", d.vol,
			 (unsigned long long)m->per_block);
		release(&d);
		return 0;
	}
	strbuf diag;
	sb_init(&diag);
	emu_launch l = {.in = d.in, .in_bytes = d.in_bytes, .out = d.out, .out_bytes = d.out_bytes, .rows = 1,
			.cols = 1, .ld_in = 1, .ld_out = 1, .batch = d.batch, .bdims = d.bdims, .tdims = d.tdims,
			.misalign = c->misalign * es};
	if (emu_prog_launch(p, m, &l, &diag) != EMU_OK) {
		snprintf(why, wlen, "emulator: %s", sb_str(&diag));
	} else {
		size_t k = 0;
		while (k < d.out_bytes && d.out[k] == d.ref[k])
			k++;
		good = k == d.out_bytes;
		if (!good)
			snprintf(why, wlen, "output byte %zu (element %zu) is 0x%02x, want 0x%02x", k, k / es, d.out[k],
				 d.ref[k]);
	}
	sb_free(&diag);
	release(&d);
	return good;
}

/* A case whose tile is exactly the kernel's capacity C: 3 x (C/8) x 8,
 * perm 0,2,1, the last two dims whole (3 tiles, 2 blocks). */
static pk_case full_case(unsigned C)
{
	pk_case c = {"a tile of the kernel's capacity", 3, {3, C / 8, 8}, {0, 2, 1}, 2, {2, 1}, {8, C / 8},
		     1, 1, "2x1x1"};
	return c;
}

static void run_kernel(const char *path, const char *ptx, const px_meta *m)
{
	emu_prog *p = NULL;
	strbuf d;
	sb_init(&d);
	if (emu_load(ptx, &p, &d) != EMU_OK) {
		ok(0, "%s: emu_load: %s", path, sb_str(&d));
		sb_free(&d);
		return;
	}
	size_t n = sizeof cases / sizeof cases[0];
	for (size_t k = 0; k <= n; k++) {
		pk_case full = full_case((unsigned)m->per_block);
		const pk_case *c = k < n ? &cases[k] : &full;
		char why[512] = "";
		int good = run_case(p, m, c, why, sizeof why);
		ok(good, "%s: %s, offset %u, grid %s%s%s", path, c->what, c->misalign, c->grid_max ? c->grid_max : "full",
		   why[0] ? ": " : "", why);
	}
	emu_free(p);
	sb_free(&d);
}

static int load(const char *path, px_file *f)
{
	char err[512];
	if (!px_file_load(f, path, err, sizeof err))
		return 0;
	ok(0, "%s", err);
	return -1;
}

/* Every committed pack kernel, each width. */
static void test_committed(void)
{
	glob_t g;
	unsigned widths = 0, n = 0;
	if (glob("ptx/pack_*.ptx", 0, NULL, &g)) {
		ok(0, "ptx/pack_*.ptx: no files (run from the source tree)");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		px_file f;
		if (load(g.gl_pathv[i], &f))
			continue;
		const char *abi = meta_get(&f.meta, "abi");
		if (ok(abi && !strcmp(abi, "4") && f.meta.grid == META_GRID_PACK, "%s: abi=4 grid=pack", g.gl_pathv[i])) {
			run_kernel(g.gl_pathv[i], f.ptx, &f.meta);
			widths |= f.meta.elem_bits, n++;
		}
		px_file_free(&f);
	}
	globfree(&g);
	ok(n >= 6 && widths == (8 | 16 | 32 | 64 | 128), "%u pack kernels, every width", n);
}

/* A v4 kernel without tdims, a v3 kernel with them: refused, nothing run. */
static void test_refusals(void)
{
	px_file f;
	uint8_t in[64] = {0}, out[64], td[ABI_TDIMS_BYTES] = {0};
	strbuf d;
	if (load("ptx/pack_b32.ptx", &f))
		return;
	emu_launch l = {.in = in, .in_bytes = sizeof in, .out = out, .out_bytes = sizeof out, .rows = 1, .cols = 1,
			.ld_in = 1, .ld_out = 1, .batch = 1};
	sb_init(&d);
	int rc = emu_transpose_launch(f.ptx, &f.meta, &l, &d);
	ok(rc == EMU_UNSUPPORTED && strstr(sb_str(&d), "kernel pack_b32 is kernel ABI v4: the launch has no tile dims"),
	   "a v4 kernel without tdims: EMU_UNSUPPORTED, '%s'", sb_str(&d));
	sb_free(&d);
	px_file_free(&f);
	if (load("ptx/fast_nd_b32.ptx", &f))
		return;
	l.rows = l.cols = l.ld_in = l.ld_out = 2, l.tdims = td;
	sb_init(&d);
	rc = emu_transpose_launch(f.ptx, &f.meta, &l, &d);
	ok(rc == EMU_UNSUPPORTED && strstr(sb_str(&d), "is kernel ABI v3: it takes no tile dims"),
	   "a v3 kernel with tdims: EMU_UNSUPPORTED, '%s'", sb_str(&d));
	sb_free(&d);
	px_file_free(&f);
}

int main(void)
{
	unsetenv("PTXPOSE_GRID_MAX");
	test_committed();
	test_refusals();
	return tap_done();
}
