/* Unit tests for lib/nd_check.c, lib/nd_reduce.c (the N-d problem's checks,
 * reduction and classification) and rig/nd_ref.c (its host reference).
 * Prints TAP. The reference is checked against a naive index loop; each
 * reduction against the reference (the reduced problem, run through it on
 * the same buffers, must write the same bytes as the original). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/model.h"
#include "lib/nd_reduce.h"
#include "rig/nd_ref.h"
#include "nd_naive.h"
#include "tap.h"

static char err[768], why[256];



/* What the compared problems reduced to: merged, folded, each class. */
static unsigned seen_merged, seen_folded, seen_cls[4];

static const char *seen(void)
{
	static char buf[160];
	snprintf(buf, sizeof buf, "%u merged, %u folded; %u copies, %u transposes, %u tiled copies, %u small", seen_merged,
		 seen_folded, seen_cls[ND_COPY], seen_cls[ND_TRANSPOSE], seen_cls[ND_TILED_COPY], seen_cls[ND_SMALL]);
	memset(seen_cls, 0, sizeof seen_cls);
	seen_merged = seen_folded = 0;
	return buf;
}

/* Compare, on random input and poisoned outputs: ndref with the naive loop,
 * and the reduced problem through ndref with the original. 0, or -1 with
 * the reason in err. */
static int compare(const nd_problem *p)
{
	uint64_t ib, ob;
	if (nd_spans(p, &ib, &ob)) {
		nd_check(p, err, sizeof err);
		return -1;
	}
	nd_reduced r;
	if (nd_reduce(p, &r, why, sizeof why)) {
		snprintf(err, sizeof err, "nd_reduce refused: %s", why);
		return -1;
	}
	seen_merged += r.merged_from > r.p.rank + !!r.folded;
	seen_folded += r.folded > 0;
	seen_cls[r.cls]++;
	unsigned char *in = malloc(ib), *a = malloc(ob), *b = malloc(ob), *c = malloc(ob);
	for (uint64_t i = 0; i < ib; i++)
		in[i] = (unsigned char)rnd(256);
	memset(a, 0xa5, ob), memset(b, 0xa5, ob), memset(c, 0xa5, ob);
	naive(p, in, a);
	int rc = -1;
	uint64_t rib, rob, n0 = 1, n1 = 1;
	for (unsigned k = 0; k < p->rank; k++)
		n0 *= p->ext[k];
	for (unsigned k = 0; k < r.p.rank; k++)
		n1 *= r.p.ext[k];
	if (ndref_permute(p, in, b))
		snprintf(err, sizeof err, "ndref_permute refused the problem");
	else if (memcmp(a, b, ob))
		snprintf(err, sizeof err, "ndref_permute differs from the naive loop");
	else if (nd_check(&r.p, err, sizeof err))
		;
	else if (nd_spans(&r.p, &rib, &rob) || rib > ib || rob > ob)
		snprintf(err, sizeof err, "the reduced spans %" PRIu64 ", %" PRIu64 " pass the original's", rib, rob);
	else if (r.p.rank > p->rank || n0 * p->elem_bytes != n1 * r.p.elem_bytes)
		snprintf(err, sizeof err, "the reduced problem moves other bytes or has a higher rank (%s)", why);
	else if (ndref_permute(&r.p, in, c) || memcmp(a, c, ob))
		snprintf(err, sizeof err, "the reduced problem writes other bytes (%s)", why);
	else
		rc = 0;
	free(in), free(a), free(b), free(c);
	return rc;
}

static void show(const nd_problem *p)
{
	printf("#   rank %u es %u:", p->rank, p->elem_bytes);
	for (unsigned k = 0; k < p->rank; k++)
		printf(" [ext %" PRIu64 " perm %u s_in %" PRId64 " s_out %" PRId64 "]", p->ext[k], p->perm[k], p->s_in[k],
		       p->s_out[k]);
	printf(" align %u %u\n#   %s\n", p->align_in, p->align_out, err);
}

/* Random padded strides (or packed), sometimes an input broadcast. */
static void random_strides(nd_problem *p)
{
	nd_fill_packed(p);
	if (rnd(3) == 0)
		return;
	uint64_t si = 1 + rnd(2), so = 1 + rnd(2);
	for (unsigned k = p->rank; k-- > 0;) {
		p->s_in[k] = (int64_t)si;
		si = si * p->ext[k] + rnd(3);
	}
	for (unsigned k = p->rank; k-- > 0;) {
		p->s_out[k] = (int64_t)so;
		so = so * p->ext[p->perm[k]] + rnd(3);
	}
	if (rnd(4) == 0)
		p->s_in[rnd(p->rank)] = 0;
}

