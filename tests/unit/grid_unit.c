/* Unit tests of kernel ABI v2's grid (docs/DESIGN.md): meta_grid_dims at
 * the hardware limits (65535 and 65536 tile rows and matrices, 2^31-1 rows,
 * columns and matrices) and under PTXPOSE_GRID_MAX; then generated kernels,
 * emulated on grids smaller than their tiles (so that a block walks several
 * tile columns, tile rows and matrices) and larger (so that blocks past the
 * tiles have nothing to do), each compared bit-exactly with the reference
 * transpose. Prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "gen/tp.h"
#include "gen/tp_family.h"
#include "gen/tp_geom.h"
#include "rig/rig.h"
#include "tests/unit/shape_harness.h"
#include "tests/unit/tap.h"

static char err[512];

static px_meta meta_of(const char *line)
{
	px_meta m;
	if (meta_parse(line, &m, err, sizeof err))
		printf("# meta_parse: %s\n", err);
	return m;
}

/* meta_grid_dims: 1 when it gives grid x*y*z. */
static int dims(const px_meta *m, uint64_t rows, uint64_t cols, uint64_t batch, unsigned x, unsigned y, unsigned z)
{
	unsigned g[3] = {0, 0, 0};
	err[0] = '\0';
	if (meta_grid_dims(m, rows, cols, batch, g, err, sizeof err))
		return 0;
	if (g[0] == x && g[1] == y && g[2] == z)
		return 1;
	printf("#   grid %ux%ux%u, want %ux%ux%u\n", g[0], g[1], g[2], x, y, z);
	return 0;
}

static void test_tile_grid(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=2 elem=32 grid=tile tile=8x32 block=32x8\n");
	ok(dims(&m, 65535 * 8, 32, 1, 1, 65535, 1), "65535 tile rows: 65535 blocks along y");
	ok(dims(&m, 65535 * 8 + 1, 32, 1, 1, 65535, 1), "65536 tile rows: still 65535, the walk takes the rest");
	ok(dims(&m, 2147483647, 1, 1, 1, 65535, 1), "2^31-1 rows: 65535");
	ok(dims(&m, 1, 2147483647, 1, 67108864, 1, 1), "2^31-1 columns: ceil((2^31-1)/32) tile columns along x");
	ok(dims(&m, 3, 33, 65535, 2, 1, 65535), "65535 matrices: 65535 blocks along z");
	ok(dims(&m, 3, 33, 65536, 2, 1, 65535), "65536 matrices: 65535");
	ok(dims(&m, 3, 33, 2147483647, 2, 1, 65535), "2^31-1 matrices: 65535");
	ok(dims(&m, 8, 32, 1, 1, 1, 1), "one tile: one block");
	ok(!dims(&m, 0, 32, 1, 0, 0, 0), "no grid for 0 rows");
	ok(!dims(&m, 8, 32, 0, 0, 0, 0), "... nor for a batch of 0");
	is_str(err, "kernel k: no grid for 8x32 batch 0 (each must be 1 to 2^31-1)", "... saying so");
	ok(!dims(&m, 8, 2147483648ull, 1, 0, 0, 0), "... nor for 2^31 columns");
	m = meta_of("// ptxpose kernel=k abi=2 elem=8 grid=tile tile=256x1 block=32x8\n");
	ok(dims(&m, 2147483647, 2147483647, 1, 2147483647, 65535, 1), "a tile of one column: 2^31-1 blocks along x");
	m = meta_of("// ptxpose kernel=k abi=2 elem=8 grid=tile tile=256x64 block=32x8 row_step=240\n");
	ok(dims(&m, 8191, 8193, 1, 129, 35, 1), "sheared (row_step=240): ceil(8191/240) tile rows");
	ok(dims(&m, 240, 64, 1, 1, 1, 1), "... one step of rows: one block");
	ok(dims(&m, 241, 64, 1, 1, 2, 1), "... one row more: two");
}

