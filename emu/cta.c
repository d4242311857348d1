/* cta: the launch. CTAs run one after another; inside a CTA each thread
 * runs alone up to its next bar.sync (exact for this subset, which has no
 * warp-synchronous instructions), then the barrier releases them all and a
 * new race-detection interval begins. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

#define EMU_BRANCH_BUDGET (1ull << 26)
#define EMU_SMEM_POISON 0xa5

static void put(uint8_t *param, const emu_param *pa, uint64_t v) { memcpy(param + pa->off, &v, pa->bytes); }

/* Kernel ABI v2 (docs/DESIGN.md): in, out (u64), rows, cols, ld_in, ld_out,
 * batch (u32), stride_in, stride_out (u64). */
#define ABI_PARAMS 9
static const int abi_widths[ABI_PARAMS] = {8, 8, 4, 4, 4, 4, 4, 8, 8};

static int check_abi(const emu_prog *p, strbuf *diag)
{
	int ok = p->nparams == ABI_PARAMS;
	for (int k = 0; ok && k < ABI_PARAMS; k++)
		ok = p->params[k].bytes == abi_widths[k];
	if (!ok)
		sb_printf(diag, "kernel %s: the parameters are not kernel ABI v2 (.u64 in, .u64 out, .u32 rows, "
				".u32 cols, .u32 ld_in, .u32 ld_out, .u32 batch, .u64 stride_in, .u64 stride_out)",
			  p->entry);
	return ok ? 0 : -1;
}

static int check_block(const emu_prog *p, const unsigned *b, strbuf *diag)
{
	uint64_t n = (uint64_t)b[0] * b[1] * b[2];
	if (!n || n > 1024) {
		sb_printf(diag, "kernel %s: block %ux%ux%u is not 1 to 1024 threads", p->entry, b[0], b[1], b[2]);
		return -1;
	}
	if (p->has_reqntid && memcmp(p->reqntid, b, sizeof p->reqntid)) {
		sb_printf(diag, "kernel %s: block %ux%ux%u does not match .reqntid %u, %u, %u (the launch would fail)",
			  p->entry, b[0], b[1], b[2], p->reqntid[0], p->reqntid[1], p->reqntid[2]);
		return -1;
	}
	if (p->has_maxntid && n > (uint64_t)p->maxntid[0] * p->maxntid[1] * p->maxntid[2]) {
		sb_printf(diag, "kernel %s: block %ux%ux%u exceeds .maxntid (the launch would fail)", p->entry, b[0],
			  b[1], b[2]);
		return -1;
	}
	return 0;
}

static void init_threads(emu_ctx *x, emu_thread *th, unsigned n, uint64_t *regs)
{
	const emu_prog *p = x->prog;
	const unsigned *b = x->l->block;
	unsigned sval[EMU_SR_COUNT] = {0};
	for (int k = 0; k < 3; k++) {
		sval[EMU_SR_NTID_X + k] = b[k];
		sval[EMU_SR_CTAID_X + k] = x->ctaid[k];
		sval[EMU_SR_NCTAID_X + k] = x->l->grid[k];
	}
	for (unsigned t = 0; t < n; t++) {
		uint64_t *R = regs + (size_t)t * (size_t)p->nslots;
		memcpy(R, p->init, (size_t)p->nslots * sizeof *R);
		sval[EMU_SR_TID_X] = t % b[0];
		sval[EMU_SR_TID_Y] = t / b[0] % b[1];
		sval[EMU_SR_TID_Z] = t / (b[0] * b[1]);
		sval[EMU_SR_LANEID] = t % 32;
		sval[EMU_SR_WARPID] = t / 32;
		for (int k = 0; k < EMU_SR_COUNT; k++)
			if (p->sreg_slot[k] >= 0)
				R[p->sreg_slot[k]] = sval[k];
		/* EMU_STOP_BAR: runnable from pc, like a thread a barrier released */
		th[t] = (emu_thread){.R = R, .pc = 0, .tid = (uint16_t)t, .state = EMU_STOP_BAR};
	}
}

/* After an interval every live thread waits at a barrier or has exited.
 * Returns 1 when all exited, 0 when all wait at one bar.sync, -1 (fault
 * recorded) otherwise. */
static int barrier_state(emu_ctx *x, const emu_thread *th, unsigned n)
{
	int ref = -1;
	unsigned arrived = 0;
	for (unsigned t = 0; t < n; t++)
		if (th[t].state == EMU_STOP_BAR && ref < 0)
			ref = (int)t;
	if (ref < 0)
		return 1;
	for (unsigned t = 0; t < n; t++)
		arrived += th[t].state == EMU_STOP_BAR && th[t].pc == th[ref].pc;
	if (arrived == n)
		return 0;
	for (unsigned t = 0; t < n; t++)
		if (th[t].state != EMU_STOP_BAR || th[t].pc != th[ref].pc) {
			x->f = (emu_fault){.kind = EMU_F_BARRIER, .ins = (int)th[ref].pc, .tid = (unsigned)ref,
					   .other_tid = t, .other_ins = (int)th[t].pc,
					   .other_exited = th[t].state == EMU_STOP_EXIT, .arrived = arrived,
					   .threads = n};
			break;
		}
	return -1;
}

/* base + per * k, at most max (no overflow). */
static uint64_t grown(uint64_t base, uint64_t per, uint64_t k, uint64_t max)
{
	return k > (max - base) / per ? max : base + per * k;
}

