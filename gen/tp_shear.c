/* tp_shear: the stores of a sheared kernel (the shear parameter, Q bytes,
 * with wide_realign).
 *
 * Without it, the block of tile row r writes elements [r, r + tm) of each
 * output row, so where output rows are off alignment the segment of every
 * tile row starts and ends inside a sector that two blocks write, in
 * pieces. A sheared kernel's tile rows start S = tm - Q/es rows apart (the
 * walk, tp_walk.c) and overlap by Q/es rows. On an interior tile off
 * alignment the block writes, of each output row, the S*es bytes from the
 * first Q-aligned address at or after element r: the row's head gap is D
 * bytes (0 .. Q-1), so its window g (A bytes, A = the access) starts D + g*A
 * bytes in, in shared-memory granules g + D/A and the next, shifted by D % A
 * (tp_wide_shift). Element r + S + D/es - 1 is the last one written, which
 * lies inside the tile because D/es < Q/es. Consecutive tile rows meet at a
 * Q-aligned address (S*es is a multiple of Q), so no sector of the output
 * row's inside is written by two blocks.
 *
 * The ends. The matrix's first tile row also writes the D bytes before its
 * first window, from its own granules, one predicated element at a time.
 * Every tile that is not an interior one off alignment (aligned, or an edge
 * tile) writes its whole tile as before: rows overlapping the tile row before
 * it get the same bytes twice, which is harmless, and a tile row after one of
 * those is never sheared, because a tile row is interior only when the tile
 * row before it is. */
#include <stdio.h>

#include "gen/tp_tile.h"

void tp_emit_sheared_stores(em *e, const gside *s)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	const tp_geom *g = e->g;
	const tp_map *m = &g->wr;
	unsigned A = g->gbytes, na = e->na, Q = tp_tile_of(p)->shear;
	unsigned windows = tp_row_step(p) * g->es / A; /* of an output row */
	tp_wregs r;
	tp_wide_declare(e, &r, "wz");
	/* the shared-load phase's block registers (emit_smem, tag "sl") */
	const char *a0 = ptxb_find(b, "sl_bcol"), *rb0 = ptxb_find(b, "sl_brow");
	const char *strb = ptxb_find(b, "st_brow");
	const char *gap = ptxb_reg(b, "b32", "bytes from the tile row's start in an output row to its first"
				   " shear-aligned address", "wz_gap");
	const char *gq = ptxb_reg(b, "b32", "the window's first granule column in shared memory", "wz_gcol");
	const char *sa = ptxb_reg(b, "b32", "its shared address", "wz_addr");
	const char *mine = ptxb_reg(b, "b32", "the thread's granule's byte offset in the tile row", "wz_mine");
	const char *at = ptxb_reg(b, "b32", NULL, "wz_at");
	const char *ws = ptxb_reg(b, "b64", "the window's address", "wz_base");
	const char *d64 = ptxb_reg(b, "b64", NULL, "wz_gap64");
	const char *in = ptxb_reg(b, "pred", "the window is one of the tile row's", "wz_in");
	const char *first = ptxb_reg(b, "pred", "the matrix's first tile row: its rows' heads too", "wz_first");
	const char *hp = ptxb_reg(b, "pred", "this granule holds head bytes", "wz_head");
	ptxb_note(b, "windows aligned to %u bytes, %u an output row, %u rows of the tile", Q, windows,
		  tp_row_step(p));
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", mine, strb, tp_lg2(A));
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", first, e->r0);
	char op[48], sop[48], a[64], list[160], l_head[48];
	tp_unit_op(op, sizeof op, e->stop, na, "b32");
	tp_unit_op(sop, sizeof sop, "ld.shared", na, "b32");
	for (unsigned k = 0; k < g->k; k++) {
		unsigned da = m->dc[k], db = m->dr[k];
		for (unsigned c = 0; c < g->v; c++) {
			unsigned mrow, ncol;
			tp_gaccess(e, s, k, c, &mrow, &ncol);
			const char *row = s->row[mrow];
			unsigned col = ncol * g->es, srow = tp_srow(g, da * g->v + c);
			/* the thread's address is the tile row's start + (strb + db) * A */
			ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", gap, row);
			ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", gap, mine, gap);
			ptxb_op(b, NULL, "and.b32", "%s, %s, %u", gap, gap, Q - 1);
			if (db < windows) {
				/* windows past the row's last (threads at the tile row's end) read
				 * and write nothing: their granules would run past the shared row */
				ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %u", in, strb, windows - db);
				ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", gq, gap, tp_lg2(A));
				ptxb_op(b, NULL, "add.u32", "%s, %s, %s", gq, gq, rb0);
				for (unsigned h = 0; h < 2; h++) {
					int n = 0;
					list[0] = '\0';
					for (unsigned u = 0; u < na; u++)
						n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", u ? ", " : "",
							      r.w[h * na + u]);
					tp_smem_addr(e, "wz", a0, gq, srow, db + h, sa);
					ptxb_op(b, in, sop, "{%s}, [%s]", list, sa);
				}
				ptxb_op(b, NULL, "and.b32", "%s, %s, %u", r.off, gap, A - 1);
				tp_wide_shift(e, &r, r.s);
				ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", d64, gap);
				ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ws, row, d64);
				int n = 0;
				list[0] = '\0';
				for (unsigned u = 0; u < na; u++)
					n += snprintf(list + n, sizeof list - (size_t)n, "%s%s", u ? ", " : "", r.s[u]);
				ptxb_op(b, in, op, "%s, {%s}", tp_addr(a, sizeof a, ws, col), list);
			}
			if ((db + 1) * A > Q)
				continue; /* no granule past the first Q bytes holds head bytes */
			/* the head: bytes [0, gap) of the output row's part in the
			 * tile, on the matrix's first tile row, from the thread's own
			 * granule (strb + db) */
			snprintf(l_head, sizeof l_head, "WZ_HEAD_%u_%u", k, c);
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", at, mine, col);
			ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", hp, at, gap, first);
			char nothp[40];
			snprintf(nothp, sizeof nothp, "!%s", hp);
			ptxb_op(b, nothp, "bra", "%s", l_head);
			for (unsigned i = 0; i < g->v; i++) {
				ptxb_op(b, NULL, "add.u32", "%s, %s, %u", at, mine, col + i * g->es);
				ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", e->pe, at, gap);
				tp_elem_access(e, s, k, i, c, tp_addr(a, sizeof a, row, col + i * g->es), e->pe);
			}
			ptxb_label(b, l_head);
		}
	}
}
