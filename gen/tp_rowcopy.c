/* tp_rowcopy: the tiled copy (the N-d "tiled copy" class): rows of cols
 * elements moved between strided places, not transposed. With kernel ABI
 * v2's parameters, for b < batch, i < rows, j < cols:
 *
 *     out[b*stride_out + i*ld_out + j] = in[b*stride_in + i*ld_in + j]
 *
 * The grid and the walk are the tile kernels' (gen/tp_walk.c: a tm x tn tile
 * a block, tn along cols), so meta_grid_dims gives the grid and any grid is
 * walked. Per matrix the kernel takes the widest vector (16, 8, 4, 2 bytes,
 * or one element) that the matrix's pointers and both pitches allow. Per
 * tile, L = min(units of a tile row, 32) consecutive threads share a row
 * and the block's threads cover nthr / L rows at a time, so short rows are
 * packed several to a warp; a thread loads `unroll` rows before it stores
 * any; the row's last unit, when cols leaves it short, goes element by
 * element. Threads leave a tile's loops at different times: plain `bra`. */
#include <stdio.h>
#include <string.h>

#include "gen/tp_lib.h"

typedef struct {
	unsigned unroll; /* rows a thread loads before it stores */
} tp_rowcopy;

static const tp_rowcopy *own(const tp_params *p) { return (const tp_rowcopy *)p->own.bytes; }

static const char *const op_names[] = {"transpose", "copy", NULL};

static const tp_param params[] = {
	TP_CHOICE("op", op_names),
	TP_INT("unroll", 4, 1, 8, tp_rowcopy, unroll),
	TP_END,
};

#define MAX_UNROLL 8
#define VEC_BYTES 16 /* the widest access */

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

static int validate(const tp_params *p, char *err, size_t errlen)
{
	unsigned es = p->elem / 8;
	if (tp_check_foreign(p, err, errlen))
		return -1;
	if (p->vec != 1) {
		snprintf(err, errlen, "vec: rowcopy kernels choose their vectors (up to 16 bytes) per matrix; leave vec at 1");
		return -1;
	}
	if (!pow2(p->tm) || !pow2(p->tn) || p->tn * es < VEC_BYTES || p->tn * es > 4096) {
		snprintf(err, errlen, "tile: %ux%u: rowcopy needs powers of two with tile rows of 16 to 4096 bytes "
			 "(%u-byte elements)", p->tm, p->tn, es);
		return -1;
	}
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	sb_printf(h, "// out[i][j] = in[i][j] for %u-bit elements: rows of cols elements copied between\n"
		     "// strided places (leading dimensions and batch strides in elements). Each block\n"
		     "// moves a %ux%u tile, rows packed several to a warp when they are short, with\n"
		     "// the widest vector (up to 16 bytes) the matrix's pointers and pitches allow;\n"
		     "// a thread loads %u rows before it stores. Kernel ABI v%u (docs/DESIGN.md): a\n"
		     "// block steps by the grid over tile columns, tile rows and matrices.\n//\n",
		  p->elem, p->tm, p->tn, own(p)->unroll, p->abi);
	sb_printf(h, "// ptxpose kernel=%s abi=%u op=copy elem=%u grid=tile tile=%ux%u block=%ux%u\n", p->name,
		  p->abi, p->elem, p->tm, p->tn, p->tx, p->ty);
	sb_printf(h, "// ptxpose family=rowcopy vec=%u smem=none unroll=%u", VEC_BYTES / (p->elem / 8),
		  own(p)->unroll);
	if (p->group)
		sb_printf(h, " group=%u", p->group);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
}

/* The kernel's registers beyond the walk's. */
typedef struct {
	const char *vb, *span, *nu, *full, *lanes, *rstep, *lrow, *lane, *nrows, *r, *u, *col, *n;
	const char *rin, *rout, *sin, *sout, *off;
	const char *src[MAX_UNROLL], *dst[MAX_UNROLL], *pk[MAX_UNROLL], *x[MAX_UNROLL][4];
	const char *p;
} rc_regs;

static rc_regs R;

/* vb = the lowest set bit of (align | 16): the widest access the matrix's
 * pointers and pitches allow (align: their low 4 bits, tp_walk.c). */
static void on_matrix(em *e)
{
	ptxb *b = e->b;
	ptxb_note(b, "the widest access this matrix allows: the lowest set bit of (pointer and pitch bits | 16)");
	ptxb_op(b, NULL, "or.b32", "%s, %s, %u", R.vb, e->align, VEC_BYTES);
	ptxb_op(b, NULL, "not.b32", "%s, %s", R.n, R.vb);
	ptxb_op(b, NULL, "add.u32", "%s, %s, 1", R.n, R.n);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %s", R.vb, R.vb, R.n);
}

