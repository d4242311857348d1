/* tp_linear: the naive kernel over a 1-D grid, one element per thread:
 * element idx = i*cols + j is read coalesced and written with stride ld_out.
 * Kernel ABI v2: a thread steps by the grid (nctaid.x * per_block elements)
 * and a block by nctaid.z matrices, so any grid covers any shape. The
 * threads of a block leave the loops at different times: plain `bra`, not
 * `bra.uni`. */
#include <stdio.h>
#include <string.h>

#include "gen/tp_lib.h"

static const char *const grid_names[] = {"tile", "linear", NULL};

/* Its own parameter only chooses it. */
static const tp_param params[] = {
	TP_CHOICE("grid", grid_names),
	TP_END,
};

/* The tile family's parameters it has always taken and ignored. */
static const char *const ignores[] = {"major", "coalesce", "swizzle_mask", NULL};

static int validate(const tp_params *p, char *err, size_t errlen)
{
	if (p->abi != 2) {
		snprintf(err, errlen, "abi: the linear (1-D) kernel walks one batch dimension: kernel ABI 2 only");
		return -1;
	}
	if (p->foreign && strcmp(p->foreign_owner->name, "tile"))
		return tp_check_foreign(p, err, errlen);
	if (p->vec != 1 || p->ty != 1 || p->foreign) {
		snprintf(err, errlen, "grid: the linear (1-D) kernel takes vec=1, smem=none, no hints and threads={N, 1}");
		return -1;
	}
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. ", p->elem);
	sb_printf(h, "One element per thread over a 1-D grid: a coalesced read and a\n"
		     "// strided write. Kernel ABI v2 (docs/DESIGN.md): a thread steps by the grid\n"
		     "// over the elements, a block by nctaid.z over the matrices.\n//\n");
	sb_printf(h, "// ptxpose kernel=%s abi=2 elem=%u grid=linear block=%ux1 per_block=%u vec=1 smem=none",
		  p->name, p->elem, p->tx, p->tx);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
}

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	ptxb *b = ptxb_new();
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	unsigned es = p->elem / 8, sh = 0;
	while ((1u << sh) < es)
		sh++;
	/* registers hold at least 32 bits; a 16-byte element is a pair of b64 */
	const char *rt = es >= 8 ? "b64" : "b32";
	const char *in = ptxb_reg(b, "b64", "input base (global)", "in");
	const char *o = ptxb_reg(b, "b64", "output base (global)", "out");
	const char *rows = ptxb_reg(b, "b32", "input rows", "rows");
	const char *cols = ptxb_reg(b, "b32", "input columns", "cols");
	const char *ldi = ptxb_reg(b, "b32", "input leading dimension", "ld_in");
	const char *ldo = ptxb_reg(b, "b32", "output leading dimension", "ld_out");
	const char *batch = ptxb_reg(b, "b32", "matrices", "batch");
	const char *sin = ptxb_reg(b, "b64", "input bytes between matrices", "stride_in");
	const char *sout = ptxb_reg(b, "b64", "output bytes between matrices", "stride_out");
	const char *mat = ptxb_reg(b, "b32", "the matrix", "matrix");
	const char *gz = ptxb_reg(b, "b32", "blocks along z: the step in matrices", "grid_z");
	const char *m64 = ptxb_reg(b, "b64", "the matrix, 64-bit", "matrix64");
	const char *min = ptxb_reg(b, "b64", "this matrix's input", "mat_in");
	const char *mout = ptxb_reg(b, "b64", "this matrix's output", "mat_out");
	const char *blk = ptxb_reg(b, "b32", "block index", "block");
	const char *tid = ptxb_reg(b, "b32", "thread index", "thread");
	const char *first = ptxb_reg(b, "b64", "this thread's first element", "first");
	const char *step = ptxb_reg(b, "b64", "elements the grid covers at once", "step");
	const char *idx = ptxb_reg(b, "b64", "linear element index i*cols + j", "idx");
	const char *tot = ptxb_reg(b, "b64", "rows*cols", "total");
	const char *c64 = ptxb_reg(b, "b64", "cols, 64-bit", "cols64");
	const char *i = ptxb_reg(b, "b64", "input row", "i");
	const char *j = ptxb_reg(b, "b64", "input column", "j");
	const char *tmp = ptxb_reg(b, "b64", "scratch", "tmp");
	const char *li = ptxb_reg(b, "b64", "ld_in, 64-bit", "ld_in64");
	const char *lo = ptxb_reg(b, "b64", "ld_out, 64-bit", "ld_out64");
	const char *src = ptxb_reg(b, "b64", "address of in[i][j]", "src");
	const char *dst = ptxb_reg(b, "b64", "address of out[j][i]", "dst");
	const char *x = ptxb_reg(b, rt, es == 16 ? "the element's low half" : "the element", "x");
	const char *xh = es == 16 ? ptxb_reg(b, rt, "the element's high half", "x_hi") : NULL;
	const char *none = ptxb_reg(b, "pred", "this thread has no element at all", "none");
	const char *more = ptxb_reg(b, "pred", "the walk goes on", "more");

	ptxb_group(b, "Parameters.");
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_in]", in);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_out]", o);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_rows]", rows);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_cols]", cols);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_in]", ldi);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_out]", ldo);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_batch]", batch);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_in]", sin);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_out]", sout);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", in, in);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", o, o);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", sin, sin, sh);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", sout, sout, sh);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", c64, cols);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", li, ldi);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", lo, ldo);
	ptxb_group(b, "Element ctaid.x * %u + tid of matrix ctaid.z first; then steps of the grid"
		      " (64-bit: rows*cols reaches 2^62).", p->tx);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", blk);
	ptxb_op(b, NULL, "mov.u32", "%s, %%tid.x", tid);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", first, blk, p->tx);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", tmp, tid);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", first, first, tmp);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.x", blk);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", step, blk, p->tx);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.z", gz);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.z", mat);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", tot, rows, cols);
	ptxb_op(b, NULL, "setp.ge.u64", "%s, %s, %s", none, first, tot);
	ptxb_op(b, NULL, "setp.ge.or.u32", "%s, %s, %s, %s", none, mat, batch, none);
	ptxb_op(b, none, "bra", "DONE");
	ptxb_label(b, "MATRIX");
	ptxb_note(b, "the matrix's bases: matrix * stride elements past in and out");
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", m64, mat);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", min, m64, sin, in);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", mout, m64, sout, o);
	ptxb_op(b, NULL, "mov.b64", "%s, %s", idx, first);
	ptxb_label(b, "ELEMENT");
	ptxb_group(b, "Row and column of the element, then both addresses (64-bit).");
	ptxb_op(b, NULL, "div.u64", "%s, %s, %s", i, idx, c64);
	ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", tmp, i, c64);
	ptxb_op(b, NULL, "sub.u64", "%s, %s, %s", j, idx, tmp);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", src, i, li, j);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", src, src, sh);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", src, src, min);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", dst, j, lo, i);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, sh);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, mout);
	ptxb_group(b, "The move itself: a coalesced read, a strided write.");
	if (es == 16) {
		ptxb_op(b, NULL, "ld.global.v2.b64", "{%s, %s}, [%s]", x, xh, src);
		ptxb_op(b, NULL, "st.global.v2.b64", "[%s], {%s, %s}", dst, x, xh);
	} else {
		char op[24];
		snprintf(op, sizeof op, "ld.global.b%u", 8 * es);
		ptxb_op(b, NULL, op, "%s, [%s]", x, src);
		snprintf(op, sizeof op, "st.global.b%u", 8 * es);
		ptxb_op(b, NULL, op, "[%s], %s", dst, x);
	}
	ptxb_group(b, "Next: the element a grid further on, else the matrix nctaid.z on.");
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", idx, idx, step);
	ptxb_op(b, NULL, "setp.lt.u64", "%s, %s, %s", more, idx, tot);
	ptxb_op(b, more, "bra", "ELEMENT");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", mat, mat, gz);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", more, mat, batch);
	ptxb_op(b, more, "bra", "MATRIX");
	ptxb_label(b, "DONE");
	ptxb_op(b, NULL, "ret", " ");
	return tp_finish(b, p, header, 1, out, err, errlen);
}

const tp_family tp_family_linear = {
	.name = "linear",
	.select_key = "grid",
	.select_val = "linear",
	.params = params,
	.ignores = ignores,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
