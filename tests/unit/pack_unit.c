/* Unit tests for lib/nd_pack.c (the pack kernels' tile of an N-d
 * transpose): hand-worked tiles, the refusals, and for random problems a
 * host walk of the tile and its batch exactly as kernel ABI v4 states it
 * (loader/abi.h: the splits' tile index from the fastest batch records,
 * min(t, E - digit*t) of a split dim in its last tile) against a naive
 * permutation, the whole output compared with its poison. Prints TAP. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nd_pack.h"
#include "lib/nd_reduce.h"
#include "nd_naive.h"
#include "tap.h"

static char why[512], line[256];


static int choose(nd_problem p, nd_reduced *r, nd_pack *pk)
{
	if (nd_reduce(&p, r, line, sizeof line)) {
		snprintf(why, sizeof why, "nd_reduce: %s", line);
		return -1;
	}
	return nd_pack_choose(r, ND_PACK_CAP(r->p.elem_bytes), pk, why, sizeof why);
}


/* The tiles walked as a v4 kernel walks them: 0 when every element moved
 * once, in its place. */
static int walk(const nd_pack *pk, unsigned es, const unsigned char *in, unsigned char *out, unsigned char *seen)
{
	for (uint64_t t = 0; t < pk->tiles; t++) {
		uint64_t rest = t, bi = 0, bo = 0, dig[ABI_BDIMS] = {0};
		for (unsigned b = (unsigned)pk->nbatch; b-- > 0;) { /* fastest record first */
			uint64_t d = rest % pk->b_ext[b];
			rest /= pk->b_ext[b];
			dig[pk->nbatch - 1 - b] = d;
			bi += d * pk->b_in[b], bo += d * pk->b_out[b];
		}
		uint64_t lim[2] = {UINT64_MAX, UINT64_MAX};
		for (unsigned s = 0; s < pk->nsplit; s++) {
			uint64_t left = pk->full[s] - dig[s] * pk->ext[s];
			lim[s] = left < pk->ext[s] ? left : pk->ext[s];
		}
		for (uint64_t q = 0; q < pk->vol; q++) {
			uint64_t r = q, oi = bi, oo = bo;
			int valid = 1;
			for (unsigned j = 0; j < pk->n; j++) {
				uint64_t d = r % pk->ext[j];
				r /= pk->ext[j];
				oi += d * pk->s_in[j], oo += d * pk->s_out[j];
				if (j < pk->nsplit && d >= lim[j])
					valid = 0;
			}
			if (!valid)
				continue;
			if (seen[oo]++)
				return -1;
			memcpy(out + oo * es, in + oi * es, es);
		}
	}
	return 0;
}

/* The reduced problem's pack walk writes what the naive permutation of the
 * original writes. */
static int compare(const nd_problem *p, nd_pack *pk)
{
	nd_reduced r;
	if (choose(*p, &r, pk))
		return 1; /* no tile: not a failure of the walk; the caller counts it */
	uint64_t in_b, out_b;
	nd_spans(p, &in_b, &out_b);
	unsigned char *in = malloc(in_b), *a = malloc(out_b), *b = malloc(out_b), *seen = calloc(out_b, 1);
	for (uint64_t i = 0; i < in_b; i++)
		in[i] = (unsigned char)rnd(256);
	memset(a, 0xa5, out_b);
	memset(b, 0xa5, out_b);
	naive(p, in, a);
	int bad = walk(pk, r.p.elem_bytes, in, b, seen) || memcmp(a, b, out_b);
	free(in), free(a), free(b), free(seen);
	return bad ? -1 : 0;
}

