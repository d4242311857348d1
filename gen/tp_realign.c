/* tp_realign: whole-granule realignment for 1- and 2-byte elements on rows
 * off alignment (wide_realign). A granule is A = 8 or 16 bytes, the width
 * of the kernel's vector accesses.
 *
 * Loads: each access reads the A-aligned granule under it and the next one
 * as two vector loads, and shifts the pair by the row's offset off (0 to
 * A-1 bytes): whole words by selp (off / 4), then bytes by prmt (off % 4).
 * Consecutive lanes read consecutive aligned granules, so a warp's request
 * is whole sectors; the word-wise path (tp_packed.c) made na + 1 scalar
 * loads an access, 4 bytes apart.
 *
 * Stores: each thread stores one A-aligned vector built from its granule
 * and the next one of the output row (from shared memory), shifted by the
 * distance d from the row's start to the next aligned address. The
 * thread with the tile row's last granule stores only the part of its window
 * inside the tile (whole words, then bytes), and the thread with its first
 * granule the d bytes before the first aligned address; both take a branch
 * of their own, so that the other lanes issue none of it.
 *
 * Like the word-wise loads, the loads read outside a row: up to A - 1 bytes
 * before it and up to A bytes after it (the next granule is read whole, even
 * where a row's offset is 0 and it goes unused): the caller keeps them off a
 * matrix's first and last tile rows. */
#include <stdio.h>

#include "gen/tp_tile.h"

int tp_wide_realign(const em *e) { return tp_tile_of(e->p)->wide_realign; }

/* S[0..na] = W[q .. q + na] for q = (off >> 2) in 0 .. na - 1, by a selp tree
 * over the bits of q (p4: bit 2 of off; p8: bit 3). */
static void shift_words(em *e, const char *const *w, const char *const *s, const char *p4, const char *p8,
			const char *const *t)
{
	ptxb *b = e->b;
	unsigned na = e->na;
	const char *const *src = w;
	if (na == 4) {
		for (unsigned j = 0; j < 6; j++)
			ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", t[j], w[j + 2], w[j], p8);
		src = t;
	}
	for (unsigned j = 0; j <= na; j++)
		ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s[j], src[j + 1], src[j], p4);
}

/* From an offset register (0 .. A-1): the prmt selector and the two word-shift predicates. */
static void offset_parts(em *e, const char *off, const char *sel, const char *p4, const char *p8,
			 const char *tmp)
{
	ptxb *b = e->b;
	ptxb_op(b, NULL, "and.b32", "%s, %s, 3", tmp, off);
	tp_prmt_selector(b, sel, tmp);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 4", tmp, off);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", p4, tmp);
	if (e->na == 4) {
		ptxb_op(b, NULL, "and.b32", "%s, %s, 8", tmp, off);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", p8, tmp);
	}
}

void tp_wide_declare(em *e, tp_wregs *r, const char *tag)
{
	ptxb *b = e->b;
	for (unsigned i = 0; i < 2 * e->na; i++)
		r->w[i] = ptxb_reg(b, "b32", i ? NULL : "a granule and the next, aligned", "%s_w%u", tag, i);
	if (e->na == 4)
		for (unsigned i = 0; i < 6; i++)
			r->t[i] = ptxb_reg(b, "b32", i ? NULL : "shifted by two words or not", "%s_t%u", tag, i);
	for (unsigned i = 0; i <= e->na; i++)
		r->s[i] = ptxb_reg(b, "b32", i ? NULL : "shifted by whole words", "%s_s%u", tag, i);
	r->tmp = ptxb_reg(b, "b32", NULL, "%s_tmp", tag);
	r->off = ptxb_reg(b, "b32", "bytes of the shift", "%s_off", tag);
	r->sel = ptxb_reg(b, "b32", "prmt selector of the byte shift", "%s_sel", tag);
	r->p4 = ptxb_reg(b, "pred", "shift by one word", "%s_p4", tag);
	r->p8 = e->na == 4 ? ptxb_reg(b, "pred", "shift by two words", "%s_p8", tag) : NULL;
}

void tp_wide_shift(em *e, const tp_wregs *r, const char *const *dst)
{
	offset_parts(e, r->off, r->sel, r->p4, r->p8, r->tmp);
	shift_words(e, r->w, r->s, r->p4, r->p8, r->t);
	for (unsigned u = 0; u < e->na; u++)
		ptxb_op(e->b, NULL, "prmt.b32", "%s, %s, %s, %s", dst[u], r->s[u], r->s[u + 1], r->sel);
}

