/* tp_packed: what 1- and 2-byte elements need beyond the others. They travel
 * packed in 32-bit words, so a block is transposed in registers with prmt
 * (tp_emit_xpose). And on interior tiles whose rows are not word-aligned
 * (an odd leading dimension, a pointer off alignment), instead of one byte
 * per access, the loads read aligned 32-bit words and
 * shift them into place with prmt (a funnel shift by the row's byte
 * offset); the stores build aligned words of the output row from the
 * thread's granule and the first word of the next one in shared memory, and
 * only the few bytes at each end of a tile's output row go out one by one. */
#include <stdio.h>

#include "gen/tp_tile.h"

/* Packed elements: turn row words into column words with prmt. A 4x4 byte
 * block takes 8 prmt (pairs of rows interleaved, then pairs of pairs); a
 * 2x2 block of halves takes 2. */
void tp_emit_xpose(em *e)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	if (g->es >= 4)
		return;
	ptxb_group(b, "Transpose the packed %u-bit elements in registers (prmt), %ux%u per step.",
		   8 * g->es, e->epw, e->epw);
	const char *t[4];
	for (int i = 0; i < 4 && g->es == 1; i++)
		t[i] = ptxb_reg(b, "b32", i ? NULL : "byte pairs interleaved from two rows", "pair%d", i);
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned r = 0; r < g->v; r += e->epw)      /* a group of epw rows */
			for (unsigned w = 0; w < e->na; w++) {    /* the word column in them */
				unsigned col = w * e->epw, ow = r / e->epw;
				if (g->es == 2) {
					const char *a = e->xr[k][r][w], *c = e->xr[k][r + 1][w];
					ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", e->xc[k][col][ow], a, c);
					ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", e->xc[k][col + 1][ow], a, c);
					continue;
				}
				const char *x0 = e->xr[k][r][w], *x1 = e->xr[k][r + 1][w];
				const char *x2 = e->xr[k][r + 2][w], *x3 = e->xr[k][r + 3][w];
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5140", t[0], x0, x1);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5140", t[1], x2, x3);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7362", t[2], x0, x1);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7362", t[3], x2, x3);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", e->xc[k][col][ow], t[0], t[1]);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", e->xc[k][col + 1][ow], t[0], t[1]);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", e->xc[k][col + 2][ow], t[2], t[3]);
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", e->xc[k][col + 3][ow], t[2], t[3]);
			}
}

/* Shared-memory stores (phase 0) or loads (phase 1), addresses first. */

int tp_realign_loads(const em *e) { return e->g->es < 4; }

int tp_realign_stores(const em *e)
{
	return e->g->es < 4 && tp_tile_of(e->p)->smem != TP_SMEM_NONE && !tp_tile_of(e->p)->major_in;
}

/* prmt selector taking bytes off..off+3 of {hi:lo}: 0x3210 + off*0x1111. */
void tp_prmt_selector(ptxb *b, const char *sel, const char *off)
{
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, 0x1111, 0x3210", sel, off);
}

/* d = (A - (row & (A-1))) & (A-1): the bytes from a row's start to its
 * first A-aligned address (A a power of two). */
void tp_row_gap(ptxb *b, const char *d, const char *row, unsigned A)
{
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", d, row);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", d, d, A - 1);
	ptxb_op(b, NULL, "xor.b32", "%s, %s, %u", d, d, A - 1);
	ptxb_op(b, NULL, "add.u32", "%s, %s, 1", d, d);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", d, d, A - 1);
}

void tp_emit_realign_loads(em *e, const gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	const char *sel[256] = {0}, *base[256] = {0};
	const char *lo = ptxb_reg(b, "b32", "a row address's byte offset in its word", "rl_off");
	const char *w[5];
	for (unsigned i = 0; i <= e->na; i++)
		w[i] = ptxb_reg(b, "b32", i ? NULL : "aligned words around one access", "rl_w%u", i);
	ptxb_note(b, "aligned words, shifted into place by the row's byte offset");
	char a[64], op[64];
	snprintf(op, sizeof op, "%s.b32", e->ldop);
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned j = 0; j < g->v; j++) {
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, j, &mrow, &ncol);
			if (!sel[mrow]) {
				sel[mrow] = ptxb_reg(b, "b32", NULL, "rl_sel%u", mrow);
				base[mrow] = ptxb_reg(b, "b64", NULL, "rl_base%u", mrow);
				ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", lo, s->row[mrow]);
				ptxb_op(b, NULL, "and.b32", "%s, %s, 3", lo, lo);
				tp_prmt_selector(b, sel[mrow], lo);
				ptxb_op(b, NULL, "and.b64", "%s, %s, 0xfffffffffffffffc", base[mrow], s->row[mrow]);
			}
			for (unsigned i = 0; i <= e->na; i++)
				ptxb_op(b, NULL, op, "%s, %s", w[i], tp_addr(a, sizeof a, base[mrow], ncol * g->es + 4 * i));
			for (unsigned u = 0; u < e->na; u++)
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, %s", e->xr[k][j][u], w[u], w[u + 1], sel[mrow]);
		}
}

