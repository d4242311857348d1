/* tp_emit: the tiled kernel. Phases: parameters and what depends on the
 * thread alone; the walk over tiles and matrices (tp_walk.c); per tile: the
 * interior test, all global loads, (shared memory: stores, barrier, loads),
 * all global stores. Interior tiles take unpredicated vector accesses, edge
 * tiles per-element predicated ones. */
#include "gen/tp_emit.h"

#include <stdio.h>
#include <string.h>

#include "gen/ptxb.h"
#include "loader/abi.h"
#include "gen/tp_int.h"

unsigned tp_lg2(unsigned x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

/* "[%reg]" or "[%reg+off]" */
const char *tp_addr(char *buf, size_t n, const char *reg, unsigned off)
{
	if (off)
		snprintf(buf, n, "[%s+%u]", reg, off);
	else
		snprintf(buf, n, "[%s]", reg);
	return buf;
}

/* "{%a, %b, ...}" (or "%a") of block k's row vector i or column vector c. */
const char *tp_unit_list(char *buf, size_t n, const em *e, unsigned k, int row, unsigned j)
{
	const char *const *u = row ? e->xr[k][j] : e->xc[k][j];
	if (e->na == 1) {
		snprintf(buf, n, "%s", u[0]);
		return buf;
	}
	size_t len = (size_t)snprintf(buf, n, "{");
	for (unsigned i = 0; i < e->na; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", u[i]);
	snprintf(buf + len, n - len, "}");
	return buf;
}

/* "ld.global.v4.b32" and the like: n units of the unit type. */
const char *tp_unit_op(char *buf, size_t n, const char *base, unsigned units, const char *ut)
{
	if (units == 1)
		snprintf(buf, n, "%s.%s", base, ut);
	else
		snprintf(buf, n, "%s.v%u.%s", base, units, ut);
	return buf;
}

void tp_setup(em *e)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	ptxb_group(b, "Parameters and the thread's linear id.");
	e->in0 = ptxb_reg(b, "b64", "input base (global)", "in");
	e->out0 = ptxb_reg(b, "b64", "output base (global)", "out");
	e->rows = ptxb_reg(b, "b32", "input rows", "rows");
	e->cols = ptxb_reg(b, "b32", "input columns", "cols");
	e->ld_in = ptxb_reg(b, "b32", "input leading dimension (elements)", "ld_in");
	e->ld_out = ptxb_reg(b, "b32", "output leading dimension (elements)", "ld_out");
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_in]", e->in0);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_out]", e->out0);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_rows]", e->rows);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_cols]", e->cols);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_in]", e->ld_in);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_out]", e->ld_out);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", e->in0, e->in0);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", e->out0, e->out0);
	e->t = ptxb_reg(b, "b32", "linear thread id in the block", "thread");
	ptxb_op(b, NULL, "mov.u32", "%s, %%tid.x", e->t);
	if (p->ty > 1) {
		const char *ty = ptxb_reg(b, "b32", "threadIdx.y", "thread_y");
		ptxb_op(b, NULL, "mov.u32", "%s, %%tid.y", ty);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", ty, ty, tp_lg2(p->tx));
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", e->t, e->t, ty);
	}
}

static void emit_fast_test(em *e)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	const char *lim = ptxb_reg(b, "b32", "tile end, for the interior test", "tile_end");
	e->interior = ptxb_reg(b, "pred", "the whole tile is inside the matrix", "interior");
	e->fast = g->v > 1 ? ptxb_reg(b, "pred", "interior, and pointers and pitches aligned for vectors", "fast")
			   : e->interior;
	e->pe = ptxb_reg(b, "pred", "this element is inside the matrix", "inside");
	if (g->v > 1)
		ptxb_group(b, "Interior tiles whose rows are %u-byte aligned take the unpredicated vector path;"
			      " other interior tiles unpredicated elements; edge tiles predicated elements.",
			   g->gbytes);
	else
		ptxb_group(b, "Interior tiles take the unpredicated path; edge tiles check every element.");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", lim, e->r0, e->p->tm);
	ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %s", e->interior, lim, e->rows);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", lim, e->c0, e->p->tn);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", e->interior, lim, e->cols, e->interior);
	if (g->es < 4) {
		/* realigned loads read up to 3 bytes before a row and 4 after it
		 * (wide_realign: a granule less one before, a granule after):
		 * keep them off the first and last tile rows */
		e->not_last = ptxb_reg(b, "pred", "neither the first nor the last tile row", "inner");
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", lim, e->r0, e->p->tm);
		ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", e->not_last, lim, e->rows);
		ptxb_op(b, NULL, "setp.ne.and.u32", "%s, %s, 0, %s", e->not_last, e->r0, e->not_last);
	}
	if (g->v > 1)
		ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", e->fast, e->align, e->interior);
}

