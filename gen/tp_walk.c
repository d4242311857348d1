/* tp_walk: how a block of a tiled kernel finds its tiles (kernel ABI v2,
 * docs/DESIGN.md). The loader launches at most 65535 blocks along y and z,
 * so a block starts at its own tile and steps by the grid: nctaid.x tile
 * columns, nctaid.y tile rows, nctaid.z matrices. In the common case every
 * loop runs once and costs a few uniform instructions; only shapes past the
 * hardware limits (more than 65535 tile rows or matrices) or a grid made
 * smaller on purpose (PTXPOSE_GRID_MAX) iterate. Indices are counted in
 * tiles, so no 32-bit sum can wrap: a tile index is below 2^31 / TM, a step
 * below 2^31.
 *
 * Kernel ABI v3 (p->abi == 3) changes one thing: a matrix's bases. The
 * matrix index is decoded into the batch's dimensions (param_bdims,
 * loader/abi.h) instead of multiplied by one stride; the walk itself is the
 * same. */
#include <stdio.h>

#include "gen/tp_lib.h"
#include "loader/abi.h"

typedef struct {
	const char *gx, *gy, *gz;        /* the grid: steps */
	const char *ntr, *ntc, *batch;   /* tile rows, tile columns, matrices */
	const char *fr, *fc;             /* this block's first tile row and column */
	const char *tr, *tc, *mat;       /* the current tile row, column, matrix */
	const char *sin, *sout;          /* bytes between matrices (v2) */
	const char *more;
} walk;

static walk w; /* one kernel at a time: the generator is single-threaded */

/* Blocks in launch order walk G tile columns from top to bottom, then the
 * next G: the blocks resident at once cover a squarish patch, so both the
 * rows read and the rows written stay few and long. The order is a
 * permutation of the launched grid (block ids below nctaid.x * nctaid.y,
 * which is below 2^32 for any grid meta_grid_dims gives a shape that fits
 * in memory); the walk's steps then carry a block past the grid. */
static void emit_group_order(em *e)
{
	ptxb *b = e->b;
	unsigned G = e->p->group;
	const char *id = ptxb_reg(b, "b32", "block id in launch order", "block_id");
	const char *per = ptxb_reg(b, "b32", "blocks in a full group", "group_blocks");
	const char *grp = ptxb_reg(b, "b32", "group of tile columns", "group");
	const char *first = ptxb_reg(b, "b32", "the group's first tile column", "group_col");
	const char *width = ptxb_reg(b, "b32", "tile columns in this group", "group_width");
	const char *tmp = ptxb_reg(b, "b32", "scratch for the block order", "order_tmp");
	ptxb_group(b, "Block order: %u tile columns of the grid at a time, top to bottom.", G);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.y", tmp);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", id);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", id, tmp, w.gx, id);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", per, w.gy, G);
	ptxb_op(b, NULL, "div.u32", "%s, %s, %s", grp, id, per);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", first, grp, G);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", width, w.gx, first);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", width, width, G);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", tmp, grp, per);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", id, id, tmp);
	ptxb_op(b, NULL, "div.u32", "%s, %s, %s", w.fr, id, width);
	ptxb_op(b, NULL, "rem.u32", "%s, %s, %s", w.fc, id, width);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", w.fc, w.fc, first);
}

/* Kernel ABI v3's registers for the decode (emit_bdims): type, role, why. */
static const char *const bdims_regs[][3] = {
	{"b32", "bd_rest", "the matrix index left to decode"},
	{"b32", "bd_quot", "... divided by the dimension's extent"},
	{"b32", "bd_digit", "the matrix's index along the dimension"},
	{"b32", "bd_extent", "the dimension's extent"},
	{"b32", "bd_shift", "the dimension's shift"},
	{"b64", "bd_magic", "the dimension's magic multiplier"},
	{"b64", "bd_prod", "the product, 64-bit"},
	{"b64", "bd_sin", "the dimension's input stride (elements)"},
	{"b64", "bd_sout", "the dimension's output stride (elements)"},
	{"b64", "bd_digit64", "the index along the dimension, 64-bit"},
	{"b64", "bd_off_in", "the matrix's input offset (elements)"},
	{"b64", "bd_off_out", "the matrix's output offset (elements)"},
};

void tp_bdims_declare(ptxb *b)
{
	for (size_t i = 0; i < sizeof bdims_regs / sizeof bdims_regs[0]; i++)
		ptxb_reg(b, bdims_regs[i][0], bdims_regs[i][2], "%s", bdims_regs[i][1]);
}

/* Kernel ABI v3: in/out from the matrix index decoded into the batch's
 * dimensions, the fastest first, all six records (neutral ones add 0):
 * q = (rest * magic) >> shift is rest / extent exactly for rest < 2^31
 * (loader/abi.c says why). */