/* One access of `bytes` (1 to 16) between register set x and [addr]. */
static void access(em *e, int store, const char *guard, unsigned bytes, const char *addr, const char *const x[4])
{
	ptxb *b = e->b;
	char op[32];
	if (bytes <= 4) {
		snprintf(op, sizeof op, "%s.global.b%u", store ? "st" : "ld", 8 * bytes);
		if (store)
			ptxb_op(b, guard, op, "[%s], %s", addr, x[0]);
		else
			ptxb_op(b, guard, op, "%s, [%s]", x[0], addr);
		return;
	}
	char regs[160];
	if (bytes == 8)
		snprintf(regs, sizeof regs, "{%s, %s}", x[0], x[1]);
	else
		snprintf(regs, sizeof regs, "{%s, %s, %s, %s}", x[0], x[1], x[2], x[3]);
	snprintf(op, sizeof op, "%s.global.v%u.b32", store ? "st" : "ld", bytes / 4);
	if (store)
		ptxb_op(b, guard, op, "[%s], %s", addr, regs);
	else
		ptxb_op(b, guard, op, "%s, [%s]", regs, addr);
}

/* The tile with vb-byte accesses (ve = vb / es elements a unit). */
static void emit_path(em *e, unsigned vb)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	unsigned es = p->elem / 8, ve = vb / es, U = own(p)->unroll, nthr = p->tx * p->ty;
	char lab[32], row[32], unit[32], next[32], part[32], elem[32];
	snprintf(lab, sizeof lab, "V%u", vb);
	snprintf(row, sizeof row, "V%u_ROW", vb);
	snprintf(unit, sizeof unit, "V%u_UNIT", vb);
	snprintf(next, sizeof next, "V%u_NEXT_ROWS", vb);
	snprintf(part, sizeof part, "V%u_PARTIAL", vb);
	snprintf(elem, sizeof elem, "V%u_ELEM", vb);
	ptxb_label(b, lab);
	ptxb_group(b, "%u-byte units (%u element%s): L = min(units of a tile row, 32) threads a row, %u / L rows"
		      " at a time.", vb, ve, ve > 1 ? "s" : "", nthr);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", R.span, e->cols, e->c0);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", R.span, R.span, p->tn);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", R.nu, R.span, ve - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", R.nu, R.nu, tp_lg2(ve));
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", R.full, R.span, tp_lg2(ve));
	ptxb_op(b, NULL, "min.u32", "%s, %s, 32", R.lanes, R.nu);
	ptxb_op(b, NULL, "mov.u32", "%s, %u", R.rstep, nthr);
	ptxb_op(b, NULL, "div.u32", "%s, %s, %s", R.rstep, R.rstep, R.lanes);
	ptxb_op(b, NULL, "div.u32", "%s, %s, %s", R.lrow, e->t, R.lanes);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", R.lane, R.lrow, R.lanes);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", R.lane, e->t, R.lane);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", R.nrows, e->rows, e->r0);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", R.nrows, R.nrows, p->tm);
	ptxb_note(b, "bytes between the rows a thread moves at once: rows/L * pitch");
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", R.sin, R.rstep, e->ld_in);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", R.sin, R.sin, tp_lg2(es));
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", R.sout, R.rstep, e->ld_out);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", R.sout, R.sout, tp_lg2(es));
	ptxb_op(b, NULL, "mov.u32", "%s, %s", R.r, R.lrow);
	ptxb_label(b, row);
	ptxb_group(b, "Rows r, r + rows/L, ... (%u of them) of the tile; their bases in 64 bits.", U);
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", R.p, R.r, R.nrows);
	ptxb_op(b, R.p, "bra", "TILE_DONE");
	for (unsigned k = 1; k < U; k++) {
		ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", R.n, R.rstep, k, R.r);
		ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", R.pk[k], R.n, R.nrows);
	}
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", R.n, R.r, e->r0);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", R.rin, R.n, e->ld_in);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", R.rin, R.rin, tp_lg2(es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.rin, R.rin, e->in);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", R.rout, R.n, e->ld_out);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", R.rout, R.rout, tp_lg2(es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.rout, R.rout, e->out);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", R.u, R.lane);
	ptxb_label(b, unit);
	ptxb_group(b, "Unit u of those rows: every load before any store.");
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", R.p, R.u, R.nu);
	ptxb_op(b, R.p, "bra", "%s", next);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", R.col, R.u, ve, e->c0);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", R.off, R.col, es);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.src[0], R.rin, R.off);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.dst[0], R.rout, R.off);
	for (unsigned k = 1; k < U; k++) {
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.src[k], R.src[k - 1], R.sin);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", R.dst[k], R.dst[k - 1], R.sout);
	}
	if (ve > 1) {
		ptxb_note(b, "the row's last unit, short of %u elements: element by element", ve);
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", R.p, R.u, R.full);
		ptxb_op(b, R.p, "bra", "%s", part);
	}
	for (unsigned k = 0; k < U; k++)
		access(e, 0, k ? R.pk[k] : NULL, vb, R.src[k], R.x[k]);
	for (unsigned k = 0; k < U; k++)
		access(e, 1, k ? R.pk[k] : NULL, vb, R.dst[k], R.x[k]);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", R.u, R.u, R.lanes);
	ptxb_op(b, NULL, "bra", "%s", unit);
	if (ve > 1) {
		ptxb_label(b, part);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", R.n, R.col, e->c0);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", R.n, R.span, R.n);
		ptxb_label(b, elem);
		for (unsigned k = 0; k < U; k++)
			access(e, 0, k ? R.pk[k] : NULL, es, R.src[k], R.x[k]);
		for (unsigned k = 0; k < U; k++)
			access(e, 1, k ? R.pk[k] : NULL, es, R.dst[k], R.x[k]);
		for (unsigned k = 0; k < U; k++) {
			ptxb_op(b, NULL, "add.u64", "%s, %s, %u", R.src[k], R.src[k], es);
			ptxb_op(b, NULL, "add.u64", "%s, %s, %u", R.dst[k], R.dst[k], es);
		}
		ptxb_op(b, NULL, "sub.u32", "%s, %s, 1", R.n, R.n);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", R.p, R.n);
		ptxb_op(b, R.p, "bra", "%s", elem);
		ptxb_note(b, "the short unit is the row's last");
	}
	ptxb_label(b, next);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", R.r, R.rstep, U, R.r);
	ptxb_op(b, NULL, "bra", "%s", row);
}

