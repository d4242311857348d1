/* Kernel ABI v3 in the emulator: every committed kernel whose metadata says
 * abi=3 (ptx/), and v3 kernels of the other families on tp_walk generated
 * here (skinny, a study kernel, a tile kernel without shared memory), each
 * run with several batch dimensions (emu_launch.bdims, abi_bdims_fill) and
 * compared bit-exactly with a host reference computed by loops: 2 to 6 batch
 * dimensions, extents 1, 2, 3 and 5, input and output strides with gaps and
 * in different orders (the batch permuted between the sides), pointers off
 * alignment, and grids capped (PTXPOSE_GRID_MAX) so that a block walks
 * several matrices. Random inputs, outputs poisoned: a byte written where
 * no element goes fails too. Also: a v2 kernel refuses several dimensions,
 * and the linear family refuses abi=3. Prints TAP. */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "gen/tp.h"
#include "gen/tp_family.h"
#include "loader/abi.h"
#include "loader/pxfile.h"
#include "tests/unit/nd_case.h"
#include "tests/unit/tap.h"

static const nd_case cases[] = {
	{2, {3, 2}, 5, 7, 0, 3, 0, NULL, 1, 1},
	{4, {2, 1, 3, 2}, 33, 9, 2, 0, 1, "1x1x2", 2, 1},
	{6, {2, 3, 1, 2, 1, 3}, 3, 4, 1, 1, 3, "1x1x5", 3, 1},
	{3, {5, 1, 3}, 17, 35, 0, 0, 0, "2x1x4", 4, 1},
	{5, {3, 1, 5, 1, 2}, 2, 3, 0, 1, 1, "1x1x7", 6, 1},
	/* pitches and strides of 16-byte multiples: whole interior tiles take
	 * the vector paths (the fast kernels' tiles are at most 128x128) */
	{2, {1, 3}, 130, 144, 0, 14, 0, "1x1x2", 5, 16},
};

/* One kernel on one case: 1, or 0 with why. */
static int run_case(const emu_prog *p, const px_meta *m, const nd_case *c, char *why, size_t wlen)
{
	unsigned es = m->elem_bits / 8;
	nd_data d;
	if (nd_prepare(c, es, &d, why, wlen))
		return 0;
	strbuf diag;
	sb_init(&diag);
	emu_launch l = {.in = d.in, .in_bytes = d.in_bytes, .out = d.out, .out_bytes = d.out_bytes, .rows = c->rows,
			.cols = c->cols, .ld_in = d.ld_in, .ld_out = d.ld_out, .batch = d.batch, .bdims = d.bdims,
			.misalign = c->misalign * es};
	int good = 0;
	if (emu_prog_launch(p, m, &l, &diag) != EMU_OK)
		snprintf(why, wlen, "emulator: %s", sb_str(&diag));
	else
		good = nd_same(&d, es, why, wlen);
	sb_free(&diag);
	nd_free(&d);
	return good;
}

static void run_all(const char *what, const char *ptx, const px_meta *m)
{
	emu_prog *p = NULL;
	strbuf d;
	sb_init(&d);
	if (emu_load(ptx, &p, &d) != EMU_OK) {
		ok(0, "%s: emu_load: %s", what, sb_str(&d));
		sb_free(&d);
		return;
	}
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const nd_case *c = &cases[k];
		char why[512] = "", ext[64];
		int good = run_case(p, m, c, why, sizeof why);
		ok(good, "%s: batch %s of %ux%u, offset %u, grid %s%s%s", what, nd_extents(c, ext, sizeof ext), c->rows,
		   c->cols, c->misalign, c->grid_max ? c->grid_max : "full", why[0] ? ": " : "", why);
	}
	emu_free(p);
	sb_free(&d);
}

/* Every committed abi=3 kernel. */
static void test_committed(void)
{
	glob_t g;
	int n = 0;
	if (glob("ptx/*.ptx", 0, NULL, &g)) {
		ok(0, "ptx/*.ptx: no files (run from the source tree)");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		px_file f;
		char err[512];
		if (px_file_load(&f, g.gl_pathv[i], err, sizeof err)) {
			ok(0, "%s", err);
			continue;
		}
		const char *abi = meta_get(&f.meta, "abi");
		if (abi && !strcmp(abi, "3") && f.meta.op == META_OP_TRANSPOSE) { /* row copies: t0718-emu-rowcopy */
			run_all(g.gl_pathv[i], f.ptx, &f.meta);
			n++;
		}
		px_file_free(&f);
	}
	globfree(&g);
	ok(n >= 10, "%d committed kernels of ABI v3 (fast_nd and narrow_nd of 5 widths at least)", n);
}