/* Every permutation of 0..r-1 in turn: 0 past the last. */
static int next_perm(unsigned *a, unsigned n)
{
	unsigned i = n - 1;
	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (!i)
		return 0;
	unsigned j = n - 1;
	while (a[j] <= a[i - 1])
		j--;
	unsigned t = a[i - 1];
	a[i - 1] = a[j], a[j] = t;
	for (unsigned l = i, h = n - 1; l < h; l++, h--)
		t = a[l], a[l] = a[h], a[h] = t;
	return 1;
}

static void every_perm(unsigned r)
{
	static const uint64_t exts[][4] = {{2, 2, 2, 2}, {3, 1, 4, 2}, {1, 5, 2, 3}, {2, 3, 1, 1}, {4, 2, 3, 2}};
	static const unsigned widths[] = {1, 2, 4, 16};
	unsigned perm[4] = {0, 1, 2, 3}, n = 0, bad = 0;
	do {
		for (unsigned e = 0; e < sizeof exts / sizeof exts[0]; e++)
			for (unsigned w = 0; w < 4; w++)
				for (unsigned s = 0; s < 3; s++) {
					nd_problem p = mk(r, widths[w], exts[e], perm);
					if (s == 1)
						random_strides(&p);
					if (s == 2) /* folds allowed */
						p.align_in = p.align_out = 16;
					n++;
					if (compare(&p) && !bad++)
						show(&p);
				}
	} while (next_perm(perm, r));
	ok(!bad, "every permutation of rank %u (%u problems, packed, strided, 16-byte aligned): reference = naive, "
	   "reduced = original (%s)", r, n, seen());
}

static void random_ranks(void)
{
	unsigned n = 0, bad = 0;
	for (unsigned r = 5; r <= 8; r++)
		for (unsigned t = 0; t < 150; t++) {
			nd_problem p = {.rank = r, .elem_bytes = 1u << rnd(5)};
			random_perm(p.perm, r);
			uint64_t total = 1;
			for (unsigned k = 0; k < r; k++) {
				p.ext[k] = total > 512 ? 1 : 1 + rnd(4);
				total *= p.ext[k];
			}
			random_strides(&p);
			if (rnd(3) == 0)
				p.align_in = p.align_out = 16;
			n++;
			if (compare(&p) && !bad++)
				show(&p);
		}
	ok(!bad, "random permutations of ranks 5 to 8 (%u problems): reference = naive, reduced = original (%s)", n,
	   seen());
}

static nd_reduced red(nd_problem p)
{
	nd_reduced r;
	if (nd_reduce(&p, &r, why, sizeof why))
		printf("# nd_reduce: %s\n", why);
	return r;
}

/* The 2-D path's problem (lib/model.h, its defaults filled by its one
 * check) as an N-d one, reduced: the same rows, cols, lds and batch. */
static void same_as_2d(model_problem m)
{
	if (model_problem_check(&m, err, sizeof err)) {
		ok(0, "model_problem_check: %s", err);
		return;
	}
	nd_problem p = {.rank = 3, .elem_bytes = m.es, .ext = {m.batch, m.rows, m.cols}, .perm = {0, 2, 1},
			.s_in = {(int64_t)m.stride_in, (int64_t)m.ld_in, 1},
			.s_out = {(int64_t)m.stride_out, (int64_t)m.ld_out, 1}};
	nd_reduced r = red(p);
	int one = m.batch == 1;
	ok(r.cls == ND_TRANSPOSE && r.rows == m.rows && r.cols == m.cols && r.ld_in == (int64_t)m.ld_in &&
	   r.ld_out == (int64_t)m.ld_out && r.inner_in == 1 && r.inner_out == 1 && r.nbatch == !one &&
	   (one || (r.batch[0].ext == m.batch && r.batch[0].s_in == (int64_t)m.stride_in &&
		    r.batch[0].s_out == (int64_t)m.stride_out)) && r.p.elem_bytes == m.es,
	   "2-D %" PRIu64 "x%" PRIu64 " ld %" PRIu64 ",%" PRIu64 " batch %" PRIu64 " strides %" PRIu64 ",%" PRIu64
	   ": the 2-D description (%s)", m.rows, m.cols, m.ld_in, m.ld_out, m.batch, m.stride_in, m.stride_out, why);
	if (one) { /* and as rank 2 */
		nd_problem q = {.rank = 2, .elem_bytes = m.es, .ext = {m.rows, m.cols}, .perm = {1, 0},
				.s_in = {(int64_t)m.ld_in, 1}, .s_out = {(int64_t)m.ld_out, 1}};
		nd_reduced s = red(q);
		ok(s.cls == r.cls && s.rows == r.rows && s.cols == r.cols && s.ld_in == r.ld_in && s.ld_out == r.ld_out &&
		   !s.nbatch, "  ... and as rank 2");
	}
}