static void hand_worked(void)
{
	nd_reduced r;
	nd_pack pk;
	/* [i][j][k] -> [k][j][i], 1024x1024x8 f32: k whole (8) and 4 of j make the
	 * input's 32-element runs, 32 of i the output's; then j doubles to fill
	 * the 2048 elements */
	int rc = choose(MK(4, L(1024, 1024, 8), L(2, 1, 0)), &r, &pk);
	ok(!rc && pk.n == 3 && pk.nsplit == 2 && pk.ext[0] == 32 && pk.full[0] == 1024 && pk.s_out[0] == 1 &&
	   pk.ext[1] == 8 && pk.full[1] == 1024 && pk.s_in[1] == 8 && pk.ext[2] == 8 && pk.vol == 2048 &&
	   pk.run_in == 64 && pk.run_out == 32 && pk.tiles == 32 * 128 && pk.nbatch == 2 && pk.b_ext[1] == 32 &&
	   pk.b_in[1] == 32 * 8192 && pk.b_ext[0] == 128 && pk.b_out[0] == 8 * 1024,
	   "1024x1024x8 f32 (2,1,0): tile 32(split i) x 8(split j) x 8, runs 64 and 32, 4096 tiles (%s)", why);
	/* a tensor-network shape in 16-byte elements: both fastest dims tiny,
	 * the tile grows by whole dims while tiles stay plenty */
	rc = choose(MK(16, L(29, 10, 36, 2, 4, 5), L(2, 0, 5, 4, 1, 3)), &r, &pk);
	ok(!rc && pk.vol <= 1024 && pk.run_in * 16 >= 128 && pk.run_out * 16 >= 128 && pk.nsplit <= 2 &&
	   pk.tiles * pk.vol >= 29 * 10 * 36 * 2 * 4 * 5,
	   "29x10x36x2x4x5 c128 (2,0,5,4,1,3): runs of 128 B or more on both sides (%s)", why);
	/* 1-byte elements: the 128-byte target would need a 16384-element
	 * tile; the targets fall until it fits 2048 */
	rc = choose(MK(1, L(4096, 4096), L(1, 0)), &r, &pk);
	ok(!rc && pk.vol <= 2048 && pk.run_in >= 32 && pk.run_out >= 32, "4096x4096 u8: runs of 32 B at least, the "
	   "tile within 2048 (%s)", why);
	/* the capacity the plan assumes is the largest pack kernel's of each width
	 * (per_block= in the committed ptx/pack_b*.ptx, from scripts/variants.lua) */
	int same = 1;
	for (unsigned es = 1; es <= 16; es *= 2) {
		char path[64], text[512];
		snprintf(path, sizeof path, "ptx/pack_b%u.ptx", 8 * es);
		FILE *f = fopen(path, "r");
		unsigned long pb = 0;
		while (f && fgets(text, sizeof text, f))
			if (strstr(text, "// ptxpose ") && strstr(text, "per_block="))
				pb = strtoul(strstr(text, "per_block=") + 10, NULL, 10);
		if (f)
			fclose(f);
		if (pb != ND_PACK_CAP(es))
			printf("# %s: per_block=%lu, ND_PACK_CAP(%u) = %u\n", path, pb, es, ND_PACK_CAP(es)), same = 0;
	}
	ok(same, "ND_PACK_CAP is each width's pack kernel's per_block (ptx/pack_b*.ptx)");
	/* which the plan prefers: a 2-D core side of at most 16 elements over a
	 * batch of 2 dims or more */
	choose(MK(16, L(29, 10, 36, 2, 4, 5), L(2, 0, 5, 4, 1, 3)), &r, &pk);
	int a = nd_pack_preferred(&r);
	choose(MK(4, L(256, 256, 256), L(2, 1, 0)), &r, &pk);
	int b = nd_pack_preferred(&r);
	choose(MK(2, L(6, 665, 1515), L(2, 1, 0)), &r, &pk);
	int c = nd_pack_preferred(&r);
	choose(MK(16, L(5, 55, 11, 6, 10), L(1, 4, 3, 0, 2)), &r, &pk);
	int e = nd_pack_preferred(&r);
	choose(MK(16, L(4, 40, 4265), L(0, 2, 1)), &r, &pk);
	int f = nd_pack_preferred(&r);
	ok(a && !b && !c && e && !f, "preferred: 2x5 and 11x10 c128 cores over batches of 4 and 3 dims; not 256x256 f32, "
	   "nor 6-row f16 or 40-row c128 ones over one batch dim or none (%d %d %d %d %d)", a, b, c, e, f);
	/* tiles that once were refused: dims taken whole overshot the
	 * capacity, 8 tile dims, a span grown past 2^31 bytes */
	int r8 = choose(MK(1, L(8, 8, 8, 8, 8, 8), L(5, 4, 3, 2, 1, 0)), &r, &pk);
	int r5 = choose(MK(1, L(5, 5, 5, 5, 5, 5), L(5, 4, 3, 2, 1, 0)), &r, &pk);
	int r2 = choose(MK(1, L(2, 2, 2, 2, 2, 2, 2, 2), L(7, 6, 5, 4, 3, 2, 1, 0)), &r, &pk);
	nd_problem wide = MK(4, L(64, 4, 8), L(2, 1, 0));
	wide.s_in[0] = 16777216, wide.s_in[1] = 4194304;
	int rw = choose(wide, &r, &pk);
	ok(!r8 && !r5 && !r2 && !rw, "8^6 and 5^6 u8 reversed, 2^8 u8 reversed, 64x4x8 f32 with 2^24-element strides: "
	   "each gets a tile (%d %d %d %d)", r8, r5, r2, rw);
	/* refusals */
	rc = choose(MK(4, L(8, 16, 32), L(1, 0, 2)), &r, &pk);
	int long_runs = !rc && !nd_pack_preferred(&r);
	rc = choose(MK(4, L(16, 4, 4), L(1, 0, 2)), &r, &pk);
	int short_runs = !rc && nd_pack_preferred(&r);
	choose(MK(4, L(8, 16, 4), L(1, 0, 2)), &r, &pk);
	ok(long_runs && short_runs && !nd_pack_preferred(&r),
	   "a tiled copy has a tile, preferred for runs of 16 bytes in rows of 4, not of 16 rows, nor of 128-byte runs");
	rc = choose(MK(4, L(8, 16, 32), L(0, 1, 2)), &r, &pk);
	ok(rc && strstr(why, "copy"), "a copy has no pack tile (%s)", why);
	/* the split's tiles are even: 100 in tiles of 34, 34, 32 (not 32, 32, 32, 4) */
	rc = choose(MK(4, L(100, 3, 8), L(2, 1, 0)), &r, &pk);
	int even = !rc;
	for (unsigned j = 0; j < pk.nsplit && even; j++)
		even = (pk.full[j] + pk.ext[j] - 1) / pk.ext[j] * pk.ext[j] - pk.full[j] < pk.ext[j] / 2 + 1;
	ok(even, "100x3x8 f32 (2,1,0): a split dim's last tile is at least half full (%s)", why);
	if (!even)
		for (unsigned j = 0; j < pk.nsplit; j++)
			printf("# split %u: %" PRIu64 " of %" PRIu64 "\n", j, pk.ext[j], pk.full[j]);
}