void tp_bdims_decode(ptxb *b, const char *mat, unsigned es_bytes, const char *in0, const char *out0, const char *in,
		     const char *out, const char *const digit[2])
{
	const char *rest = ptxb_find(b, "bd_rest"), *quot = ptxb_find(b, "bd_quot");
	const char *dig = ptxb_find(b, "bd_digit"), *ext = ptxb_find(b, "bd_extent");
	const char *sh = ptxb_find(b, "bd_shift"), *mag = ptxb_find(b, "bd_magic");
	const char *prod = ptxb_find(b, "bd_prod"), *sin = ptxb_find(b, "bd_sin"), *sout = ptxb_find(b, "bd_sout");
	const char *d64 = ptxb_find(b, "bd_digit64"), *oin = ptxb_find(b, "bd_off_in");
	const char *oout = ptxb_find(b, "bd_off_out");
	unsigned es = tp_lg2(es_bytes);
	ptxb_note(b, "the matrix's bases (kernel ABI v3): the matrix decoded into the batch's %u dimensions,"
		     " fastest first", ABI_BDIMS);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", rest, mat);
	ptxb_op(b, NULL, "mov.u64", "%s, 0", oin);
	ptxb_op(b, NULL, "mov.u64", "%s, 0", oout);
	for (unsigned k = 0; k < ABI_BDIMS; k++) {
		unsigned r = k * ABI_BDIM_BYTES;
		ptxb_op(b, NULL, "ld.param.u64", "%s, [param_bdims+%u]", mag, r + ABI_BDIM_MAGIC);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_bdims+%u]", sh, r + ABI_BDIM_SHIFT);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_bdims+%u]", ext, r + ABI_BDIM_EXTENT);
		ptxb_op(b, NULL, "ld.param.u64", "%s, [param_bdims+%u]", sin, r + ABI_BDIM_STRIDE_IN);
		ptxb_op(b, NULL, "ld.param.u64", "%s, [param_bdims+%u]", sout, r + ABI_BDIM_STRIDE_OUT);
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", prod, rest);
		ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", prod, prod, mag);
		ptxb_op(b, NULL, "shr.b64", "%s, %s, %s", prod, prod, sh);
		ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", quot, prod);
		ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", dig, quot, ext);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", dig, rest, dig);
		if (digit && k < 2)
			ptxb_op(b, NULL, "mov.u32", "%s, %s", digit[k], dig);
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", d64, dig);
		ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", oin, d64, sin, oin);
		ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", oout, d64, sout, oout);
		if (k + 1 < ABI_BDIMS)
			ptxb_op(b, NULL, "mov.u32", "%s, %s", rest, quot);
	}
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", oin, oin, es);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", oout, oout, es);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", in, in0, oin);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", out, out0, oout);
}

/* in/out + matrix * stride bytes (v2; v3 decodes the batch's dimensions),
 * and the alignment of both (vectors). */
static void emit_matrix(em *e)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	ptxb_label(b, "MATRIX");
	if (e->p->abi == 3) {
		tp_bdims_decode(b, w.mat, g->es, e->in0, e->out0, e->in, e->out, NULL);
	} else {
		const char *m64 = ptxb_find(b, "matrix64");
		ptxb_note(b, "the matrix's bases, in 64 bits: matrix * stride elements past in and out");
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", m64, w.mat);
		ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", e->in, m64, w.sin, e->in0);
		ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", e->out, m64, w.sout, e->out0);
	}
	if (g->v > 1) {
		const char *tmp = ptxb_reg(b, "b32", "scratch for the alignment test", "align_tmp");
		ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", tmp, e->in);
		ptxb_op(b, NULL, "or.b32", "%s, %s, %s", e->align, e->ld_bits, tmp);
		ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", tmp, e->out);
		ptxb_op(b, NULL, "or.b32", "%s, %s, %s", e->align, e->align, tmp);
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", e->align, e->align, g->gbytes - 1);
	}
	if (e->on_matrix)
		e->on_matrix(e);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", w.tr, w.fr);
}