static void declare(em *e)
{
	ptxb *b = e->b;
	unsigned U = own(e->p)->unroll;
	memset(&R, 0, sizeof R);
	if (e->p->elem < 8 * VEC_BYTES)
		R.vb = ptxb_reg(b, "b32", "bytes an access of this matrix moves (16, 8, 4, 2 or 1; at least an element)",
				"vbytes");
	R.span = ptxb_reg(b, "b32", "elements of the tile's rows", "span");
	R.nu = ptxb_reg(b, "b32", "units of a tile row (the last may be short)", "units");
	R.full = ptxb_reg(b, "b32", "whole units of a tile row", "full_units");
	R.lanes = ptxb_reg(b, "b32", "threads a row: L", "lanes");
	R.rstep = ptxb_reg(b, "b32", "rows the block covers at once: threads / L", "row_step");
	R.lrow = ptxb_reg(b, "b32", "the thread's first row of the tile", "first_row");
	R.lane = ptxb_reg(b, "b32", "the thread's first unit of a row", "first_unit");
	R.nrows = ptxb_reg(b, "b32", "rows of this tile", "tile_nrows");
	R.r = ptxb_reg(b, "b32", "the row (in the tile)", "r");
	R.u = ptxb_reg(b, "b32", "the unit (in the tile row)", "u");
	R.col = ptxb_reg(b, "b32", "the unit's first column", "col");
	R.n = ptxb_reg(b, "b32", "scratch; the short unit's elements left", "n");
	R.rin = ptxb_reg(b, "b64", "input row r (global)", "row_in");
	R.rout = ptxb_reg(b, "b64", "output row r (global)", "row_out");
	R.sin = ptxb_reg(b, "b64", "input bytes between the rows a thread moves at once", "rows_in");
	R.sout = ptxb_reg(b, "b64", "output bytes between the rows a thread moves at once", "rows_out");
	R.off = ptxb_reg(b, "b64", "the unit's byte offset in its row", "unit_off");
	R.p = ptxb_reg(b, "pred", "a branch's condition", "p");
	for (unsigned k = 0; k < U; k++) {
		R.src[k] = ptxb_reg(b, "b64", k ? NULL : "the unit's address in row r + k rows/L: input", "src%u", k);
		R.dst[k] = ptxb_reg(b, "b64", k ? NULL : "... and output", "dst%u", k);
		if (k)
			R.pk[k] = ptxb_reg(b, "pred", k > 1 ? NULL : "row r + k rows/L is in the tile", "row_ok%u", k);
		for (unsigned w = 0; w < 4; w++)
			R.x[k][w] = ptxb_reg(b, "b32", k + w ? NULL : "the data of row k, word w", "x%u_%u", k, w);
	}
}

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	unsigned es = p->elem / 8;
	tp_geom g;
	memset(&g, 0, sizeof g);
	g.es = es;
	g.v = VEC_BYTES / es; /* tp_walk.c: the matrix's alignment, to 16 bytes, where v > 1 */
	g.gbytes = VEC_BYTES;
	static em e; /* large (register name tables); the generator is single-threaded */
	memset(&e, 0, sizeof e);
	e.p = p, e.g = &g;
	if (!(e.b = ptxb_new())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e.b;
	tp_setup(&e);
	declare(&e);
	if (es < VEC_BYTES)
		e.on_matrix = on_matrix;
	tp_walk_begin(&e);
	ptxb_group(b, "The matrix's access width picks the path (the narrowest, one element, follows).");
	for (unsigned vb = VEC_BYTES; vb > es; vb /= 2) {
		ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, %u", R.p, R.vb, vb);
		char to[16];
		snprintf(to, sizeof to, "V%u", vb);
		ptxb_op(b, R.p, "bra.uni", "%s", to);
	}
	for (unsigned vb = es; vb <= VEC_BYTES; vb *= 2)
		emit_path(&e, vb);
	tp_walk_end(&e);
	return tp_finish(b, p, header, p->ty, out, err, errlen);
}

const tp_family tp_family_rowcopy = {
	.name = "rowcopy",
	.select_key = "op",
	.select_val = "copy",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
