/* tp_warp: the warp-collective study families (the layout is in
 * gen/tp_warp.h): their checks, their header, and what they share: the
 * walk, the interior test, the quad transpose, the 16-byte global
 * accesses, and the element path of every other tile.
 *
 * Why study kernels. The tile kernels transpose a thread's own v x v block
 * in registers (prmt for packed elements) and move it between threads
 * through shared memory. These move data between the lanes of a warp
 * instead: movmatrix, ldmatrix.trans and stmatrix.trans for 16-bit elements
 * (Triton's layout conversion reads its tile back with ldmatrix.trans),
 * shfl for words. They are committed so that the emulator and every check
 * exercise these instructions, and timed against the tile kernels
 * (lab/TUNING.md); their metadata says study=1, so no plan picks them. */
#include <stdio.h>
#include <string.h>

#include "gen/tp_warp.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

/* The geometry of (possibly unvalidated) parameters: nothing divides by 0. */
static const wx_kind *kind_of(const tp_params *p) { return p->family->kind; }

static void geometry(wx *x, const tp_params *p)
{
	const wx_kind *k = kind_of(p);
	x->es = p->elem / 8 ? p->elem / 8 : 1;
	x->T = p->tx * p->ty;
	x->W = x->T / 32 ? x->T / 32 : 1;
	x->UR = k->UR;
	x->UC = k->UC;
	x->NLD = k->NLD;
	x->NC = p->tn / x->UC;
	x->U = p->tm / x->UR * x->NC;
	x->UPT = x->U / x->W;
}

int wx_validate(const tp_params *p, char *err, size_t errlen)
{
	const char *f = p->family->name;
	if (p->foreign)
		FAIL("family: a %s kernel takes no smem, major, coalesce, grid, swizzle_mask, hints, wide_realign,"
		     " shear, dyn_smem, skinny, kw or stages (it moves its tile its own way)", f);
	unsigned want = kind_of(p)->elem;
	if (p->elem != want)
		FAIL("elem: a %s kernel moves %u-bit elements, not %u", f, want, p->elem);
	if (p->vec != 1 && p->vec * p->elem != 128)
		FAIL("vec: a %s kernel moves 16-byte granules (vec %u, or leave it out)", f, 128 / p->elem);
	wx x;
	memset(&x, 0, sizeof x);
	geometry(&x, p);
	if (!pow2(p->tm) || !pow2(p->tn) || p->tm > 256 || p->tn > 256 || p->tm % x.UR || p->tn % x.UC)
		FAIL("tile: %ux%u must be powers of two, at most 256, in units of %ux%u", p->tm, p->tn, x.UR, x.UC);
	if (x.U % x.W || x.UPT > WX_MAX_UPT)
		FAIL("tile: %ux%u is %u units of %ux%u; the %u warps must share them evenly, at most %u a warp", p->tm,
		     p->tn, x.U, x.UR, x.UC, x.W, WX_MAX_UPT);
	if (p->group > 65535)
		FAIL("group: %u tile columns is more than a grid holds", p->group);
	if (kind_of(p)->major) {
		unsigned row = wx_shared_pitch(p) / 2;
		if (row < 64)
			FAIL("tile: a %s kernel's shared rows need 8 granules (64 halves) for the swizzle, not %u", f, row);
		if (wx_shared_bytes(p) > WX_STATIC_SMEM_LIMIT)
			FAIL("tile: %ux%u needs %u bytes of shared memory, over the %u-byte static limit", p->tm, p->tn,
			     wx_shared_bytes(p), WX_STATIC_SMEM_LIMIT);
	}
	return 0;
}

unsigned wx_shared_bytes(const tp_params *p) { return p->tm * p->tn * 2; }

unsigned wx_shared_pitch(const tp_params *p) { return (strcmp(kind_of(p)->major, "in") ? p->tm : p->tn) * 2; }

