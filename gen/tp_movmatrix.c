/* tp_movmatrix: the movmatrix study family (gen/tp_warp.h): 16-bit
 * elements in 16x16 units, no shared memory.
 *
 * Lane 4a + b (b = 2 bv + bh) loads row a of 8x8 block b of the unit
 * (input row 8 bv + a, columns 8 bh .. 8 bh + 7): lanes 4a and 4a + 1 read
 * 32 contiguous bytes. Word p of it is block b's row a, pair p. The quad
 * transpose gives lane 4a + b block m's row a, pair b in word m: block m's
 * fragment as movmatrix takes it (lane l: row l/4, columns 2(l%4), +1).
 * After movmatrix word m holds the transposed block's row a, pair b; the
 * second quad transpose gives lane 4a + b the transposed block b's whole
 * row a: output row 8 bh + a, columns 8 bv .. 8 bv + 7 of the unit, 16
 * bytes (lanes 4a and 4a + 2 write 32 contiguous bytes). */
#include "gen/tp_warp.h"

/* The lane's offsets in unit 0 (input and output coordinates, elements):
 * the warp's unit (w / NC, w % NC), then the lane's place in it. */
void wx_16x16_lanes(wx *x)
{
	ptxb *b = x->e.b;
	const char *t = x->e.tmp;
	const char *ur, *uc;
	const char *a = ptxb_reg(b, "b32", "the lane's quad", "quad");
	const char *bv = ptxb_reg(b, "b32", "8 x lane bit 1: the lane's block row (loads)", "block_v");
	const char *bh = ptxb_reg(b, "b32", "8 x lane bit 0: the lane's block column (loads)", "block_h");
	ptxb_group(b, "Lane 4a+b: loads row a of block b of the unit (input rows 8(b>>1)+a, columns 8(b&1)+0..7),"
		      " stores output row 8(b&1)+a, columns 8(b>>1)+0..7.");
	wx_warp_unit(x, &ur, &uc);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, 2", a, x->lane);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 2", bv, x->lane);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 2", bv, bv);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 1", bh, x->lane);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 3", bh, bh);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, ur, bv);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->ldr, t, a);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->ldc, uc, bh);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, uc, bh);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->str, t, a);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->stc, ur, bv);
}

static void wx_movmatrix_lanes(wx *x) { wx_16x16_lanes(x); }

void wx_fragments(wx *x)
{
	ptxb *b = x->e.b;
	ptxb_group(b, "Every global load of the lane first: one granule a unit.");
	wx_global(x, 0, 0, 0);
	ptxb_group(b, "Quad transposes: word m becomes block m's fragment.");
	for (unsigned i = 0; i < x->UPT; i++)
		wx_quad_xpose(x, x->d[i][0]);
}

static void wx_movmatrix_tile(wx *x)
{
	ptxb *b = x->e.b;
	wx_fragments(x);
	ptxb_group(b, "movmatrix transposes each 8x8 block in its fragments.");
	for (unsigned i = 0; i < x->UPT; i++)
		for (unsigned m = 0; m < 4; m++)
			ptxb_op(b, NULL, "movmatrix.sync.aligned.m8n8.trans.b16", "%s, %s", x->d[i][0][m], x->d[i][0][m]);
	wx_quads_then_stores(x);
}

static const wx_kind kind = {
	WX_16X16_UNITS,
	.how =
		"// A lane loads a 16-byte granule of one of a 16x16 unit's four 8x8 blocks;\n"
		"// a 4x4 word transpose among a quad's lanes (shfl.sync) makes movmatrix's\n"
		"// fragments, movmatrix.trans transposes each block, a second quad transpose\n"
		"// makes 16-byte granules of output rows. No shared memory.\n",
	.major = NULL,
	.lanes = wx_movmatrix_lanes,
	.tile = wx_movmatrix_tile,
	.model = NULL,
};

const tp_family tp_family_movmatrix = WX_ROW("movmatrix", kind, TP_TARGET);