void tp_emit_wide_loads(em *e, const gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	unsigned A = g->gbytes, na = e->na;
	tp_wregs r;
	tp_wide_declare(e, &r, "wl");
	const char *base = ptxb_reg(b, "b64", "the row's address rounded down to a granule", "wl_base");
	ptxb_note(b, "aligned granules, shifted into place by the row's offset in its granule");
	char op[48], a[64], list[160];
	tp_unit_op(op, sizeof op, e->ldop, na, "b32");
	for (unsigned k = 0; k < g->k; k++)
		for (unsigned j = 0; j < g->v; j++) {
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, j, &mrow, &ncol);
			const char *row = s->row[mrow];
			ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", r.off, row);
			ptxb_op(b, NULL, "and.b32", "%s, %s, %u", r.off, r.off, A - 1);
			ptxb_op(b, NULL, "and.b64", "%s, %s, %lld", base, row, -(long long)A);
			for (unsigned h = 0; h < 2; h++) {
				int n = 0;
				list[0] = '\0';
				for (unsigned u = 0; u < na; u++)
					n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", u ? ", " : "", r.w[h * na + u]);
				tp_addr(a, sizeof a, base, ncol * g->es + h * A);
				ptxb_op(b, NULL, op, "{%s}, %s", list, a);
			}
			tp_wide_shift(e, &r, e->xr[k][j]);
		}
}

/* The part of a window inside the tile row when its window runs past it:
 * lim = A - d bytes (1 .. A-1), whole words first, then bytes. */
static void store_tail(em *e, const tp_wregs *r, const char *ws, unsigned col, const char *lim,
		       const char *p)
{
	ptxb *b = e->b;
	char a[64];
	for (unsigned u = 0; u < e->na; u++) {
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %u", p, lim, 4 * u + 4);
		ptxb_op(b, p, "st.global.b32", "%s, %s", tp_addr(a, sizeof a, ws, col + 4 * u), r->s[u]);
		for (unsigned i = 0; i < 3; i++) {
			/* byte i of word u, in a word the window's part only starts */
			ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, %u", p, lim, 4 * u + i);
			ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %u, %s", p, lim, 4 * u + 4, p);
			ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", r->tmp, r->s[u], 8 * i);
			ptxb_op(b, p, "st.global.b8", "%s, %s", tp_addr(a, sizeof a, ws, col + 4 * u + i), r->tmp);
		}
	}
}

/* The d bytes (1 .. A-1) before a row's first aligned address, bytes 0 ..
 * d-1 of the thread's granule: as at most four aligned pieces (a byte, a
 * half, a word, two words), each a store of its own, so that the head costs
 * the memory system at most four requests instead of d. */
static void emit_head(em *e, const tp_wregs *r, const char *row, unsigned col, const char *p)
{
	ptxb *b = e->b;
	unsigned A = e->g->gbytes;
	const char *at = ptxb_find(b, "wh_at");
	if (!at) {
		at = ptxb_reg(b, "b64", "a head piece's address", "wh_at");
		ptxb_reg(b, "b64", NULL, "wh_off64");
		ptxb_reg(b, "b32", "a head piece's byte offset in the granule", "wh_off");
		ptxb_reg(b, "b32", NULL, "wh_sel");
		for (unsigned i = 0; i < 4; i++)
			ptxb_reg(b, "b32", i ? NULL : "head pieces", "wh_v%u", i);
		ptxb_reg(b, "pred", "the two-word piece starts in the granule's second word", "wh_hi");
	}
	const char *o64 = ptxb_find(b, "wh_off64"), *o = ptxb_find(b, "wh_off"), *sl = ptxb_find(b, "wh_sel");
	const char *hi = ptxb_find(b, "wh_hi");
	const char *v[4] = {ptxb_find(b, "wh_v0"), ptxb_find(b, "wh_v1"), ptxb_find(b, "wh_v2"), ptxb_find(b, "wh_v3")};
	char a[64];
	for (unsigned piece = 1; piece < A; piece *= 2) {
		/* there if d has the piece's bit; it starts at o = d & (piece - 1),
		 * row + col + o aligned to the piece's size */
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", o, r->off, piece);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", p, o);
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", o, r->off, piece - 1);
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", o64, o);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", at, row, o64);
		tp_addr(a, sizeof a, at, col);
		ptxb_op(b, NULL, "and.b32", "%s, %s, 3", sl, o);
		tp_prmt_selector(b, sl, sl);
		if (piece < 8) { /* o < 4: bytes o .. o + piece - 1 lie in words 0 and 1 */
			ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, %s", v[0], r->w[0], r->w[1], sl);
			ptxb_op(b, p, piece == 1 ? "st.global.b8" : piece == 2 ? "st.global.b16" : "st.global.b32",
				"%s, %s", a, v[0]);
			continue;
		}
		/* o < 8: bytes o .. o + 7 from words o / 4 .. o / 4 + 2 */
		for (unsigned i = 0; i < 3; i++)
			ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, %s", v[i], r->w[i], r->w[i + 1], sl);
		ptxb_op(b, NULL, "and.b32", "%s, %s, 4", o, o);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", hi, o);
		ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", v[3], v[2], v[1], hi);
		ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", v[0], v[1], v[0], hi);
		ptxb_op(b, p, "st.global.v2.b32", "%s, {%s, %s}", a, v[0], v[3]);
	}
}