static void random_walks(void)
{
	unsigned n = 0, tiles = 0, splits = 0, bad = 0;
	for (unsigned t = 0; t < 400; t++) {
		nd_problem p = {.rank = 2 + (unsigned)rnd(7), .elem_bytes = 1u << rnd(5)};
		random_perm(p.perm, p.rank);
		uint64_t total = 1;
		for (unsigned k = 0; k < p.rank; k++) {
			uint64_t room = 6000 / total; /* at most 6000 elements */
			p.ext[k] = 1 + rnd(rnd(4) ? 9 : 300);
			p.ext[k] = p.ext[k] > room ? (room ? room : 1) : p.ext[k];
			total *= p.ext[k];
		}
		nd_fill_packed(&p);
		if (rnd(3) == 0) /* padded: the slowest dims' strides doubled, plus one */
			p.s_in[0] = 2 * p.s_in[0] + 1, p.s_out[0] = 2 * p.s_out[0] + 1;
		nd_pack pk;
		int rc = compare(&p, &pk);
		n++;
		tiles += rc == 0;
		splits += rc == 0 && pk.nsplit;
		if (rc < 0 && !bad++) {
			printf("# bad walk: rank %u, %u B, ext", p.rank, p.elem_bytes);
			for (unsigned k = 0; k < p.rank; k++)
				printf(" %" PRIu64, p.ext[k]);
			printf(", perm");
			for (unsigned k = 0; k < p.rank; k++)
				printf(" %u", p.perm[k]);
			printf(" (%s)\n", why);
		}
	}
	ok(!bad && tiles > n / 2 && splits > n / 10,
	   "random problems of ranks 2 to 8 (%u, %u with a tile, %u of them split): the tiles' walk moves every "
	   "element once, in its place", n, tiles, splits);
}

int main(void)
{
	rng = 0x2545f4914f6cdd1dull;
	hand_worked();
	random_walks();
	return tap_done();
}
