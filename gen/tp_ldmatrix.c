/* tp_ldmatrix: the ldmatrix study family (gen/tp_warp.h): 16-bit elements
 * in 16x16 units, through shared memory.
 *
 * Thread t loads granules t, t + T, ... of the tile by input rows (NG =
 * TN/8 granules a row: consecutive threads along a row) and stores each to
 * its place in shared memory: tile row r at r x 2TN bytes, granule column
 * g at (g ^ (r & 7)) x 16, so that the 8 rows of an 8x8 block (the same
 * granule column of 8 consecutive rows) sit in distinct banks. After a
 * barrier, ldmatrix.x4.trans reads a unit's four blocks: lane 8m + j gives
 * the address of row j of block m (block m = 2 mv + mh: rows 8 mv .., granule
 * column 2 uc + mh), and lane 4a + b receives in word m the transposed
 * block m's row a, pair b -- what movmatrix leaves (gen/tp_movmatrix.c),
 * so the same quad transpose and stores follow. */
#include <stdio.h>
#include <string.h>

#include "gen/bank.h"
#include "gen/tp_warp.h"


unsigned wx_saddr(unsigned pitch, unsigned r, unsigned g) { return r * pitch + ((g ^ (r & 7)) << 4); }

void wx_emit_saddr(wx *x, const char *dst, const char *r, const char *g, unsigned pitch)
{
	ptxb *b = x->e.b;
	const char *t = x->e.tmp;
	ptxb_op(b, NULL, "and.b32", "%s, %s, 7", t, r);
	ptxb_op(b, NULL, "xor.b32", "%s, %s, %s", t, g, t);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", t, t);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", dst, r, pitch, t);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", dst, dst, ptxb_find(b, "smem"));
}

void wx_smem_decl(wx *x, unsigned rows, unsigned pitch, const char *what)
{
	ptxb *b = x->e.b;
	ptxb_global(b, "// %u rows of %u bytes, by %s rows; granule column XOR (row & 7).", rows, pitch, what);
	ptxb_global(b, ".shared .align 16 .b8 tile_smem[%u];", rows * pitch);
	const char *sbase = ptxb_reg(b, "b32", "shared tile base", "smem");
	ptxb_reg(b, "b32", "a shared row", "s_row");
	ptxb_reg(b, "b32", "a granule column", "s_col");
	ptxb_op(b, NULL, "mov.u32", "%s, tile_smem", sbase);
}

void wx_granule_map(wx *x, const char *row, const char *col, unsigned ng, unsigned pitch, const char *prefix)
{
	ptxb *b = x->e.b;
	const char *r = ptxb_find(b, "s_row"), *g = ptxb_find(b, "s_col");
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", row, x->e.t, tp_lg2(ng));
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", col, x->e.t, ng - 1);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 3", col, col);
	ptxb_note(b, "their shared addresses: row r at r x %u bytes, granule column g at (g ^ (r & 7)) x 16", pitch);
	for (unsigned i = 0; i < x->UPT; i++) {
		const char *a = ptxb_reg(b, "b32", i ? NULL : "shared address of the thread's granule i", "%s%u", prefix, i);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", r, row, i * x->T / ng);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 3", g, col);
		wx_emit_saddr(x, a, r, g, pitch);
	}
}

static unsigned saddr(const tp_params *p, unsigned r, unsigned g) { return wx_saddr(p->tn * 2, r, g); }

static void wx_ldmatrix_model(const tp_params *p, strbuf *h)
{
	wx x;
	memset(&x, 0, sizeof x);
	x.T = p->tx * p->ty, x.W = x.T / 32, x.UR = x.UC = 16, x.NC = p->tn / 16;
	x.U = p->tm / 16 * x.NC, x.UPT = x.U / x.W;
	unsigned ng = p->tn / 8, st_worst = 0, st_total = 0, ld_worst = 0, ld_total = 0;
	for (unsigned w = 0; w < x.W; w++)
		for (unsigned i = 0; i < x.UPT; i++) {
			unsigned st[32], ld[32], dr, dc;
			wx_unit_delta(&x, i, &dr, &dc);
			for (unsigned l = 0; l < 32; l++) {
				unsigned t = 32 * w + l, g = t + x.T * i;
				st[l] = saddr(p, g / ng, g % ng);
				unsigned m = l >> 3, j = l & 7;
				unsigned row = (w / x.NC) * 16 + dr + 8 * (m >> 1) + j;
				unsigned col = ((w % x.NC) * 16 + dc) / 8 + (m & 1);
				ld[l] = saddr(p, row, col);
			}
			unsigned ws = bank_wavefronts(st, 32, 16), wl = bank_wavefronts(ld, 32, 16);
			st_worst = ws > st_worst ? ws : st_worst, st_total += ws;
			ld_worst = wl > ld_worst ? wl : ld_worst, ld_total += wl;
		}
	unsigned req = x.W * x.UPT;
	sb_printf(h, "// ptxpose-smem id=smem_st op=st bytes=16 wavefronts=%u ideal=4 requests=%u total=%u\n", st_worst, req,
		  st_total);
	sb_printf(h, "// ptxpose-smem id=ldmatrix op=ld bytes=16 wavefronts=%u ideal=4 requests=%u total=%u\n", ld_worst,
		  req, ld_total);
}