void tp_emit_wide_stores(em *e, const gside *s)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	const tp_map *m = &g->wr;
	unsigned A = g->gbytes, na = e->na;
	tp_wregs r;
	tp_wide_declare(e, &r, "ws");
	/* the shared-load phase's block registers (emit_smem, tag "sl") */
	const char *a0 = ptxb_find(b, "sl_bcol"), *rb0 = ptxb_find(b, "sl_brow");
	const char *strb = ptxb_find(b, "st_brow");
	const char *nb = ptxb_reg(b, "b32", "the next granule column, clamped to the row", "ws_next");
	const char *sa = ptxb_reg(b, "b32", "its shared address", "ws_addr");
	const char *ws = ptxb_reg(b, "b64", "the row's first aligned address", "ws_base");
	const char *d64 = ptxb_reg(b, "b64", NULL, "ws_off64");
	const char *lim = ptxb_reg(b, "b32", "bytes of the window inside the tile row", "ws_lim");
	const char *p = ptxb_reg(b, "pred", NULL, "ws_p");
	const char *cut = ptxb_reg(b, "pred", "last granule of a shifted row: the window runs past the tile", "ws_cut");
	ptxb_note(b, "aligned windows built across granules; each end of a tile row in parts");
	char op[48], sop[48], a[64], list[160], l_full[48], l_done[48], l_head[48];
	tp_unit_op(op, sizeof op, e->stop, na, "b32");
	tp_unit_op(sop, sizeof sop, "ld.shared", na, "b32");
	for (unsigned k = 0; k < g->k; k++) {
		unsigned da = m->dc[k], db = m->dr[k];
		for (unsigned c = 0; c < g->v; c++) {
			tp_next_granule(e, "ws", a0, rb0, nb, da, db, c, sa);
			int n = 0;
			list[0] = '\0';
			for (unsigned u = 0; u < na; u++) {
				n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", u ? ", " : "", r.w[na + u]);
				ptxb_op(b, NULL, "mov.b32", "%s, %s", r.w[u], e->xc[k][c][u]);
			}
			ptxb_op(b, NULL, sop, "{%s}, [%s]", list, sa);
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, c, &mrow, &ncol);
			const char *row = s->row[mrow];
			unsigned col = ncol * g->es;
			tp_row_gap(b, r.off, row, A);
			tp_wide_shift(e, &r, r.s);
			ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", d64, r.off);
			ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ws, row, d64);
			ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", p, r.off);
			ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, %u, %s", cut, strb, g->sgran - 1 - db, p);
			snprintf(l_full, sizeof l_full, "WS_FULL_%u_%u", k, c);
			snprintf(l_done, sizeof l_done, "WS_DONE_%u_%u", k, c);
			snprintf(l_head, sizeof l_head, "WS_HEAD_%u_%u", k, c);
			char notcut[40];
			snprintf(notcut, sizeof notcut, "!%s", cut);
			ptxb_op(b, notcut, "bra", "%s", l_full);
			ptxb_op(b, NULL, "sub.u32", "%s, %u, %s", lim, A, r.off);
			store_tail(e, &r, ws, col, lim, p);
			ptxb_op(b, NULL, "bra", "%s", l_done);
			ptxb_label(b, l_full);
			list[0] = '\0';
			n = 0;
			for (unsigned u = 0; u < na; u++)
				n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", u ? ", " : "", r.s[u]);
			ptxb_op(b, NULL, op, "%s, {%s}", tp_addr(a, sizeof a, ws, col), list);
			ptxb_label(b, l_done);
			if (db)
				continue; /* only blocks in the tile's first granule column hold a row's head */
			/* head: bytes [row + col, row + col + d) of the thread's own granule */
			ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", p, r.off);
			ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", p, strb, p);
			char notp[40];
			snprintf(notp, sizeof notp, "!%s", p);
			ptxb_op(b, notp, "bra", "%s", l_head);
			emit_head(e, &r, row, col, p);
			ptxb_label(b, l_head);
		}
	}
}