/* The thread's first block (rb0, gc0) under mapping m, into two registers. */
void tp_block0(em *e, const tp_map *m, int write_map, const char *tag,
			const char **rb0, const char **gc0)
{
	ptxb *b = e->b;
	*rb0 = ptxb_reg(b, "b32", "first block row of this thread", "%s_brow", tag);
	*gc0 = ptxb_reg(b, "b32", "first block column of this thread", "%s_bcol", tag);
	const char *along = write_map ? *rb0 : *gc0, *across = write_map ? *gc0 : *rb0;
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", along, e->t, m->fast - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", across, e->t, tp_lg2(m->fast));
}



/* Row offset m and column offset n (elements) of access (k, s). */
void tp_gaccess(const em *e, const gside *s, unsigned k, unsigned j,
		    unsigned *mrow, unsigned *ncol)
{
	unsigned v = e->g->v;
	if (!s->store) {  /* input row rb*v + j, columns gc*v .. */
		*mrow = s->m->dr[k] * v + j;
		*ncol = s->m->dc[k] * v;
	} else {          /* output row gc*v + j, columns rb*v .. */
		*mrow = s->m->dc[k] * v + j;
		*ncol = s->m->dr[k] * v;
	}
}

/* What one side's addresses need that depends on the thread alone, before
 * the walk: the thread's first row and column inside a tile, the pitch. */
static void emit_gthread(em *e, gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	const char *rb0, *gc0;
	ptxb_group(b, "%s side, per thread: consecutive threads take consecutive %u-byte pieces of a%s row.",
		   s->store ? "Output" : "Input", g->gbytes, s->store ? "n output" : "n input");
	tp_block0(e, s->m, s->write_map, s->tag, &rb0, &gc0);
	/* input: row rb*v, column gc*v of the tile; output: row gc*v, column rb*v */
	s->roff = s->store ? gc0 : rb0;
	s->coff = s->store ? rb0 : gc0;
	if (g->v > 1) {
		const char *ro = ptxb_reg(b, "b32", "first tile row this thread touches", "%s_roff", s->tag);
		const char *co = ptxb_reg(b, "b32", "first tile column this thread touches", "%s_coff", s->tag);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", ro, s->roff, tp_lg2(g->v));
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", co, s->coff, tp_lg2(g->v));
		s->roff = ro, s->coff = co;
	}
	s->pitch = ptxb_reg(b, "b64", "row pitch in bytes", "%s_pitch", s->tag);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", s->pitch, s->store ? e->ld_out : e->ld_in, g->es);
}

/* The tile's addresses of one side. */
static void emit_gaddr(em *e, gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	ptxb_group(b, "%s addresses of this tile.", s->store ? "Output" : "Input");
	const char *row0 = ptxb_reg(b, "b32", "first matrix row this thread touches", "%s_row0", s->tag);
	const char *col0 = ptxb_reg(b, "b32", "first matrix column this thread touches", "%s_col0", s->tag);
	const char *off = ptxb_reg(b, "b64", "element offset, then byte address", "%s_base", s->tag);
	const char *c64 = ptxb_reg(b, "b64", "column as 64 bits", "%s_col64", s->tag);
	/* input: row r0 + roff, column c0 + coff; output: row c0 + roff, column r0 + coff */
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", row0, s->roff, s->store ? e->c0 : e->r0);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", col0, s->coff, s->store ? e->r0 : e->c0);
	const char *ld = s->store ? e->ld_out : e->ld_in;
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", off, row0, ld);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", c64, col0);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", off, off, c64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", off, off, tp_lg2(g->es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", off, off, s->store ? e->out : e->in);
	memset(s->row, 0, sizeof s->row);
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned j = 0; j < g->v; j++) {
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, j, &mrow, &ncol);
			if (s->row[mrow])
				continue;
			if (mrow == 0) {
				s->row[0] = off;
				continue;
			}
			s->row[mrow] = ptxb_reg(b, "b64", NULL, "%s_row%u", s->tag, mrow);
			ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %u, %s", s->row[mrow], s->pitch, mrow, off);
		}
	s->rows_left = ptxb_reg(b, "b32", "rows from this thread's first to the edge", "%s_rows_left", s->tag);
	s->cols_left = ptxb_reg(b, "b32", "columns from this thread's first to the edge", "%s_cols_left", s->tag);
	ptxb_op(b, NULL, "sub.s32", "%s, %s, %s", s->rows_left, s->store ? e->cols : e->rows, row0);
	ptxb_op(b, NULL, "sub.s32", "%s, %s, %s", s->cols_left, s->store ? e->rows : e->cols, col0);
}