/* op=: what the kernel computes, transpose by default (gen/tp_rowcopy.c: copy). */
static void test_op(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=2 elem=32 grid=tile tile=8x32 block=32x8\n");
	ok(m.op == META_OP_TRANSPOSE, "no op=: a transpose");
	m = meta_of("// ptxpose kernel=k abi=2 op=copy elem=32 grid=tile tile=8x32 block=32x8\n");
	ok(m.op == META_OP_COPY && !strcmp(meta_get(&m, "op"), "copy"), "op=copy: a row copy");
	ok(dims(&m, 100, 100, 3, 4, 13, 3), "... on the tile kernels' grid");
	m = meta_of("// ptxpose kernel=k abi=2 op=transpose elem=32 grid=tile tile=8x32 block=32x8\n");
	ok(m.op == META_OP_TRANSPOSE, "op=transpose: a transpose");
	ok(meta_parse("// ptxpose kernel=k abi=2 op=gather elem=32 grid=tile tile=8x32 block=32x8\n", &m, err,
		      sizeof err) == -1, "op=gather refused");
	is_str(err, "metadata: op must be transpose or copy, got 'gather'", "... naming it");
}

static void test_linear_grid(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=2 elem=32 grid=linear per_block=256 block=256\n");
	ok(dims(&m, 2147483647, 1, 1, 8388608, 1, 1), "linear: ceil(rows*cols/256)");
	ok(dims(&m, 2147483647, 2147483647, 3, 2147483647, 1, 3), "... at most 2^31-1 blocks; the threads walk the rest");
	ok(dims(&m, 1, 1, 70000, 1, 1, 65535), "... and 65535 matrices along z");
}

static void test_flat_grid(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=2 elem=32 grid=flat per_block=5116 block=256\n");
	ok(dims(&m, 3, 3, 1000000, 1761, 1, 1), "flat: chunks of floor(5116/9) = 568 matrices");
	ok(dims(&m, 64, 64, 7, 7, 1, 1), "... one 4096-element matrix a chunk");
	ok(dims(&m, 1, 1, 2147483647, 419759, 1, 1), "... 5116 single elements a chunk");
	ok(dims(&m, 100, 100, 2147483647, 2147483647, 1, 1), "... a block a matrix past per_block");
	ok(dims(&m, 2147483647, 2147483647, 3, 3, 1, 1), "... whatever its size");
	ok(meta_parse("// ptxpose kernel=k abi=2 elem=32 grid=flat block=256\n", &m, err, sizeof err) &&
		   strstr(err, "grid=flat needs per_block=N"),
	   "flat without per_block: refused");
}

static void test_pack_grid(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=4 elem=32 grid=pack per_block=2048 block=256\n");
	ok(m.grid == META_GRID_PACK && m.per_block == 2048, "pack: parsed, per_block the capacity");
	ok(dims(&m, 1, 1, 7, 7, 1, 1), "pack: a block a tile up to 512 tiles (256 threads)");
	ok(dims(&m, 1, 1, 512, 512, 1, 1), "... 512 tiles: 512 blocks");
	ok(dims(&m, 1, 1, 513, 512, 1, 1), "... 513 tiles: 512 blocks (some walk 2)");
	ok(dims(&m, 1, 1, 1000, 512, 1, 1), "... 1000 tiles: 512 blocks");
	ok(dims(&m, 1, 1, 1501, 751, 1, 1), "... 1501 tiles: 751 blocks (each walks 2 or 1)");
	ok(dims(&m, 1, 1, 2049, 1024, 1, 1), "... 2049 tiles: 1024 blocks");
	ok(dims(&m, 1, 1, 2147483647, 1024, 1, 1), "... 1024 blocks walk 2^31-1 tiles");
	px_meta s = meta_of("// ptxpose kernel=k abi=4 elem=32 grid=pack per_block=512 block=128\n");
	ok(dims(&s, 1, 1, 1000, 1000, 1, 1) && dims(&s, 1, 1, 1500, 1024, 1, 1),
	   "... 128 threads: a block a tile up to 1024 tiles, then 1024 blocks");
	setenv("PTXPOSE_GRID_MAX", "3x1x1", 1);
	ok(dims(&m, 1, 1, 100, 3, 1, 1), "... PTXPOSE_GRID_MAX caps it");
	unsetenv("PTXPOSE_GRID_MAX");
	ok(meta_parse("// ptxpose kernel=k abi=4 elem=32 grid=pack block=256\n", &m, err, sizeof err) &&
		   strstr(err, "grid=pack needs per_block=N"),
	   "pack without per_block: refused");
}