/* Per thread, before the walk: the global load offsets (granule mapping),
 * the shared addresses of the thread's granules (stores) and of its lane's
 * ldmatrix rows (one a unit), which are the same for every tile. */
static void wx_ldmatrix_lanes(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	const tp_params *p = e->p;
	const char *t = e->tmp;
	unsigned ng = p->tn / 8;
	wx_16x16_lanes(x);
	ptxb_group(b, "Loads: thread t takes granules t + %u i of the tile by input rows (%u a row).", x->T, ng);
	wx_smem_decl(x, p->tm, p->tn * 2, "input");
	const char *r = ptxb_find(b, "s_row"), *g = ptxb_find(b, "s_col");
	const char *j = ptxb_reg(b, "b32", "the lane's row in its ldmatrix block", "s_j");
	wx_granule_map(x, x->ldr, x->ldc, ng, p->tn * 2, "sst");
	ptxb_group(b, "ldmatrix: lane 8m+j gives row j of the unit's block m (rows 8(m>>1).., granule column"
		      " 2 x unit column + (m&1)).");
	const char *ur = ptxb_find(b, "unit_r"), *uc = ptxb_find(b, "unit_c");
	ptxb_op(b, NULL, "and.b32", "%s, %s, 7", j, x->lane);
	for (unsigned i = 0; i < x->UPT; i++) {
		unsigned dr, dc;
		wx_unit_delta(x, i, &dr, &dc);
		const char *a = ptxb_reg(b, "b32", i ? NULL : "shared address of the lane's ldmatrix row in unit i", "sld%u",
					 i);
		/* row: unit_r + dr + 8 (m >> 1) + j, m = lane >> 3: (lane & 16) / 2 */
		ptxb_op(b, NULL, "and.b32", "%s, %s, 16", r, x->lane);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 1", r, r);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", r, r, j);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", r, r, ur);
		if (dr)
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", r, r, dr);
		/* granule column: (unit_c + dc) / 8 + (m & 1): (lane >> 3) & 1 */
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 3", g, x->lane);
		ptxb_op(b, NULL, "and.b32", "%s, %s, 1", g, g);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 3", t, uc);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", g, g, t);
		if (dc)
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", g, g, dc / 8);
		wx_emit_saddr(x, a, r, g, p->tn * 2);
	}
}

static void wx_ldmatrix_tile(wx *x)
{
	ptxb *b = x->e.b;
	const tp_params *p = x->e.p;
	unsigned ng = p->tn / 8;
	char regs[96];
	ptxb_group(b, "Every global load of the thread first: its granules by input rows.");
	for (int pass = 0; pass < 2; pass++) /* the addresses, then the loads */
		for (unsigned i = 0; i < x->UPT; i++)
			wx_granule(x, 0, pass ? x->d[i][0] : NULL, i * x->T / ng, 0);
	ptxb_group(b, "Into shared memory by input rows, a barrier, and back with ldmatrix.trans.");
	for (unsigned i = 0; i < x->UPT; i++) {
		const char *const *w = x->d[i][0];
		ptxb_op(b, NULL, "st.shared.v4.b32", "[%s], {%s, %s, %s, %s}", wx_reg_name(x, "sst", i), w[0], w[1], w[2],
			w[3]);
	}
	ptxb_op(b, NULL, "bar.sync", "0");
	for (unsigned i = 0; i < x->UPT; i++) {
		const char *const *w = x->d[i][0];
		snprintf(regs, sizeof regs, "{%s, %s, %s, %s}", w[0], w[1], w[2], w[3]);
		ptxb_op(b, NULL, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "%s, [%s]", regs,
			wx_reg_name(x, "sld", i));
	}
	wx_quads_then_stores(x);
}

static const wx_kind kind = {
	WX_16X16_UNITS,
	.how =
		"// The tile goes to shared memory by input rows in 16-byte granules\n"
		"// (swizzled); ldmatrix.x4.trans reads a 16x16 unit's four 8x8 blocks back\n"
		"// transposed, as fragments, and a 4x4 word transpose among a quad's lanes\n"
		"// (shfl.sync) makes 16-byte granules of output rows.\n",
	.major = "in",
	.lanes = wx_ldmatrix_lanes,
	.tile = wx_ldmatrix_tile,
	.model = wx_ldmatrix_model,
};

const tp_family tp_family_ldmatrix = WX_ROW("ldmatrix", kind, TP_TARGET);