/* The shared address (into sa) of the granule after block (da, db)'s
 * column c in its output row, clamped to the row's last granule: the
 * realigning stores build a row's aligned words across the two. */
void tp_next_granule(em *e, const char *tag, const char *a0, const char *rb0, const char *nb,
		     unsigned da, unsigned db, unsigned c, const char *sa)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	unsigned cr = tp_srow(g, da * g->v + c);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", nb, rb0, db + 1);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", nb, nb, g->sgran - 1);
	tp_smem_addr(e, tag, a0, nb, cr, 0, sa);
}

void tp_emit_realign_stores(em *e, const gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	const tp_map *m = &g->wr;
	/* the shared-load phase's block registers (emit_smem, tag "sl") */
	const char *a0 = ptxb_find(b, "sl_bcol"), *rb0 = ptxb_find(b, "sl_brow");
	const char *strb = ptxb_find(b, "st_brow");
	const char *nb = ptxb_reg(b, "b32", "the next granule column, clamped to the row", "rs_next");
	const char *sa = ptxb_reg(b, "b32", "its shared address", "rs_addr");
	const char *nx = ptxb_reg(b, "b32", "first word of the next granule", "rs_nx");
	const char *d = ptxb_reg(b, "b32", "bytes from a row's start to its first aligned word", "rs_skip");
	const char *sel = ptxb_reg(b, "b32", "prmt selector of the shift", "rs_sel");
	const char *wd = ptxb_reg(b, "b32", "an aligned output word", "rs_word");
	const char *ws = ptxb_reg(b, "b64", "the row's first aligned word address", "rs_base");
	const char *d64 = ptxb_reg(b, "b64", NULL, "rs_skip64");
	const char *dnz = ptxb_reg(b, "pred", "the row is not word-aligned", "rs_shifted");
	const char *end = ptxb_reg(b, "pred", "last granule of a shifted row: its last word is partial", "rs_tail");
	const char *head = ptxb_reg(b, "pred", "first granule of a shifted row: the row's head bytes", "rs_head");
	const char *p = ptxb_reg(b, "pred", NULL, "rs_byte");
	ptxb_note(b, "aligned words built across granules; the bytes at each end of a row one by one");
	char a[64], op[64], guard[48];
	snprintf(op, sizeof op, "%s.b32", e->stop);
	for (unsigned k = 0; k < g->k; k++) {
		unsigned da = m->dc[k], db = m->dr[k];
		for (unsigned c = 0; c < g->v; c++) {
			tp_next_granule(e, "rs", a0, rb0, nb, da, db, c, sa);
			ptxb_op(b, NULL, "ld.shared.b32", "%s, [%s]", nx, sa);
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, c, &mrow, &ncol);
			const char *row = s->row[mrow];
			tp_row_gap(b, d, row, 4);
			tp_prmt_selector(b, sel, d);
			ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", d64, d);
			ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ws, row, d64);
			ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", dnz, d);
			/* granule column of this access: st_brow + db */
			ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, %u, %s", end, strb, g->sgran - 1 - db, dnz);
			for (unsigned u = 0; u < e->na; u++) {
				const char *next = u + 1 < e->na ? e->xc[k][c][u + 1] : nx;
				ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, %s", wd, e->xc[k][c][u], next, sel);
				tp_addr(a, sizeof a, ws, ncol * g->es + 4 * u);
				snprintf(guard, sizeof guard, "!%s", end);
				ptxb_op(b, u + 1 < e->na ? NULL : guard, op, "%s, %s", a, wd);
			}
			const char *last = e->xc[k][c][e->na - 1];
			for (unsigned q = 1; q < 4; q++) {
				ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %u, %s", p, d, q, end);
				ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", wd, last, 8 * q);
				ptxb_op(b, p, "st.global.b8", "%s, %s", tp_addr(a, sizeof a, row, ncol * g->es + g->gbytes - 4 + q), wd);
			}
			if (db)
				continue; /* only blocks in the tile's first granule column hold a row's head */
			ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", head, strb, dnz);
			for (unsigned q = 0; q < 3; q++) {
				ptxb_op(b, NULL, "setp.gt.and.u32", "%s, %s, %u, %s", p, d, q, head);
				ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", wd, e->xc[k][c][0], 8 * q);
				ptxb_op(b, p, "st.global.b8", "%s, %s", tp_addr(a, sizeof a, row, ncol * g->es + q), wd);
			}
		}
	}
}
