/* tp_stmatrix: the stmatrix study family (gen/tp_warp.h): 16-bit elements
 * in 16x16 units, through shared memory by output rows; stmatrix needs
 * sm_90 (PTX ISA 7.8), so these files say .target sm_90 (its row's target) and
 * target=sm_90 in their metadata (lib/README.md).
 *
 * The loads and the first quad transpose are movmatrix's (gen/
 * tp_movmatrix.c): lane 4a + b then holds block m's fragment in word m.
 * stmatrix.x4.trans stores block m transposed: lane 8m + j gives the
 * address of its row j, the block's column j, which is output row 8 mh + j
 * of the unit, columns 8 mv .. 8 mv + 7 (block m = 2 mv + mh). The shared
 * stage holds TN output rows of TM halves, swizzled as the ldmatrix
 * kernel's (wx_saddr). After a barrier thread t reads granules t, t + T, ...
 * of it by output rows (TM/8 a row: consecutive threads along a row) and
 * stores each to global memory. */
#include <string.h>

#include "gen/bank.h"
#include "gen/tp_warp.h"

static void wx_stmatrix_model(const tp_params *p, strbuf *h)
{
	wx x;
	memset(&x, 0, sizeof x);
	x.T = p->tx * p->ty, x.W = x.T / 32, x.UR = x.UC = 16, x.NC = p->tn / 16;
	x.U = p->tm / 16 * x.NC, x.UPT = x.U / x.W;
	unsigned ng = p->tm / 8, pitch = p->tm * 2, st_worst = 0, st_total = 0, ld_worst = 0, ld_total = 0;
	for (unsigned w = 0; w < x.W; w++)
		for (unsigned i = 0; i < x.UPT; i++) {
			unsigned st[32], ld[32], dr, dc;
			wx_unit_delta(&x, i, &dr, &dc);
			for (unsigned l = 0; l < 32; l++) {
				unsigned m = l >> 3, j = l & 7;
				unsigned row = (w % x.NC) * 16 + dc + 8 * (m & 1) + j;
				unsigned col = ((w / x.NC) * 16 + dr) / 8 + (m >> 1);
				st[l] = wx_saddr(pitch, row, col);
				unsigned t = 32 * w + l, g = t + x.T * i;
				ld[l] = wx_saddr(pitch, g / ng, g % ng);
			}
			unsigned ws = bank_wavefronts(st, 32, 16), wl = bank_wavefronts(ld, 32, 16);
			st_worst = ws > st_worst ? ws : st_worst, st_total += ws;
			ld_worst = wl > ld_worst ? wl : ld_worst, ld_total += wl;
		}
	unsigned req = x.W * x.UPT;
	sb_printf(h, "// ptxpose-smem id=stmatrix op=st bytes=16 wavefronts=%u ideal=4 requests=%u total=%u\n", st_worst,
		  req, st_total);
	sb_printf(h, "// ptxpose-smem id=smem_ld op=ld bytes=16 wavefronts=%u ideal=4 requests=%u total=%u\n", ld_worst, req,
		  ld_total);
}

/* Per thread, before the walk: the lane's stmatrix row addresses (one a
 * unit), the shared addresses of the thread's granules of output rows, and
 * its store offsets (granule mapping). */
static void wx_stmatrix_lanes(wx *x)
{
	ptxb *b = x->e.b;
	em *e = &x->e;
	const tp_params *p = e->p;
	const char *t = e->tmp;
	unsigned ng = p->tm / 8, pitch = p->tm * 2;
	wx_16x16_lanes(x);
	ptxb_group(b, "stmatrix: lane 8m+j gives row j of the unit's block m transposed (output row 8(m&1)+j,"
		      " granule column 2 x unit row + (m>>1)).");
	wx_smem_decl(x, p->tn, pitch, "output");
	const char *r = ptxb_find(b, "s_row"), *g = ptxb_find(b, "s_col");
	const char *ur = ptxb_find(b, "unit_r"), *uc = ptxb_find(b, "unit_c");
	for (unsigned i = 0; i < x->UPT; i++) {
		unsigned dr, dc;
		wx_unit_delta(x, i, &dr, &dc);
		const char *a = ptxb_reg(b, "b32", i ? NULL : "shared address of the lane's stmatrix row in unit i", "sst%u",
					 i);
		/* row: unit_c + dc + 8 (m & 1) + j = unit_c + dc + (lane & 15) */
		ptxb_op(b, NULL, "and.b32", "%s, %s, 15", r, x->lane);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", r, r, uc);
		if (dc)
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", r, r, dc);
		/* granule column: (unit_r + dr) / 8 + (m >> 1) = ... + (lane >> 4) */
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 4", g, x->lane);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 3", t, ur);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", g, g, t);
		if (dr)
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", g, g, dr / 8);
		wx_emit_saddr(x, a, r, g, pitch);
	}
	ptxb_group(b, "Stores: thread t takes granules t + %u i of the tile by output rows (%u a row).", x->T, ng);
	wx_granule_map(x, x->str, x->stc, ng, pitch, "sld");
}

static void wx_stmatrix_tile(wx *x)
{
	ptxb *b = x->e.b;
	unsigned ng = x->e.p->tm / 8;
	wx_fragments(x);
	ptxb_group(b, "stmatrix.trans writes each block transposed into shared memory by output rows; a barrier.");
	for (unsigned i = 0; i < x->UPT; i++) {
		const char *const *w = x->d[i][0];
		ptxb_op(b, NULL, "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "[%s], {%s, %s, %s, %s}",
			wx_reg_name(x, "sst", i), w[0], w[1], w[2], w[3]);
	}
	ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_group(b, "Whole granules of output rows back, then to global memory.");
	for (unsigned i = 0; i < x->UPT; i++) {
		const char *const *w = x->d[i][0];
		ptxb_op(b, NULL, "ld.shared.v4.b32", "{%s, %s, %s, %s}, [%s]", w[0], w[1], w[2], w[3],
			wx_reg_name(x, "sld", i));
	}
	for (int pass = 0; pass < 2; pass++) /* the addresses, then the stores */
		for (unsigned i = 0; i < x->UPT; i++)
			wx_granule(x, 1, pass ? x->d[i][0] : NULL, i * x->T / ng, 0);
}

static const wx_kind kind = {
	WX_16X16_UNITS,
	.how =
		"// A lane loads a 16-byte granule of one of a 16x16 unit's four 8x8 blocks;\n"
		"// a 4x4 word transpose among a quad's lanes (shfl.sync) makes fragments,\n"
		"// stmatrix.x4.trans writes the blocks transposed into shared memory by\n"
		"// output rows (swizzled), and threads store whole granules of output rows.\n"
		"// stmatrix needs sm_90.\n",
	.major = "out",
	.lanes = wx_stmatrix_lanes,
	.tile = wx_stmatrix_tile,
	.model = wx_stmatrix_model,
};

const tp_family tp_family_stmatrix = WX_ROW("stmatrix", kind, "sm_90");