/* Element (i, c) of block k in registers: its unit and, for packed
 * elements, the bit offset inside that word. */
static const char *elem_unit(const em *e, unsigned k, unsigned i, unsigned c, int store, unsigned *bit)
{
	unsigned es = e->g->es;
	*bit = 0;
	if (es >= 4) /* one unit per element; 16-byte ones are a pair, see tp_elem_access */
		return e->xr[k][i][es == 16 ? 0 : c];
	if (store) { /* output row c holds elements i packed */
		*bit = (i % e->epw) * 8 * es;
		return e->xc[k][c][i / e->epw];
	}
	*bit = (c % e->epw) * 8 * es;
	return e->xr[k][i][c / e->epw];
}

/* One element access: predicated by `guard` (the edge path) or not. */
void tp_elem_access(em *e, const gside *s, unsigned k, unsigned i, unsigned c, const char *a,
			const char *guard)
{
	ptxb *b = e->b;
	unsigned es = e->g->es, bit;
	char op[64], regs[80];
	const char *u = elem_unit(e, k, i, c, s->store, &bit);
	const char *base = s->store ? e->stop : e->ldop;
	if (es == 16) {
		snprintf(regs, sizeof regs, "{%s, %s}", e->xr[k][0][0], e->xr[k][0][1]);
		tp_unit_op(op, sizeof op, base, 2, "b64");
	} else if (es >= 4) {
		snprintf(regs, sizeof regs, "%s", u);
		tp_unit_op(op, sizeof op, base, 1, e->ut);
	} else {
		snprintf(regs, sizeof regs, "%s", e->tmp);
		snprintf(op, sizeof op, "%s.b%u", base, 8 * es);
	}
	if (s->store) {
		if (es < 4 && bit)
			ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", e->tmp, u, bit);
		else if (es < 4)
			snprintf(regs, sizeof regs, "%s", u);
		ptxb_op(b, guard, op, "%s, %s", a, regs);
		return;
	}
	ptxb_op(b, guard, op, "%s, %s", regs, a);
	if (es < 4)
		ptxb_op(b, NULL, "bfi.b32", "%s, %s, %s, %u, %u", u, e->tmp, u, bit, 8 * es);
}


/* Block k's row j (load) or column j (store) as one vector access at
 * address a, under guard (NULL: none). */
static void vector_access(em *e, const gside *s, unsigned k, unsigned j, const char *a, const char *guard)
{
	char op[64], regs[160];
	tp_unit_op(op, sizeof op, s->store ? e->stop : e->ldop, e->na, e->ut);
	tp_unit_list(regs, sizeof regs, e, k, !s->store, j);
	if (s->store)
		ptxb_op(e->b, guard, op, "%s, %s", a, regs);
	else
		ptxb_op(e->b, guard, op, "%s, %s", regs, a);
}

/* The accesses of one side: whole vectors (aligned interior tiles),
 * unpredicated elements (misaligned interior tiles), or predicated elements
 * (edge tiles). */
static void emit_gaccess(em *e, const gside *s, int mode)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	char a[64];
	const char *rok = NULL;
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned j = 0; j < g->v; j++) {
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, j, &mrow, &ncol);
			tp_addr(a, sizeof a, s->row[mrow], ncol * g->es);
			if (mode == ACC_VECTOR) {
				vector_access(e, s, k, j, a, NULL);
				continue;
			}
			if (mode == ACC_EDGE || mode == ACC_EDGE_VECTOR) {
				if (!rok) {
					char nm[32];
					snprintf(nm, sizeof nm, "%s_row_ok", s->tag);
					rok = ptxb_find(b, nm);
				}
				if (!rok)
					rok = ptxb_reg(b, "pred", "this access's row is inside", "%s_row_ok", s->tag);
				ptxb_op(b, NULL, "setp.gt.s32", "%s, %s, %u", rok, s->rows_left, mrow);
			}
			if (mode == ACC_EDGE_VECTOR) {
				/* the matrix ends on a vector boundary: a vector is all in or all out */
				ptxb_op(b, NULL, "setp.gt.and.s32", "%s, %s, %u, %s", e->pe, s->cols_left, ncol, rok);
				vector_access(e, s, k, j, a, e->pe);
				continue;
			}
			for (unsigned c = 0; c < g->v; c++) {
				if (mode == ACC_EDGE)
					ptxb_op(b, NULL, "setp.gt.and.s32", "%s, %s, %u, %s", e->pe, s->cols_left,
						ncol + c, rok);
				tp_addr(a, sizeof a, s->row[mrow], (ncol + c) * g->es);
				const char *guard = mode == ACC_EDGE ? e->pe : NULL;
				/* load: element (j, c); store: output row j, element c = input row c */
				if (s->store)
					tp_elem_access(e, s, k, c, j, a, guard);
				else
					tp_elem_access(e, s, k, j, c, a, guard);
			}
		}
}