/* The budgets once `ctas` CTAs of n threads have started: the launch's own,
 * or the default that grows with the launch (emu.h). */
static void allow(emu_ctx *x, uint64_t ctas, unsigned n)
{
	const emu_launch *l = x->l;
	x->ins_allow = l->max_instructions ? l->max_instructions
		: grown(EMU_INS_BASE, EMU_INS_PER_THREAD * n, ctas, EMU_INS_MAX);
	x->bar_allow = l->max_barriers ? l->max_barriers : grown(EMU_BAR_BASE, EMU_BAR_PER_CTA, ctas, UINT64_MAX);
}

static int stop(emu_ctx *x, const emu_thread *t, int kind)
{
	x->f = (emu_fault){.kind = kind, .ins = (int)t->pc, .tid = t->tid};
	return -1;
}

static int run_cta(emu_ctx *x, emu_thread *th, unsigned n, uint64_t *regs)
{
	init_threads(x, th, n, regs);
	memset(x->smem, EMU_SMEM_POISON, x->smem_bytes);
	x->epoch++;
	for (;;) {
		for (unsigned t = 0; t < n; t++) {
			if (th[t].state != EMU_STOP_BAR)
				continue;
			if (emu_exec(x, &th[t]) == EMU_STOP_FAULT)
				return -1;
			if (x->executed > x->ins_allow)
				return stop(x, &th[t], EMU_F_BUDGET_INS);
		}
		int st = barrier_state(x, th, n);
		if (st)
			return st > 0 ? 0 : -1;
		if (++x->barriers > x->bar_allow)
			return stop(x, &th[0], EMU_F_BUDGET_BAR);
		x->epoch++;
		for (unsigned t = 0; t < n; t++)
			th[t].pc++;
	}
}

/* The memory one CTA needs, within the emulator's limits: shared memory
 * into *smem. -1 with the message otherwise. */
static int check_size(const emu_prog *p, const emu_launch *l, unsigned n, uint32_t *smem, strbuf *diag)
{
	uint64_t regfile = (uint64_t)n * (uint64_t)p->nslots * sizeof(uint64_t);
	if (regfile > EMU_MAX_REGFILE) {
		sb_printf(diag, "kernel %s: %d registers and constants a thread for %u threads is %llu MiB of "
				"emulated registers (the emulator's limit is %u MiB)", p->entry, p->nslots, n,
			  (unsigned long long)(regfile >> 20), EMU_MAX_REGFILE >> 20);
		return -1;
	}
	uint64_t bytes = p->smem_static;
	if (p->dyn_align)
		bytes = ((bytes + p->dyn_align - 1) & ~(uint64_t)(p->dyn_align - 1)) + l->dyn_smem;
	if (bytes > EMU_MAX_SMEM) {
		sb_printf(diag, "kernel %s: %llu bytes of shared memory (%u static, %u dynamic) is more than the "
				"emulator's limit of %u KiB", p->entry, (unsigned long long)bytes, p->smem_static,
			  p->dyn_align ? l->dyn_smem : 0, EMU_MAX_SMEM >> 10);
		return -1;
	}
	*smem = (uint32_t)bytes;
	return 0;
}

int emu_run(const emu_prog *p, const emu_launch *l, strbuf *diag)
{
	if (check_abi(p, diag))
		return EMU_UNSUPPORTED;
	if (check_block(p, l->block, diag))
		return EMU_FAULT;
	emu_ctx x = {.prog = p, .l = l, .budget = l->branch_budget ? l->branch_budget : EMU_BRANCH_BUDGET};
	const uint64_t vals[ABI_PARAMS] = {EMU_IN_ADDR(l), EMU_OUT_ADDR(l), l->rows, l->cols, l->ld_in, l->ld_out,
					   l->batch, l->stride_in, l->stride_out};
	for (int k = 0; k < ABI_PARAMS; k++)
		put(x.param, &p->params[k], vals[k]);
	unsigned n = l->block[0] * l->block[1] * l->block[2];
	if (check_size(p, l, n, &x.smem_bytes, diag))
		return EMU_UNSUPPORTED;
	uint64_t *regs = malloc((size_t)n * (size_t)p->nslots * sizeof *regs);
	emu_thread *th = malloc(n * sizeof *th);
	x.smem = malloc(x.smem_bytes + 1);
	x.shadow = calloc((size_t)x.smem_bytes + 1, sizeof *x.shadow);
	int rc = EMU_OK;
	uint64_t ctas = 0;
	if (!regs || !th || !x.smem || !x.shadow) {
		sb_add(diag, "out of memory for the emulated block");
		rc = EMU_FAULT;
		goto out;
	}
	for (unsigned z = 0; z < l->grid[2] && rc == EMU_OK; z++)
		for (unsigned y = 0; y < l->grid[1] && rc == EMU_OK; y++)
			for (unsigned cx = 0; cx < l->grid[0]; cx++) {
				x.ctaid[0] = cx, x.ctaid[1] = y, x.ctaid[2] = z;
				allow(&x, ++ctas, n);
				if (run_cta(&x, th, n, regs)) {
					emu_diag_fault(&x, diag);
					rc = EMU_FAULT;
					break;
				}
			}
out:
	if (l->stats) {
		l->stats->instructions = x.executed;
		l->stats->ctas = ctas;
		l->stats->barriers = x.barriers;
	}
	free(regs);
	free(th);
	free(x.smem);
	free(x.shadow);
	return rc;
}
