/* tp_lib: the emitting library's small pieces (gen/tp_lib.h): the thread's
 * linear id, operand text, and the kernel's assembly (the entry's parameters
 * from loader/abi.h). */
#include "gen/tp_lib.h"

#include <stdio.h>
#include <string.h>

#include "loader/abi.h"

unsigned tp_lg2(unsigned x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

/* "[%reg]" or "[%reg+off]" */
const char *tp_addr(char *buf, size_t n, const char *reg, unsigned off)
{
	if (off)
		snprintf(buf, n, "[%s+%u]", reg, off);
	else
		snprintf(buf, n, "[%s]", reg);
	return buf;
}

/* "ld.global.v4.b32" and the like: n units of the unit type. */
const char *tp_unit_op(char *buf, size_t n, const char *base, unsigned units, const char *ut)
{
	if (units == 1)
		snprintf(buf, n, "%s.%s", base, ut);
	else
		snprintf(buf, n, "%s.v%u.%s", base, units, ut);
	return buf;
}

void tp_setup(em *e)
{
	ptxb *b = e->b;
	const tp_params *p = e->p;
	ptxb_group(b, "Parameters and the thread's linear id.");
	e->in0 = ptxb_reg(b, "b64", "input base (global)", "in");
	e->out0 = ptxb_reg(b, "b64", "output base (global)", "out");
	e->rows = ptxb_reg(b, "b32", "input rows", "rows");
	e->cols = ptxb_reg(b, "b32", "input columns", "cols");
	e->ld_in = ptxb_reg(b, "b32", "input leading dimension (elements)", "ld_in");
	e->ld_out = ptxb_reg(b, "b32", "output leading dimension (elements)", "ld_out");
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_in]", e->in0);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_out]", e->out0);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_rows]", e->rows);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_cols]", e->cols);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_in]", e->ld_in);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_ld_out]", e->ld_out);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", e->in0, e->in0);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", e->out0, e->out0);
	e->t = ptxb_reg(b, "b32", "linear thread id in the block", "thread");
	ptxb_op(b, NULL, "mov.u32", "%s, %%tid.x", e->t);
	if (p->ty > 1) {
		const char *ty = ptxb_reg(b, "b32", "threadIdx.y", "thread_y");
		ptxb_op(b, NULL, "mov.u32", "%s, %%tid.y", ty);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", ty, ty, tp_lg2(p->tx));
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", e->t, e->t, ty);
	}
}

void tp_prmt_xpose(ptxb *b, unsigned es, const char *const *in, const char *const *out, const char *const *t)
{
	if (es == 2) {
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", out[0], in[0], in[1]);
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", out[1], in[0], in[1]);
		return;
	}
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5140", t[0], in[0], in[1]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7362", t[1], in[0], in[1]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5140", t[2], in[2], in[3]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7362", t[3], in[2], in[3]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", out[0], t[0], t[2]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", out[1], t[0], t[2]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", out[2], t[1], t[3]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x7632", out[3], t[1], t[3]);
}

int tp_finish(ptxb *b, const tp_params *p, const char *header, unsigned ty, strbuf *out, char *err,
	      size_t errlen)
{
	char params[640];
	ptxb_maxnreg(b, p->max_regs);
	int rc = ptxb_finish(b, out, header, p->family->target, p->name, abi_ptx_params((int)p->abi, params, sizeof params), p->tx,
			     ty);
	if (rc)
		snprintf(err, errlen, "generator: %s", ptxb_error(b));
	ptxb_free(b);
	return rc;
}

int tp_check_foreign(const tp_params *p, char *err, size_t errlen)
{
	if (!p->foreign)
		return 0;
	/* every family that has it, in the table's order (a name two families share) */
	const char *names[8];
	int n = 0;
	for (int f = 0; tp_families[f] && n < 8; f++)
		for (const tp_param *q = tp_families[f]->params; q && q->key; q++)
			if (!strcmp(q->key, p->foreign)) {
				names[n++] = tp_families[f]->name;
				break;
			}
	if (n < 2) {
		snprintf(err, errlen, "%s: applies only to %s kernels", p->foreign, p->foreign_owner->name);
		return -1;
	}
	size_t k = (size_t)snprintf(err, errlen, "%s: applies only to %s", p->foreign, names[0]);
	for (int i = 1; i < n && k < errlen; i++)
		k += (size_t)snprintf(err + k, errlen - k, "%s%s", i + 1 < n ? ", " : " or ", names[i]);
	if (k < errlen)
		snprintf(err + k, errlen - k, " kernels");
	return -1;
}