/* One shared address: row a0 + cr, granule column b0 + db, swizzled. The
 * scratch registers are declared once per tag. */
void tp_smem_addr(em *e, const char *tag, const char *a0, const char *b0, unsigned cr,
		  unsigned db, const char *dst)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	char name[40];
	snprintf(name, sizeof name, "%s_row", tag);
	const char *srow = ptxb_find(b, name + 0);
	if (!srow) {
		srow = ptxb_reg(b, "b32", NULL, "%s_row", tag);
		ptxb_reg(b, "b32", NULL, "%s_col", tag);
		if (g->swz)
			ptxb_reg(b, "b32", "swizzle: low bits of the shared row", "%s_xor", tag);
	}
	snprintf(name, sizeof name, "%s_col", tag);
	const char *scol = ptxb_find(b, name);
	snprintf(name, sizeof name, "%s_xor", tag);
	const char *sxor = g->swz ? ptxb_find(b, name) : NULL;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", srow, a0, cr);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", scol, b0, db);
	if (sxor) {
		const char *from = srow;
		if (g->swz_shr) {
			ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", sxor, from, g->swz_shr);
			from = sxor;
		}
		if (g->swz_shl) {
			ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", sxor, from, g->swz_shl);
			from = sxor;
		}
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", sxor, from, g->swz);
		ptxb_op(b, NULL, "xor.b32", "%s, %s, %s", scol, scol, sxor);
	}
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", scol, srow, g->pitch, scol);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", dst, scol, g->gbytes, e->sbase);
}

static void emit_smem(em *e, const char *sbase, int load)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	const tp_geom *g = e->g;
	const tp_map *m = load ? &g->wr : &g->rd;
	const char *tag = load ? "sl" : "ss";
	const char *rb0, *gc0;
	tp_block0(e, m, load, tag, &rb0, &gc0);
	/* shared row = A*v + s (or s*srows/v + A when permuted), column B */
	const char *a0 = p->major_in ? rb0 : gc0, *b0 = p->major_in ? gc0 : rb0;
	if (!g->permute && g->v > 1)
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", a0, a0, tp_lg2(g->v));
	const char *sa[TP_MAX_K][TP_MAX_V];
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned s = 0; s < g->v; s++) {
			unsigned da = p->major_in ? m->dr[k] : m->dc[k], db = p->major_in ? m->dc[k] : m->dr[k];
			unsigned cr = tp_srow(g, da * g->v + s);
			sa[k][s] = ptxb_reg(b, "b32", NULL, "%s_addr%u_%u", tag, k, s);
			tp_smem_addr(e, tag, a0, b0, cr, db, sa[k][s]);
		}
	char op[48], regs[160];
	tp_unit_op(op, sizeof op, load ? "ld.shared" : "st.shared", e->na, e->ut);
	ptxb_note(b, "%s", load ? "all shared loads, then the global stores"
			       : "shared stores: the register block goes out as whole granules");
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned s = 0; s < g->v; s++) {
			tp_unit_list(regs, sizeof regs, e, k, p->major_in, s);
			if (load)
				ptxb_op(b, NULL, op, "%s, [%s]", regs, sa[k][s]);
			else
				ptxb_op(b, NULL, op, "[%s], %s", sa[k][s], regs);
		}
}

