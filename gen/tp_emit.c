/* tp_emit: the tile family's kernel. Phases: parameters and what depends on the
 * thread alone; the walk over tiles and matrices (tp_walk.c); per tile: the
 * interior test, all global loads, (shared memory: stores, barrier, loads),
 * all global stores. Interior tiles take unpredicated vector accesses, edge
 * tiles per-element predicated ones. */
#include <stdio.h>
#include <string.h>

#include "gen/bank.h"
#include "gen/tp_tile.h"

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

static void emit_smem(em *e, const char *sbase, int load)
{
	ptxb *b = e->b;
	const tp_tile *p = tp_tile_of(e->p);
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
	const tp_tile *p = tp_tile_of(e->p);
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
		   p->major_in ? "input" : "output", tp_smem_names[p->smem]);
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
			if (tp_tile_of(e->p)->shear)
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

int tp_tile_emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	const tp_tile *t = tp_tile_of(p);
	tp_geom gs;
	const tp_geom *g = &gs;
	bank_geom(p, &gs);
	static em e; /* large (register name tables); the generator is single-threaded */
	memset(&e, 0, sizeof e);
	e.p = p, e.g = g;
	e.row_step = tp_row_step(p);
	e.shared = t->smem != TP_SMEM_NONE;
	e.ldop = t->ld_nc ? "ld.global.nc.L1::no_allocate" : "ld.global";
	e.stop = t->st_cs ? "st.global.cs" : "st.global";
	e.b = ptxb_new();
	if (!e.b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e.b;
	tp_setup(&e);
	declare_data(&e);
	/* Without shared memory both sides use one mapping: the coalesced side's. */
	int smem = t->smem != TP_SMEM_NONE;
	const tp_map *lm = (!smem && t->coalesce_write) ? &g->wr : &g->rd;
	const tp_map *sm = (smem || t->coalesce_write) ? &g->wr : &g->rd;
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
	if (!smem || !t->major_in)
		tp_emit_xpose(&e);
	if (smem)
		emit_shared(&e);
	if (smem && t->major_in)
		tp_emit_xpose(&e);
	emit_gaddr(&e, &st);
	ptxb_group(b, "The stores: vectors on the interior path, predicated elements on the edge.");
	emit_paths(&e, &st, notfast, "STORE", "TILE_DONE");
	tp_walk_end(&e);
	return tp_finish(b, p, header, p->ty, out, err, errlen);
}