void wx_header(const tp_params *p, strbuf *h)
{
	const wx_kind *k = kind_of(p);
	wx x;
	memset(&x, 0, sizeof x);
	geometry(&x, p);
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. A study kernel of the %s family: each warp\n"
		     "// moves %u units of %ux%u of a %ux%u tile.\n%s"
		     "// Interior tiles with 16-byte aligned pointers and pitches take that path;\n"
		     "// every other tile moves element by element, predicated. Design:\n"
		     "// gen/tp_warp.h. Kernel ABI v%u (docs/DESIGN.md): a block steps by the grid\n"
		     "// over tile columns, tile rows and matrices, so any grid covers any shape.\n",
		  p->elem, p->family->name, x.UPT, x.UR, x.UC, p->tm, p->tn, k->how, p->abi);
	sb_printf(h, "//\n// ptxpose kernel=%s abi=%u elem=%u grid=tile tile=%ux%u block=%ux%u\n", p->name, p->abi,
		  p->elem, p->tm, p->tn, p->tx, p->ty);
	sb_printf(h, "// ptxpose vec=%u", 128 / p->elem);
	if (k->major)
		sb_printf(h, " smem=swizzle major=%s smem_bytes=%u pitch=%u swizzle=7", k->major, wx_shared_bytes(p),
			  wx_shared_pitch(p));
	else
		sb_printf(h, " smem=none");
	sb_printf(h, " per_thread=%u", x.UPT * x.NLD * 16 / x.es);
	if (p->group)
		sb_printf(h, " group=%u", p->group);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
	/* for the plan (lib/README.md): no realigned path; study kernels are
	 * timed when named, never picked by the heuristic plan */
	sb_printf(h, "// ptxpose family=%s study=1 fast_align=16 realign=none", p->family->name);
	if (strcmp(p->family->target, TP_TARGET))
		sb_printf(h, " target=%s", p->family->target);
	sb_addc(h, '\n');
	if (k->model)
		k->model(p, h);
}

void wx_unit_delta(const wx *x, unsigned i, unsigned *drow, unsigned *dcol)
{
	unsigned ur, uc;
	if (x->NC % x->W == 0) { /* the warps side by side along a row of units */
		unsigned per = x->NC / x->W;
		ur = i / per, uc = x->W * (i % per);
	} else {                 /* rows of units: W/NC of them at a time */
		ur = x->W / x->NC * i, uc = 0;
	}
	*drow = ur * x->UR, *dcol = uc * x->UC;
}

void wx_warp_unit(wx *x, const char **ur, const char **uc)
{
	ptxb *b = x->e.b;
	*ur = ptxb_reg(b, "b32", "the warp's first unit: its first row in the tile", "unit_r");
	*uc = ptxb_reg(b, "b32", "... and its first column", "unit_c");
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", *ur, x->warp, tp_lg2(x->NC));
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", *ur, *ur, tp_lg2(x->UR));
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", *uc, x->warp, x->NC - 1);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", *uc, *uc, tp_lg2(x->UC));
}

const char *wx_reg_name(const wx *x, const char *prefix, unsigned i)
{
	char nm[32];
	snprintf(nm, sizeof nm, "%s%u", prefix, i);
	return ptxb_find(x->e.b, nm);
}

void wx_quad_declare(wx *x)
{
	ptxb *b = x->e.b;
	x->lane = ptxb_reg(b, "b32", "lane", "lane");
	x->warp = ptxb_reg(b, "b32", "warp", "warp");
	x->bit0 = ptxb_reg(b, "pred", "lane bit 0 (odd lanes of a quad)", "lane_bit0");
	x->bit1 = ptxb_reg(b, "pred", "lane bit 1 (upper half of a quad)", "lane_bit1");
	x->qs[0] = ptxb_reg(b, "b32", "quad transpose: the words a lane sends", "q_send0");
	x->qs[1] = ptxb_reg(b, "b32", NULL, "q_send1");
	x->qt[0] = ptxb_reg(b, "b32", "quad transpose: the words a lane receives", "q_recv0");
	x->qt[1] = ptxb_reg(b, "b32", NULL, "q_recv1");
}

void wx_quad_setup(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	ptxb_op(b, NULL, "and.b32", "%s, %s, 31", x->lane, e->t);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, 5", x->warp, e->t);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 1", e->tmp, x->lane);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", x->bit0, e->tmp);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 2", e->tmp, x->lane);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", x->bit1, e->tmp);
}

void wx_quad_xpose(wx *x, const char *const r[4])
{
	ptxb *b = x->e.b;
	const char *s0 = x->qs[0], *s1 = x->qs[1], *t0 = x->qt[0], *t1 = x->qt[1];
	/* lanes 0,1 of a quad swap their words 2,3 for lanes 2,3's words 0,1 */
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s0, r[0], r[2], x->bit1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s1, r[1], r[3], x->bit1);
	ptxb_op(b, NULL, "shfl.sync.bfly.b32", "%s, %s, 2, 0x1f, 0xffffffff", t0, s0);
	ptxb_op(b, NULL, "shfl.sync.bfly.b32", "%s, %s, 2, 0x1f, 0xffffffff", t1, s1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[0], t0, r[0], x->bit1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[1], t1, r[1], x->bit1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[2], r[2], t0, x->bit1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[3], r[3], t1, x->bit1);
	/* then within each pair: even lanes' words 1,3 for odd lanes' words 0,2 */
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s0, r[0], r[1], x->bit0);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s1, r[2], r[3], x->bit0);
	ptxb_op(b, NULL, "shfl.sync.bfly.b32", "%s, %s, 1, 0x1f, 0xffffffff", t0, s0);
	ptxb_op(b, NULL, "shfl.sync.bfly.b32", "%s, %s, 1, 0x1f, 0xffffffff", t1, s1);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[0], t0, r[0], x->bit0);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[1], r[1], t0, x->bit0);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[2], t1, r[2], x->bit0);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", r[3], r[3], t1, x->bit0);
}