static void emit_shared(em *e)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	const tp_geom *g = e->g;
	ptxb_global(b, "// %u rows of %u-byte granules, %u bytes apart%s.", g->srows, g->gbytes,
		    g->pitch * g->gbytes,
		    p->smem == TP_SMEM_SWIZZLE ? ", granule column XOR (row & swizzle)" :
		    p->smem == TP_SMEM_PADDED ? " (one granule of padding per row)" : "");
	if (p->dyn_smem)
		ptxb_global(b, ".extern .shared .align 16 .b8 tile_smem[]; // %u bytes, dyn_smem", g->smem_bytes);
	else
		ptxb_global(b, ".shared .align 16 .b8 tile_smem[%u];", g->smem_bytes);
	const char *sbase = ptxb_reg(b, "b32", "shared tile base", "smem");
	ptxb_group(b, "Into shared memory by %s rows (%s), a barrier, and out along the other axis.",
		   p->major_in ? "input" : "output", tp_smem_name(p->smem));
	ptxb_op(b, NULL, "mov.u32", "%s, tile_smem", sbase);
	e->sbase = sbase;
	emit_smem(e, sbase, 0);
	ptxb_op(b, NULL, "bar.sync", "0");
	emit_smem(e, sbase, 1);
}

/* Before loads that leave registers as they were (predicated, or bfi into
 * a packed word): a defined value, or the registers' last values would be
 * live around the walk's back edges, and ptxas would keep them all. */
static void zero_data(em *e)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	char op[16];
	snprintf(op, sizeof op, "mov.%s", e->ut);
	ptxb_note(b, "registers these loads may leave as they were start at zero");
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned i = 0; i < g->v; i++)
			for (unsigned u = 0; u < e->na; u++)
				ptxb_op(b, NULL, op, "%s, 0", e->xr[k][i][u]);
}

/* The two or three paths of one side, each ending at `done` (the last by
 * falling through to it). */
static void emit_paths(em *e, const gside *s, const char *notfast, const char *tag, const char *done)
{
	ptxb *b = e->b;
	char l_slow[32], l_edge[32], notint[40];
	snprintf(l_slow, sizeof l_slow, "%s_ELEMENTS", tag);
	snprintf(l_edge, sizeof l_edge, "%s_EDGE", tag);
	snprintf(notint, sizeof notint, "!%s", e->interior);
	int middle = e->g->v > 1;
	ptxb_op(b, notfast, "bra.uni", "%s", middle ? l_slow : l_edge);
	emit_gaccess(e, s, ACC_VECTOR);
	ptxb_op(b, NULL, "bra.uni", "%s", done);
	if (middle) {
		ptxb_label(b, l_slow);
		ptxb_note(b, "interior tile, rows not aligned for vectors");
		ptxb_op(b, notint, "bra.uni", "%s", l_edge);
		if (s->store && tp_realign_stores(e)) {
			if (e->p->shear)
				tp_emit_sheared_stores(e, s);
			else if (tp_wide_realign(e))
				tp_emit_wide_stores(e, s);
			else
				tp_emit_realign_stores(e, s);
		} else if (!s->store && tp_realign_loads(e)) {
			char l_bytes[32], notinner[40];
			snprintf(l_bytes, sizeof l_bytes, "%s_BYTES", tag);
			snprintf(notinner, sizeof notinner, "!%s", e->not_last);
			ptxb_op(b, notinner, "bra.uni", "%s", l_bytes);
			if (tp_wide_realign(e))
				tp_emit_wide_loads(e, s);
			else
				tp_emit_realign_loads(e, s);
			ptxb_op(b, NULL, "bra.uni", "%s", done);
			ptxb_label(b, l_bytes);
			ptxb_note(b, "first or last tile row: unpredicated elements");
			zero_data(e);
			emit_gaccess(e, s, ACC_ELEMENT);
		} else {
			if (!s->store && e->g->es < 4)
				zero_data(e);
			emit_gaccess(e, s, ACC_ELEMENT);
		}
		ptxb_op(b, NULL, "bra.uni", "%s", done);
	}
	ptxb_label(b, l_edge);
	if (middle) {
		/* aligned pointers and pitches, and the matrix's extent along the
		 * side's rows a multiple of the vector: whole predicated vectors */
		char l_edge_el[32];
		snprintf(l_edge_el, sizeof l_edge_el, "%s_EDGE_ELEMENTS", tag);
		const char *pv = ptxb_find(b, "edge_elements"), *rem = ptxb_find(b, "edge_rem");
		if (!pv) {
			pv = ptxb_reg(b, "pred", "an edge tile without whole vectors", "edge_elements");
			rem = ptxb_reg(b, "b32", "the matrix's extent past whole vectors", "edge_rem");
		}
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", rem, s->store ? e->rows : e->cols, e->g->v - 1);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", pv, rem);
		ptxb_op(b, NULL, "setp.ne.or.u32", "%s, %s, 0, %s", pv, e->align, pv);
		ptxb_op(b, pv, "bra.uni", "%s", l_edge_el);
		ptxb_note(b, "edge tile, aligned: one predicated vector at a time");
		if (!s->store)
			zero_data(e);
		emit_gaccess(e, s, ACC_EDGE_VECTOR);
		ptxb_op(b, NULL, "bra.uni", "%s", done);
		ptxb_label(b, l_edge_el);
	}
	ptxb_note(b, "edge tile: one predicated element at a time");
	if (!s->store)
		zero_data(e);
	emit_gaccess(e, s, ACC_EDGE);
}

