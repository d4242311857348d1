/* tp_linear: the naive kernel over a 1-D grid, one element per thread:
 * element idx = i*cols + j is read coalesced and written with stride ld_out. */
#include <stdio.h>

#include "gen/ptxb.h"
#include "gen/tp_emit.h"

int tp_emit_linear(const tp_params *p, const char *header, strbuf *out,
		   char *err, size_t errlen)
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
	const char *blk = ptxb_reg(b, "b32", "block index", "block");
	const char *tid = ptxb_reg(b, "b32", "thread index", "thread");
	const char *idx = ptxb_reg(b, "b64", "linear element index i*cols + j", "idx");
	const char *tot = ptxb_reg(b, "b64", "rows*cols", "total");
	const char *c64 = ptxb_reg(b, "b64", "cols, 64-bit", "cols64");
	const char *i = ptxb_reg(b, "b64", "input row", "i");
	const char *j = ptxb_reg(b, "b64", "input column", "j");
	const char *tmp = ptxb_reg(b, "b64", "scratch", "tmp");
	const char *ld64 = ptxb_reg(b, "b64", "a leading dimension, 64-bit", "ld64");
	const char *src = ptxb_reg(b, "b64", "address of in[i][j]", "src");
	const char *dst = ptxb_reg(b, "b64", "address of out[j][i]", "dst");
	const char *x = ptxb_reg(b, rt, es == 16 ? "the element's low half" : "the element", "x");
	const char *xh = es == 16 ? ptxb_reg(b, rt, "the element's high half", "x_hi") : NULL;
	const char *past = ptxb_reg(b, "pred", "past the last element", "past_end");

	ptxb_group(b, "Parameters.");
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_in]", in);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_out]", o);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_rows]", rows);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_cols]", cols);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_in]", ldi);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_out]", ldo);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", in, in);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", o, o);
	ptxb_group(b, "One element per thread; threads past rows*cols have nothing to do.");
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", blk);
	ptxb_op(b, NULL, "mov.u32", "%s, %%tid.x", tid);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", idx, blk, p->tx);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", tmp, tid);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", idx, idx, tmp);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", tot, rows, cols);
	ptxb_op(b, NULL, "setp.ge.u64", "%s, %s, %s", past, idx, tot);
	ptxb_op(b, past, "bra.uni", "DONE");
	ptxb_group(b, "Row and column of the element, then both addresses (64-bit).");
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", c64, cols);
	ptxb_op(b, NULL, "div.u64", "%s, %s, %s", i, idx, c64);
	ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", tmp, i, c64);
	ptxb_op(b, NULL, "sub.u64", "%s, %s, %s", j, idx, tmp);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", ld64, ldi);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", src, i, ld64, j);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", src, src, sh);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", src, src, in);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", ld64, ldo);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", dst, j, ld64, i);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, sh);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, o);
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
	ptxb_label(b, "DONE");
	ptxb_op(b, NULL, "ret", " ");
	ptxb_maxnreg(b, p->max_regs);
	int rc = ptxb_finish(b, out, header, TP_TARGET, p->name, tp_entry_params, p->tx, 1);
	if (rc)
		snprintf(err, errlen, "generator: %s", ptxb_error(b));
	ptxb_free(b);
	return rc;
}