/* The lane's base address `rows` rows further (b64): a register per
 * distinct row offset and side, made on first use in the tile. */
static const char *row_addr(wx *x, wx_rows *c, const char *tag, const char *base, const char *pitch,
			    unsigned rows)
{
	if (!rows)
		return base;
	for (unsigned i = 0; i < c->n; i++)
		if (c->rows[i] == rows)
			return c->reg[i];
	ptxb *b = x->e.b;
	char nm[32];
	snprintf(nm, sizeof nm, "%s_row%u", tag, rows);
	const char *r = ptxb_find(b, nm);
	if (!r)
		r = ptxb_reg(b, "b64", NULL, "%s", nm);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %u, %s", r, pitch, rows, base);
	c->rows[c->n] = rows, c->reg[c->n++] = r;
	return r;
}

void wx_granule(wx *x, int store, const char *const w[4], unsigned rows, unsigned cols)
{
	char a[64];
	const char *base = store ? x->sta : x->lda, *pitch = store ? x->pout : x->pin;
	const char *r = row_addr(x, &x->rc[store], store ? "st" : "ld", base, pitch, rows);
	if (!w)
		return;
	tp_addr(a, sizeof a, r, cols * x->es);
	if (store)
		ptxb_op(x->e.b, NULL, "st.global.v4.b32", "%s, {%s, %s, %s, %s}", a, w[0], w[1], w[2], w[3]);
	else
		ptxb_op(x->e.b, NULL, "ld.global.v4.b32", "{%s, %s, %s, %s}, %s", w[0], w[1], w[2], w[3], a);
}

void wx_global(wx *x, int store, unsigned krow, unsigned kcol)
{
	for (int pass = 0; pass < 2; pass++) /* the addresses, then the accesses */
		for (unsigned i = 0; i < x->UPT; i++)
			for (unsigned k = 0; k < x->NLD; k++) {
				unsigned dr, dc;
				wx_unit_delta(x, i, &dr, &dc);
				const char *const *w = pass ? x->d[i][k] : NULL;
				/* input: rows dr + k*krow, columns dc; output: rows dc, columns dr + k*kcol */
				if (store)
					wx_granule(x, 1, w, dc, dr + k * kcol);
				else
					wx_granule(x, 0, w, dr + k * krow, dc);
			}
}

void wx_quads_then_stores(wx *x)
{
	ptxb_group(x->e.b, "Quad transposes: the fragments become 16-byte granules of output rows.");
	for (unsigned i = 0; i < x->UPT; i++)
		wx_quad_xpose(x, x->d[i][0]);
	ptxb_group(x->e.b, "The stores: one granule a unit.");
	wx_global(x, 1, 0, 0);
}

/* dst = base + ((row0 [+ row]) * ld + col0 [+ col]) * es; row and col
 * may be NULL. */
static void lane_addr(wx *x, const char *dst, const char *base, const char *row0, const char *row,
		      const char *col0, const char *col, const char *ld)
{
	ptxb *b = x->e.b;
	const char *t = x->e.tmp;
	if (row)
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, row0, row);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", dst, row ? t : row0, ld);
	if (col)
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, col0, col);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", x->t64, col ? t : col0);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, x->t64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, tp_lg2(x->es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, base);
}

static void declare(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	wx_quad_declare(x);
	x->ldr = ptxb_reg(b, "b32", "this lane's first input row in unit 0 (loads)", "ld_r");
	x->ldc = ptxb_reg(b, "b32", "this lane's first input column in unit 0 (loads)", "ld_c");
	x->str = ptxb_reg(b, "b32", "this lane's output row in unit 0 (stores)", "st_r");
	x->stc = ptxb_reg(b, "b32", "this lane's first output column in unit 0 (stores)", "st_c");
	x->pin = ptxb_reg(b, "b64", "input row pitch in bytes", "ld_pitch");
	x->pout = ptxb_reg(b, "b64", "output row pitch in bytes", "st_pitch");
	x->lda = ptxb_reg(b, "b64", "this lane's load address in unit 0 of the tile", "ld_base");
	x->sta = ptxb_reg(b, "b64", "this lane's store address in unit 0 of the tile", "st_base");
	x->t64 = ptxb_reg(b, "b64", NULL, "t64");
	e->tmp = ptxb_reg(b, "b32", "scratch", "t");
	for (unsigned i = 0; i < x->UPT; i++)
		for (unsigned k = 0; k < x->NLD; k++)
			for (unsigned u = 0; u < 4; u++)
				x->d[i][k][u] = ptxb_reg(b, "b32", i + k + u ? NULL : "unit i, granule k, word u",
							 "d%u_%u_%u", i, k, u);
}