/* v3 kernels of the families on tp_walk other than the committed ones. */
static void test_families(void)
{
	tp_params ps[4];
	const char *what[4] = {"skinny wide kmax 4, 32-bit", "skinny tall kmax 8, 16-bit", "study shfl, 32-bit",
			       "tile 16x32 registers only, 64-bit"};
	for (int k = 0; k < 4; k++)
		tp_defaults(&ps[k]);
	tp_use(&ps[0], tp_family_named("skinny"));
	tp_set(&ps[0], "skinny", 1), tp_set(&ps[0], "kw", 4), tp_set(&ps[0], "stages", 1);
	ps[0].tm = 4, ps[0].tn = 128, ps[0].tx = 128, ps[0].ty = 1;
	tp_use(&ps[1], tp_family_named("skinny"));
	tp_set(&ps[1], "skinny", 2), tp_set(&ps[1], "kw", 8), tp_set(&ps[1], "stages", 1);
	ps[1].elem = 16, ps[1].tm = 128, ps[1].tn = 8, ps[1].tx = 128, ps[1].ty = 1;
	tp_use(&ps[2], tp_family_named("shfl"));
	ps[2].tm = ps[2].tn = 64;
	ps[3].elem = 64, ps[3].tm = 16, ps[3].tn = 32, ps[3].tx = 32, ps[3].ty = 4, ps[3].vec = 2;
	for (int k = 0; k < 4; k++) {
		snprintf(ps[k].name, sizeof ps[k].name, "nd%d", k);
		ps[k].abi = 3;
		strbuf t;
		sb_init(&t);
		char e[256];
		px_meta m;
		if (tp_generate(&ps[k], &t, e, sizeof e) || meta_parse(sb_str(&t), &m, e, sizeof e))
			ok(0, "%s: generated (%s)", what[k], e);
		else if (ok(!strcmp(meta_get(&m, "abi"), "3"), "%s: generated, metadata abi=3", what[k]))
			run_all(what[k], sb_str(&t), &m);
		sb_free(&t);
	}
	tp_params lin;
	tp_defaults(&lin);
	tp_use(&lin, tp_family_named("linear"));
	lin.tx = 64, lin.ty = 1, lin.abi = 3;
	strbuf t;
	sb_init(&t);
	char e[256] = "";
	ok(tp_generate(&lin, &t, e, sizeof e) && !strcmp(e, "abi: the linear (1-D) kernel walks one batch dimension: "
							     "kernel ABI 2 only"), "the linear family refuses abi=3: %s", e);
	sb_free(&t);
}

/* A v2 kernel given several batch dimensions: refused, nothing run. */
static void test_v2_refuses(void)
{
	px_file f;
	char err[512];
	if (px_file_load(&f, "ptx/fast_b32.ptx", err, sizeof err)) {
		ok(0, "%s", err);
		return;
	}
	uint8_t bd[ABI_BDIMS_BYTES], in[64] = {0}, out[64];
	uint64_t ext[2] = {2, 2};
	int64_t s[2] = {8, 4};
	uint32_t batch;
	abi_bdims_fill(2, ext, s, s, bd, &batch);
	emu_launch l = {.in = in, .in_bytes = sizeof in, .out = out, .out_bytes = sizeof out, .rows = 2, .cols = 2,
			.ld_in = 2, .ld_out = 2, .batch = batch, .bdims = bd};
	strbuf d;
	sb_init(&d);
	int rc = emu_transpose_launch(f.ptx, &f.meta, &l, &d);
	ok(rc == EMU_UNSUPPORTED && !strcmp(sb_str(&d), "kernel fast_b32 is kernel ABI v2: it walks one batch "
							 "dimension, the launch has several (kernel ABI v3)"),
	   "a v2 kernel with bdims: EMU_UNSUPPORTED, '%s'", sb_str(&d));
	sb_free(&d);
	px_file_free(&f);
}

int main(void)
{
	unsetenv("PTXPOSE_GRID_MAX");
	test_committed();
	test_families();
	test_v2_refuses();
	return tap_done();
}