static void test_grid_max(void)
{
	px_meta m = meta_of("// ptxpose kernel=k abi=2 elem=32 grid=tile tile=8x32 block=32x8\n");
	setenv("PTXPOSE_GRID_MAX", "2x3x4", 1);
	ok(dims(&m, 1000, 1000, 100, 2, 3, 4), "PTXPOSE_GRID_MAX=2x3x4 caps every dimension");
	ok(dims(&m, 8, 32, 1, 1, 1, 1), "... and never raises one");
	static const char *const bad[] = {"2x3", "0x1x1", "1x65536x1", "1x1x65536", "2147483648x1x1", "ax1x1", "1x1x1x",
					  "1 x1x1"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		setenv("PTXPOSE_GRID_MAX", bad[k], 1);
		ok(!dims(&m, 8, 32, 1, 0, 0, 0) && strstr(err, "is not XxYxZ"), "PTXPOSE_GRID_MAX='%s' refused", bad[k]);
	}
	setenv("PTXPOSE_GRID_MAX", "", 1);
	ok(dims(&m, 65535 * 8 + 1, 32, 1, 1, 65535, 1), "empty: no cap");
	unsetenv("PTXPOSE_GRID_MAX");
}

/* A generated kernel emulated over grid g on a checked shape, compared
 * with the reference. */
static int walk(const char *ptx, const px_meta *m, rig_shape *s, const unsigned g[3], char *why, size_t wlen)
{
	vfy_bufs b;
	vfy_result r;
	strbuf d;
	sb_init(&d);
	emu_prog *p = NULL;
	emu_stats st = {0};
	int good = 0;
	if (vfy_bufs_prepare(&b, s, 7, why, wlen))
		return 0;
	if (emu_load(ptx, &p, &d) == EMU_OK) {
		emu_launch l = {.dyn_smem = m->dyn_smem, .in = b.in, .in_bytes = b.in_bytes, .out = b.out,
				.out_bytes = b.out_bytes, .rows = (uint32_t)s->p.rows, .cols = (uint32_t)s->p.cols,
				.ld_in = (uint32_t)s->p.ld_in, .ld_out = (uint32_t)s->p.ld_out, .batch = (uint32_t)s->p.batch,
				.stride_in = s->p.stride_in, .stride_out = s->p.stride_out,
				.misalign = s->offset * rig_shape_elem_bytes(s), .stats = &st};
		memcpy(l.grid, g, sizeof l.grid);
		memcpy(l.block, m->block, sizeof l.block);
		if (emu_run(p, &l, &d) != EMU_OK)
			snprintf(why, wlen, "emulator: %s", sb_str(&d));
		else if (vfy_compare(b.in, b.out, s, &r) != PX_OK)
			vfy_describe(&r, s, why, wlen);
		else
			good = st.ctas == (uint64_t)g[0] * g[1] * g[2];
	} else {
		snprintf(why, wlen, "emu_load: %s", sb_str(&d));
	}
	emu_free(p);
	sb_free(&d);
	vfy_bufs_free(&b);
	return good;
}

typedef struct {
	const char *what;
	tp_params p;
} kernel;