static void reductions(void)
{
	same_as_2d((model_problem){.es = 4, .rows = 96, .cols = 8192});
	same_as_2d((model_problem){.es = 1, .rows = 67, .cols = 129, .ld_in = 132, .ld_out = 72});
	same_as_2d((model_problem){.es = 2, .rows = 33, .cols = 31, .batch = 3});
	same_as_2d((model_problem){.es = 16, .rows = 33, .cols = 31, .ld_in = 40, .batch = 5, .stride_in = 1500,
				   .stride_out = 1300});
	same_as_2d((model_problem){.es = 8, .rows = 1000, .cols = 9, .batch = 2});

	nd_reduced r = red(MK(4, L(1, 64, 1, 32), L(2, 3, 0, 1)));
	ok(r.cls == ND_TRANSPOSE && r.dropped == 2 && r.p.rank == 2 && r.rows == 64 && r.cols == 32 && r.ld_in == 32 &&
	   r.ld_out == 64 && !r.nbatch, "extent-1 dims dropped: a 64x32 transpose");
	is_str(why, "dropped 2 extent-1 dims, transpose 64x32", "  ... why says so");

	r = red(MK(4, L(4, 5, 6, 7), L(2, 3, 0, 1)));
	ok(r.cls == ND_TRANSPOSE && r.p.rank == 2 && r.rows == 20 && r.cols == 42 && r.ld_in == 42 && r.ld_out == 20,
	   "(4,5,6,7) perm 2,3,0,1 merges to a 20x42 transpose");
	is_str(why, "merged 4 dims to 2, transpose 20x42", "  ... why says so");

	/* the header's example: b, r, c1, c2 and a preserved 2x2B */
	nd_problem p = MK(2, L(3, 96, 64, 128, 2), L(0, 2, 3, 1, 4));
	p.align_in = p.align_out = 4;
	r = red(p);
	ok(r.cls == ND_TRANSPOSE && r.p.elem_bytes == 4 && r.folded == 2 && r.rows == 96 && r.cols == 8192 &&
	   r.ld_in == 8192 && r.ld_out == 96 && r.nbatch == 1 && r.batch[0].ext == 3 &&
	   r.batch[0].s_in == 96 * 8192 && r.batch[0].s_out == 96 * 8192,
	   "a preserved 2x2B folds into 4B: a 96x8192 transpose, batch 3");
	is_str(why, "merged 5 dims to 4, folded 2x2B into 4B, transpose 96x8192 batch [3]", "  ... why says so");
	char desc[1024];
	nd_reduced_describe(&r, desc, sizeof desc);
	is_str(desc,
	       "reduced: 3x96x8192 perm 0,2,1, 4B elements (from rank 5, 2B)\n"
	       "strides: in 786432,8192,1, out 786432,96,1 (elements; align in 4B, out 4B)\n"
	       "class: transpose, rows 96 cols 8192 ld_in 8192 ld_out 96 inner_in 1 inner_out 1; batch [3: s_in 786432 "
	       "s_out 786432]\n", "  ... and nd_reduced_describe");
	p.align_in = 2;
	r = red(p);
	ok(r.cls == ND_TILED_COPY && r.p.elem_bytes == 2 && !r.folded && r.run.ext == 2 && r.nbatch == 3,
	   "  ... not with align_in 2: a tiled copy of runs of 2 (%s)", why);
	p.align_in = 4, p.s_in[0] = 96 * 64 * 128 * 2 + 1, p.s_in[1] = 64 * 128 * 2, p.s_in[2] = 128 * 2;
	p.s_in[3] = 2, p.s_in[4] = 1;
	r = red(p);
	ok(r.cls == ND_TILED_COPY && !r.folded, "  ... nor with an odd batch stride (%s)", why);
	p = (nd_problem){.rank = 2, .elem_bytes = 4, .ext = {5, 2}, .perm = {0, 1}, .s_in = {4, 1}, .s_out = {2, 1},
			 .align_in = 8, .align_out = 8};
	r = red(p);
	ok(r.cls == ND_COPY && !r.contiguous && r.run.ext == 5 && r.run.s_in == 2 && r.run.s_out == 1 &&
	   r.p.elem_bytes == 8 && r.folded == 2, "runs of 2x4B, 8-byte aligned: a strided copy of 5 8B elements");
	is_str(why, "folded 2x4B into 8B, strided copy of 5 elements", "  ... why says so");

	r = red(MK(2, L(2, 128, 12, 64), L(0, 2, 1, 3)));
	ok(r.cls == ND_TILED_COPY && r.run.ext == 64 && r.nbatch == 3 && r.batch[1].ext == 128 &&
	   r.batch[1].s_in == 768 && r.batch[1].s_out == 64 && r.batch[2].ext == 12 && r.batch[2].s_in == 64 &&
	   r.batch[2].s_out == 8192, "attention heads [2,128,12,64] perm 0,2,1,3: a tiled copy of runs of 64 (%s)", why);
	r = red(MK(4, L(8, 3, 224, 224), L(0, 2, 3, 1)));
	ok(r.cls == ND_TRANSPOSE && r.rows == 3 && r.cols == 50176 && r.ld_in == 50176 && r.ld_out == 3 && r.nbatch == 1 && r.batch[0].ext == 8,
	   "NCHW to NHWC: a 3x50176 transpose, batch 8 (%s)", why);
	r = red(MK(4, L(8, 3, 224), L(2, 1, 0)));
	ok(r.cls == ND_TRANSPOSE && r.nbatch == 1 && r.batch[0].ext == 3 && r.rows == 8 && r.cols == 224,
	   "a 3-D reversal (2,1,0): transpose 8x224 batch 3 (%s)", why);

	r = red(MK(4, L(4, 1, 6), L(1, 0, 2)));
	ok(r.cls == ND_COPY && r.contiguous && r.run.ext == 24 && r.p.rank == 1, "(4,1,6) perm 1,0,2: a copy of 24 (%s)",
	   why);
	is_str(why, "dropped 1 extent-1 dim, merged 2 dims to 1, contiguous copy of 24 elements", "  ... why says so");
	r = red(MK(1, L(1, 1, 1), L(2, 0, 1)));
	ok(r.cls == ND_COPY && r.contiguous && r.run.ext == 1 && r.p.rank == 1 && r.p.ext[0] == 1,
	   "all extents 1: a copy of one element");
	p = (nd_problem){.rank = 2, .elem_bytes = 4, .ext = {3, 100}, .perm = {1, 0}, .s_in = {1, 3}, .s_out = {3, 1}};
	r = red(p);
	ok(r.cls == ND_COPY && r.contiguous && r.run.ext == 300, "a column-major input transposed: a copy of 300 (%s)",
	   why);
	p = (nd_problem){.rank = 1, .elem_bytes = 4, .ext = {10}, .perm = {0}, .s_in = {3}, .s_out = {2}};
	r = red(p);
	ok(r.cls == ND_COPY && !r.contiguous && r.run.s_in == 3 && r.run.s_out == 2, "a strided copy (%s)", why);
	p = (nd_problem){.rank = 2, .elem_bytes = 4, .ext = {5, 7}, .perm = {0, 1}, .s_in = {10, 1}, .s_out = {8, 1}};
	r = red(p);
	ok(r.cls == ND_TILED_COPY && r.contiguous && r.run.ext == 7 && r.nbatch == 1 && r.batch[0].ext == 5 &&
	   r.batch[0].s_in == 10 && r.batch[0].s_out == 8, "a padded identity: a tiled copy of runs of 7 (%s)", why);
	/* one operation written with its input dims in either order (the input
	 * strides tie): one canonical reduced problem */
	p = (nd_problem){.rank = 2, .elem_bytes = 4, .ext = {2, 3}, .perm = {1, 0}, .s_in = {1, 1}, .s_out = {2, 1}};
	nd_problem p2 = {.rank = 2, .elem_bytes = 4, .ext = {3, 2}, .perm = {0, 1}, .s_in = {1, 1}, .s_out = {2, 1}};
	r = red(p);
	nd_reduced r2 = red(p2);
	ok(!memcmp(&r.p, &r2.p, sizeof r.p) && r.p.ext[0] == 3, "input strides that tie: one canonical order (%s)", why);
	r = red(MK(4, L(4, 8), L(1, 0)));
	ok(r.cls == ND_SMALL && r.rows == 4 && r.cols == 8 && r.ld_in == 8 && r.ld_out == 4, "4x8: small (%s)", why);
	r = red(MK(4, L(1000, 3, 5), L(0, 2, 1)));
	ok(r.cls == ND_SMALL && r.rows == 3 && r.cols == 5 && r.nbatch == 1 && r.batch[0].ext == 1000,
	   "1000 3x5 matrices: small, with the transpose's description (%s)", why);
	r = red(MK(4, L(9, 8), L(1, 0)));
	ok(r.cls == ND_TRANSPOSE, "9x8: not small (%s)", why);
	p = (nd_problem){.rank = 2, .elem_bytes = 4, .ext = {40, 100}, .perm = {1, 0}, .s_in = {200, 2}, .s_out = {40, 1}};
	r = red(p);
	ok(r.cls == ND_TRANSPOSE && r.inner_in == 2 && r.inner_out == 1 && r.ld_in == 200 && r.ld_out == 40,
	   "every other input column: inner_in 2 (%s)", why);
}