void tp_walk_begin(em *e)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	const tp_geom *g = e->g;
	w.gx = ptxb_reg(b, "b32", "blocks along x: the step in tile columns", "grid_x");
	w.gy = ptxb_reg(b, "b32", "blocks along y: the step in tile rows", "grid_y");
	w.gz = ptxb_reg(b, "b32", "blocks along z: the step in matrices", "grid_z");
	w.batch = ptxb_reg(b, "b32", "matrices", "batch");
	w.ntr = ptxb_reg(b, "b32", "tile rows of a matrix", "tile_rows");
	w.ntc = ptxb_reg(b, "b32", "tile columns of a matrix", "tile_cols");
	w.fr = ptxb_reg(b, "b32", "this block's first tile row", "first_tile_row");
	w.fc = ptxb_reg(b, "b32", "this block's first tile column", "first_tile_col");
	w.tr = ptxb_reg(b, "b32", "the tile row (index)", "trow");
	w.tc = ptxb_reg(b, "b32", "the tile column (index)", "tcol");
	w.mat = ptxb_reg(b, "b32", "the matrix", "matrix");
	if (p->abi == 3) {
		tp_bdims_declare(b);
	} else {
		ptxb_reg(b, "b64", NULL, "matrix64");
		w.sin = ptxb_reg(b, "b64", "input bytes between matrices", "stride_in");
		w.sout = ptxb_reg(b, "b64", "output bytes between matrices", "stride_out");
	}
	w.more = ptxb_reg(b, "pred", "the walk goes on (or, at the start, has nothing to do)", "more");
	e->r0 = ptxb_reg(b, "b32", "first input row of the tile", "tile_row");
	e->c0 = ptxb_reg(b, "b32", "first input column of the tile", "tile_col");
	e->in = ptxb_reg(b, "b64", "this matrix's input (global)", "mat_in");
	e->out = ptxb_reg(b, "b64", "this matrix's output (global)", "mat_out");
	if (g->v > 1) {
		e->align = ptxb_reg(b, "b32", "low bits of the matrix's pointers and the row pitches", "align");
		e->ld_bits = ptxb_reg(b, "b32", "the row pitches in bytes (their low bits)", "pitch_bits");
	}
	ptxb_group(b, "The walk: a block starts at its own tile and steps by the grid, nctaid.x tile columns,"
		      " nctaid.y tile rows, nctaid.z matrices.");
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_batch]", w.batch);
	if (p->abi != 3) {
		ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_in]", w.sin);
		ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_out]", w.sout);
		ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", w.sin, w.sin, tp_lg2(g->es));
		ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", w.sout, w.sout, tp_lg2(g->es));
	}
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.x", w.gx);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.y", w.gy);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.z", w.gz);
	unsigned step = e->row_step ? e->row_step : p->tm;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", w.ntr, e->rows, step - 1);
	if (step == p->tm)
		ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", w.ntr, w.ntr, tp_lg2(p->tm));
	else /* a sheared kernel's tiles overlap: tile rows start step rows apart */
		ptxb_op(b, NULL, "div.u32", "%s, %s, %u", w.ntr, w.ntr, step);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", w.ntc, e->cols, p->tn - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", w.ntc, w.ntc, tp_lg2(p->tn));
	if (g->v > 1) {
		ptxb_op(b, NULL, "or.b32", "%s, %s, %s", e->ld_bits, e->ld_in, e->ld_out);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", e->ld_bits, e->ld_bits, tp_lg2(g->es));
	}
	if (p->group) {
		emit_group_order(e);
	} else {
		ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.y", w.fr);
		ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", w.fc);
	}
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.z", w.mat);
	ptxb_note(b, "a block past the tiles or the matrices (a grid larger than needed) has nothing to do");
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", w.more, w.fr, w.ntr);
	ptxb_op(b, NULL, "setp.ge.or.u32", "%s, %s, %s, %s", w.more, w.fc, w.ntc, w.more);
	ptxb_op(b, NULL, "setp.ge.or.u32", "%s, %s, %s, %s", w.more, w.mat, w.batch, w.more);
	ptxb_op(b, w.more, "bra.uni", "DONE");
	emit_matrix(e);
	ptxb_label(b, "ROW");
	if (step == p->tm)
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", e->r0, w.tr, tp_lg2(p->tm));
	else
		ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", e->r0, w.tr, step);
	if (e->on_row)
		e->on_row(e);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", w.tc, w.fc);
	ptxb_label(b, "TILE");
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", e->c0, w.tc, tp_lg2(p->tn));
	if (e->on_tile)
		e->on_tile(e);
}

/* One step of a loop: the next index, or on to `out`; a barrier before the
 * shared tile is written again. */
static void step(em *e, const char *idx, const char *by, const char *lim, const char *out, const char *again)
{
	ptxb *b = e->b;
	char notmore[40];
	snprintf(notmore, sizeof notmore, "!%s", w.more);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", idx, idx, by);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", w.more, idx, lim);
	ptxb_op(b, notmore, "bra.uni", "%s", out);
	if (e->shared)
		ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_op(b, NULL, "bra.uni", "%s", again);
}

void tp_walk_end(em *e)
{
	ptxb *b = e->b;
	ptxb_label(b, "TILE_DONE");
	ptxb_group(b, "Next: the tile nctaid.x columns on, else nctaid.y rows down, else the matrix nctaid.z on%s.",
		   e->shared ? " (a barrier first: every thread has read the shared tile)" : "");
	step(e, w.tc, w.gx, w.ntc, "NEXT_ROW", "TILE");
	ptxb_label(b, "NEXT_ROW");
	step(e, w.tr, w.gy, w.ntr, "NEXT_MATRIX", "ROW");
	ptxb_label(b, "NEXT_MATRIX");
	step(e, w.mat, w.gz, w.batch, "DONE", "MATRIX");
	ptxb_label(b, "DONE");
	ptxb_op(b, NULL, "ret", " ");
}