static void declare_data(em *e)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	unsigned es = g->es;
	e->ub = es >= 8 ? 8 : 4;
	e->ut = e->ub == 8 ? "b64" : "b32";
	e->na = g->gbytes / e->ub;
	e->epw = es < 4 ? 4 / es : 1;
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned i = 0; i < g->v; i++)
			for (unsigned u = 0; u < e->na; u++)
				e->xr[k][i][u] = ptxb_reg(b, e->ut, k + i + u ? NULL :
					es < 4 ? "block k, input row i, word u (packed elements)" :
					es == 16 ? "block k, the element's low and high halves" :
						   "block k, element (row i, column u)",
					"x%u_%u_%u", k, i, u);
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned c = 0; c < g->v; c++)
			for (unsigned u = 0; u < e->na; u++)
				e->xc[k][c][u] = es == 16 ? e->xr[k][0][u] : es >= 4 ? e->xr[k][u][c] :
					ptxb_reg(b, "b32", k + c + u ? NULL :
						 "block k, input column c (an output row), word u", "y%u_%u_%u", k, c, u);
	if (es < 4)
		e->tmp = ptxb_reg(b, "b32", "one packed element on the edge path", "elem");
}

int tp_emit_tile(const tp_params *p, const tp_geom *g, const char *header,
		 strbuf *out, char *err, size_t errlen)
{
	static em e; /* large (register name tables); the generator is single-threaded */
	memset(&e, 0, sizeof e);
	e.p = p, e.g = g;
	e.ldop = p->ld_nc ? "ld.global.nc.L1::no_allocate" : "ld.global";
	e.stop = p->st_cs ? "st.global.cs" : "st.global";
	e.b = ptxb_new();
	if (!e.b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e.b;
	tp_setup(&e);
	declare_data(&e);
	/* Without shared memory both sides use one mapping: the coalesced side's. */
	int smem = p->smem != TP_SMEM_NONE;
	const tp_map *lm = (!smem && p->coalesce_write) ? &g->wr : &g->rd;
	const tp_map *sm = (smem || p->coalesce_write) ? &g->wr : &g->rd;
	gside ld = {.store = 0, .m = lm, .write_map = lm == &g->wr, .tag = "ld"};
	gside st = {.store = 1, .m = sm, .write_map = sm == &g->wr, .tag = "st"};
	emit_gthread(&e, &ld);
	emit_gthread(&e, &st);
	tp_walk_begin(&e);
	emit_fast_test(&e);
	emit_gaddr(&e, &ld);
	ptxb_group(b, "Every global load of the thread is issued before any of them is used.");
	char notfast[40];
	snprintf(notfast, sizeof notfast, "!%s", e.fast);
	emit_paths(&e, &ld, notfast, "LOAD", "LOADED");
	ptxb_label(b, "LOADED");
	if (!smem || !p->major_in)
		tp_emit_xpose(&e);
	if (smem)
		emit_shared(&e);
	if (smem && p->major_in)
		tp_emit_xpose(&e);
	emit_gaddr(&e, &st);
	ptxb_group(b, "The stores: vectors on the interior path, predicated elements on the edge.");
	emit_paths(&e, &st, notfast, "STORE", "TILE_DONE");
	tp_walk_end(&e);
	return tp_finish(b, p, header, p->ty, out, err, errlen);
}

int tp_finish(ptxb *b, const tp_params *p, const char *header, unsigned ty, strbuf *out, char *err,
	      size_t errlen)
{
	char params[512];
	ptxb_maxnreg(b, p->max_regs);
	int rc = ptxb_finish(b, out, header, tp_target(p), p->name, abi_ptx_params(params, sizeof params), p->tx, ty);
	if (rc)
		snprintf(err, errlen, "generator: %s", ptxb_error(b));
	ptxb_free(b);
	return rc;
}