static void test_walk(void)
{
	kernel ks[5];
	for (int k = 0; k < 5; k++)
		tp_defaults(&ks[k].p);
	/* shared memory: the barrier before a tile is reused */
	ks[0].what = "32x32 padded, 32-bit";
	tp_set(&ks[0].p, "smem", TP_SMEM_PADDED);
	/* 16-byte vectors, a swizzle and the group order */
	ks[1].what = "64x64 swizzled vec 4, group 4";
	ks[1].p.tm = ks[1].p.tn = 64, ks[1].p.tx = 32, ks[1].p.ty = 4, ks[1].p.vec = 4;
	tp_set(&ks[1].p, "smem", TP_SMEM_SWIZZLE), ks[1].p.group = 4;
	/* packed bytes: prmt and the realigned loads and stores */
	ks[2].what = "64x64 bytes vec 8, swizzled, group 2";
	ks[2].p.elem = 8, ks[2].p.tm = ks[2].p.tn = 64, ks[2].p.tx = 32, ks[2].p.ty = 2, ks[2].p.vec = 8;
	tp_set(&ks[2].p, "smem", TP_SMEM_SWIZZLE), ks[2].p.group = 2;
	/* no shared memory */
	ks[3].what = "16x32 registers only, 64-bit";
	ks[3].p.elem = 64, ks[3].p.tm = 16, ks[3].p.tn = 32, ks[3].p.tx = 32, ks[3].p.ty = 4, ks[3].p.vec = 2;
	/* the 1-D kernel */
	ks[4].what = "linear, 16-bit";
	tp_use(&ks[4].p, tp_family_named("linear"));
	ks[4].p.elem = 16, ks[4].p.tx = 64, ks[4].p.ty = 1;
	/* 3 matrices of 150x140 with gaps, pointers one element off: 3x5 tiles of 64 */
	rig_shape base = shape_of(150, 140, 141, 153, 0, 1, 3, 150 * 141 + 5, 140 * 153 + 7);
	for (int k = 0; k < 5; k++) {
		snprintf(ks[k].p.name, sizeof ks[k].p.name, "walk%d", k);
		strbuf t;
		sb_init(&t);
		char e[256];
		if (tp_generate(&ks[k].p, &t, e, sizeof e)) {
			ok(0, "%s: generated (%s)", ks[k].what, e);
			sb_free(&t);
			continue;
		}
		px_meta m = meta_of(sb_str(&t));
		rig_shape s = base;
		s.p.elem_bytes = ks[k].p.elem / 8;
		if (rig_shape_check(&s, err, sizeof err))
			printf("# shape: %s\n", err);
		unsigned full[3];
		meta_grid_dims(&m, s.p.rows, s.p.cols, s.p.batch, full, err, sizeof err);
		const unsigned grids[][3] = {
			{1, 1, 1},                                 /* one block walks everything */
			{2, 2, 2},                                 /* every loop steps by 2 */
			{full[0] > 1 ? full[0] - 1 : 1, 1, 1},     /* one short along x */
			{full[0] + 3, full[1] + 2, 5},             /* blocks past the tiles and matrices */
			{full[0], full[1], full[2]},               /* the loader's grid */
		};
		for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++) {
			char why[512] = "";
			int good = walk(sb_str(&t), &m, &s, grids[gi], why, sizeof why);
			ok(good, "%s, 3 x 150x140 with gaps, offset 1, on grid %ux%ux%u%s%s", ks[k].what, grids[gi][0],
			   grids[gi][1], grids[gi][2], why[0] ? ": " : "", why);
		}
		sb_free(&t);
	}
}

int main(void)
{
	unsetenv("PTXPOSE_GRID_MAX");
	test_tile_grid();
	test_op();
	test_linear_grid();
	test_flat_grid();
	test_pack_grid();
	test_grid_max();
	test_walk();
	return tap_done();
}
