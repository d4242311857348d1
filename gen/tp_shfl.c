/* tp_shfl: the shfl study family (gen/tp_warp.h): 32-bit elements in units
 * of 8 input rows by 32 columns, no shared memory.
 *
 * Lane 4a + b loads input rows b and 4 + b of the unit, columns 4a .. 4a + 3
 * (a warp reads 4 rows of 128 bytes a load). The quad's lanes then hold two
 * 4x4 blocks of words by input rows; the quad transpose turns each into
 * output rows: lane 4a + b holds output row 4a + b, columns 0 .. 7 of the
 * unit, two granules side by side (32 contiguous bytes a lane). */
#include "gen/tp_warp.h"

static void wx_shfl_lanes(wx *x)
{
	ptxb *b = x->e.b;
	const char *t = x->e.tmp;
	const char *ur, *uc;
	const char *q = ptxb_reg(b, "b32", "4 x the lane's quad", "quad4");
	const char *lb = ptxb_reg(b, "b32", "the lane's place in its quad", "quad_lane");
	ptxb_group(b, "Lane 4a+b: loads input rows b and 4+b, columns 4a..4a+3 of the unit; stores output row 4a+b,"
		      " columns 0..7.");
	wx_warp_unit(x, &ur, &uc);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 28", q, x->lane);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 3", lb, x->lane);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->ldr, ur, lb);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->ldc, uc, q);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, uc, q);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", x->str, t, lb);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", x->stc, ur);
}

static void wx_shfl_tile(wx *x)
{
	ptxb *b = x->e.b;
	ptxb_group(b, "Every global load of the lane first: two granules a unit, 4 rows apart.");
	wx_global(x, 0, 4, 0);
	ptxb_group(b, "Quad transposes: each 4x4 block of words by input rows becomes output rows.");
	for (unsigned i = 0; i < x->UPT; i++)
		for (unsigned k = 0; k < x->NLD; k++)
			wx_quad_xpose(x, x->d[i][k]);
	ptxb_group(b, "The stores: two granules a unit, side by side in an output row.");
	wx_global(x, 1, 0, 4);
}

static const wx_kind kind = {
	.elem = 32,
	.UR = 8,
	.UC = 32,
	.NLD = 2,
	.how =
		"// The four lanes of a quad load a 4x4 block of words by input rows (a\n"
		"// 16-byte granule a lane, two blocks a lane per 8x32 unit) and transpose\n"
		"// it with two butterflies of shfl.sync into granules of output rows. No\n"
		"// shared memory.\n",
	.major = NULL,
	.lanes = wx_shfl_lanes,
	.tile = wx_shfl_tile,
	.model = NULL,
};

const tp_family tp_family_shfl = WX_ROW("shfl", kind, TP_TARGET);