/* What depends on the thread alone: lane, warp, quad bits, pitches. */
static void setup_thread(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	ptxb_group(b, "Lane, warp and the lane's place in its quad; the row pitches in bytes.");
	wx_quad_setup(x);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", x->pin, e->ld_in, x->es);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", x->pout, e->ld_out, x->es);
}

/* Every tile but an interior, aligned one: element by element, each thread
 * the elements t, t + T, ... of the tile (consecutive threads along an input
 * row), predicated on the matrix's extent. Every thread runs the loop the
 * same number of times (T divides the tile). */
static void edge_path(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	const tp_params *p = e->p;
	const char *idx = ptxb_reg(b, "b32", "edge path: element of the tile", "edge_i");
	const char *r = ptxb_reg(b, "b32", "edge path: its input row", "edge_r");
	const char *c = ptxb_reg(b, "b32", "edge path: its input column", "edge_c");
	const char *a = ptxb_reg(b, "b64", "edge path: its address", "edge_a");
	const char *v = ptxb_reg(b, "b32", "edge path: the element", "edge_v");
	const char *in = ptxb_reg(b, "pred", "edge path: the element is inside the matrix", "edge_in");
	const char *more = ptxb_reg(b, "pred", "edge path: more elements", "edge_more");
	char op[32];
	ptxb_label(b, "EDGE");
	ptxb_note(b, "an edge tile, or pointers or pitches off 16-byte alignment: one predicated element at a time");
	ptxb_op(b, NULL, "mov.u32", "%s, %s", idx, e->t);
	ptxb_label(b, "EDGE_ELEMENT");
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", r, idx, tp_lg2(p->tn));
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", r, r, e->r0);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", c, idx, p->tn - 1);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", c, c, e->c0);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", in, r, e->rows);
	ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", in, c, e->cols, in);
	lane_addr(x, a, e->in, r, NULL, c, NULL, e->ld_in);
	snprintf(op, sizeof op, "ld.global.b%u", 8 * x->es);
	ptxb_op(b, in, op, "%s, [%s]", v, a);
	lane_addr(x, a, e->out, c, NULL, r, NULL, e->ld_out);
	snprintf(op, sizeof op, "st.global.b%u", 8 * x->es);
	ptxb_op(b, in, op, "[%s], %s", a, v);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", idx, idx, x->T);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %u", more, idx, p->tm * p->tn);
	ptxb_op(b, more, "bra.uni", "EDGE_ELEMENT");
}

/* The lane's load and store addresses in unit 0 of this tile. */
static void tile_addrs(wx *x)
{
	em *e = &x->e;
	ptxb_group(e->b, "The lane's load and store addresses in its warp's first unit of this tile.");
	memset(x->rc, 0, sizeof x->rc);
	lane_addr(x, x->lda, e->in, e->r0, x->ldr, e->c0, x->ldc, e->ld_in);
	lane_addr(x, x->sta, e->out, e->c0, x->str, e->r0, x->stc, e->ld_out);
}

int wx_emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	const wx_kind *k = kind_of(p);
	static wx x; /* large; the generator is single-threaded */
	memset(&x, 0, sizeof x);
	geometry(&x, p);
	static tp_geom g;
	memset(&g, 0, sizeof g);
	g.es = x.es, g.v = 16 / x.es, g.gbytes = 16;
	em *e = &x.e;
	e->p = p, e->g = &g;
	e->shared = k->major != NULL; /* the walk's barrier before the shared tile is reused */
	if (!(e->b = ptxb_new())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e->b;
	tp_setup(e);
	declare(&x);
	setup_thread(&x);
	k->lanes(&x);
	tp_walk_begin(e);
	const char *lim = ptxb_reg(b, "b32", "tile end, for the interior test", "tile_end");
	const char *fast = ptxb_reg(b, "pred", "interior, pointers and pitches 16-byte aligned", "fast");
	ptxb_group(b, "Interior tiles whose rows are 16-byte aligned take the warp's path; other tiles the element path.");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", lim, e->r0, p->tm);
	ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %s", fast, lim, e->rows);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", lim, e->c0, p->tn);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", fast, lim, e->cols, fast);
	ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", fast, e->align, fast);
	char notfast[40];
	snprintf(notfast, sizeof notfast, "!%s", fast);
	ptxb_op(b, notfast, "bra.uni", "EDGE");
	tile_addrs(&x);
	k->tile(&x);
	ptxb_op(b, NULL, "bra.uni", "TILE_DONE");
	edge_path(&x);
	tp_walk_end(e);
	return tp_finish(b, p, header, p->ty, out, err, errlen);
}