/* nd_check refuses p, naming part */
static void refused(nd_problem p, const char *part)
{
	err[0] = '\0';
	int rc = nd_check(&p, err, sizeof err);
	uint64_t a = 1, b = 1;
	nd_reduced r;
	int rs = nd_spans(&p, &a, &b), rr = nd_reduce(&p, &r, why, sizeof why);
	unsigned char buf[16];
	int rf = ndref_permute(&p, buf, buf);
	ok(rc == -1 && strstr(err, part) && !strchr(err, '\n') && rs == -1 && !a && !b && rr == -1 && !strcmp(why, err) &&
	   rf == -1, "refused: %s", err);
	if (!strstr(err, part))
		printf("#   want a part: '%s'\n", part);
}

static void checks(void)
{
	nd_problem p = MK(4, L(2, 3), L(1, 0));
	p.rank = 0;
	refused(p, "rank 0 is out of range (1 to 8)");
	p.rank = 9;
	refused(p, "rank 9 is out of range");
	p = MK(3, L(2, 3), L(1, 0));
	refused(p, "elem_bytes 3 is not 1, 2, 4, 8 or 16");
	p = MK(4, L(2, 3), L(1, 0));
	p.align_in = 12;
	refused(p, "align_in 12 is not a power of two");
	p.align_in = 0, p.align_out = 2;
	refused(p, "align_out 2 is less than elem_bytes 4");
	refused(MK(4, L(2, 0, 3), L(1, 0, 2)), "extent 1 is 0");
	refused(MK(4, L(2, 5, 3), L(1, 3, 2)), "perm[1] = 3 is out of range (a permutation of 0 to 2)");
	refused(MK(4, L(2, 5, 3), L(2, 1, 2)), "perm[2] = 2 repeats perm[0]");
	p = MK(4, L(2, 3), L(1, 0));
	p.s_in[0] = 3, p.s_in[1] = -1;
	refused(p, "s_in[1] = -1: negative strides are not supported yet");
	p = MK(4, L(2, 3), L(1, 0));
	p.s_out[0] = -2, p.s_out[1] = 1;
	refused(p, "s_out[0] = -2: negative strides are not supported yet");
	refused(MK(1, L(1ull << 40, 1ull << 30), L(1, 0)), "s_in strides overflow: with s_in[0] = 1073741824 (extent "
		"1099511627776)");
	refused(MK(16, L(1ull << 60), L(0)), "s_in strides overflow: with s_in[0] = 1");
	p = MK(1, L(2, 3), L(1, 0));
	p.s_in[0] = INT64_MAX, p.s_in[1] = 1;
	refused(p, "s_in strides overflow: with s_in[0] = 9223372036854775807");
	p = MK(4, L(2, 3), L(1, 0));
	p.s_in[0] = 3, p.s_in[1] = 1, p.s_out[0] = 1, p.s_out[1] = INT64_MAX / 2;
	refused(p, "s_out strides overflow: with s_out[1] = 4611686018427387903 (extent 2)");
	/* at the limit: (2^63-1) - 1 + 1 bytes, and one more element */
	p = MK(1, L(INT64_MAX), L(0));
	ok(!nd_check(&p, err, sizeof err), "one dim of 2^63-1 bytes is accepted (%s)", err);
	p = MK(1, L((uint64_t)INT64_MAX + 1), L(0));
	refused(p, "s_in strides overflow");
	p = MK(4, L(2, 2), L(1, 0));
	p.s_out[0] = 1, p.s_out[1] = 1;
	refused(p, "output strides may alias: s_out[1] = 1 is less than 2");
	p.s_out[0] = 0, p.s_out[1] = 1;
	refused(p, "output strides may alias: s_out[0] = 0 is less than 1");
	p.s_out[0] = 2, p.s_out[1] = 1, p.s_in[0] = 0, p.s_in[1] = 1;
	ok(!nd_check(&p, err, sizeof err), "input strides may alias: s_in 0,1 is accepted (%s)", err);
	p.s_in[0] = 1, p.s_in[1] = 1, p.s_out[0] = 4, p.s_out[1] = 1;
	ok(!nd_check(&p, err, sizeof err) && !compare(&p), "... and s_in 1,1 permutes as the naive loop does (%s)", err);
	/* fuzz_ndspec's first find: this reduces to a full broadcast (s_in all 0 in the reduced problem) */
	p = (nd_problem){.rank = 3, .elem_bytes = 2, .ext = {1, 1, 4}, .perm = {2, 0, 1}, .s_in = {1, 51, 0},
			 .s_out = {1, 1, 1}};
	ok(!compare(&p), "an input broadcast whose reduced input strides are all 0 (%s)", err);
	p.s_in[0] = p.s_in[1] = 0;
	ok(!compare(&p), "  ... and one written so (%s)", err);
	p.s_out[0] = p.s_out[1] = p.s_out[2] = 0;
	refused(p, "output strides may alias: s_out[0] = 0 is less than 1");
	/* interleaved: out dim 0 (extent 3) at 0, 2, 4 and out dim 1 (extent 2)
	 * at 0, 3 never collide, but the test refuses them */
	p = MK(4, L(2, 3), L(1, 0));
	p.s_out[0] = 2, p.s_out[1] = 3;
	refused(p, "output strides may alias: s_out[1] = 3 is less than 5, the span of the output dims with smaller "
		"strides (interleaved layouts are refused as may alias)");
	p = (nd_problem){.rank = 3, .elem_bytes = 4, .ext = {2, 1, 2}, .perm = {0, 1, 2}, .s_in = {2, 1, 1},
			 .s_out = {1, 1, 1}};
	refused(p, "output strides may alias: s_out[2] = 1 is less than 2");
	p.s_out[0] = 2, p.s_out[1] = 0, p.s_out[2] = 1;
	ok(!nd_check(&p, err, sizeof err), "an extent-1 output dim may have any stride (%s)", err);

	uint64_t ib, ob;
	p = (nd_problem){.rank = 2, .elem_bytes = 8, .ext = {5, 7}, .perm = {1, 0}, .s_in = {10, 1}, .s_out = {6, 1}};
	ok(!nd_spans(&p, &ib, &ob) && ib == (4 * 10 + 6 + 1) * 8 && ob == (6 * 6 + 4 + 1) * 8,
	   "nd_spans: (max offset + 1) * elem_bytes each side (%" PRIu64 ", %" PRIu64 ")", ib, ob);
	p = (nd_problem){.rank = 3, .elem_bytes = 2, .ext = {3, 4, 5}, .perm = {2, 0, 1}};
	nd_fill_packed(&p);
	ok(p.s_in[0] == 20 && p.s_in[1] == 5 && p.s_in[2] == 1 && p.s_out[0] == 12 && p.s_out[1] == 4 &&
	   p.s_out[2] == 1, "nd_fill_packed: row-major strides of the input and of the output shape");
}

int main(void)
{
	rng = 0x9e3779b97f4a7c15ull;
	checks();
	reductions();
	every_perm(3);
	every_perm(4);
	random_ranks();
	return tap_done();
}
