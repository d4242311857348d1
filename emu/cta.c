/* cta: the launch. CTAs run one after another; inside a CTA each warp runs
 * up to its next bar.sync (its lanes in lockstep, exec.c), then the barrier
 * releases them all and a new race-detection interval begins. A CTA that
 * faults runs again a thread at a time (replay) for the message. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "loader/abi.h"

#define EMU_BRANCH_BUDGET (1ull << 26)
#define EMU_SMEM_POISON 0xa5

static void put(uint8_t *param, const emu_param *pa, uint64_t v) { memcpy(param + pa->off, &v, pa->bytes); }

/* Kernel ABI v2, v3 or v4 (loader/abi.h), told by the parameters' count and
 * widths: the version, or -1 with the message. A launch with several batch
 * dimensions (l->bdims) needs v3 or v4; a v4 kernel needs the tile's
 * dimensions (l->tdims), which only it takes. */
static int check_abi(const emu_prog *p, const emu_launch *l, strbuf *diag)
{
	for (int v = ABI_VERSION; v <= ABI_VERSION_V4; v++) {
		int n = abi_nparams(v), ok = p->nparams == n;
		for (int k = 0; ok && k < n; k++)
			ok = p->params[k].bytes == abi_bytes[k];
		if (!ok)
			continue;
		if (v == ABI_VERSION && l->bdims) {
			sb_printf(diag, "kernel %s is kernel ABI v%d: it walks one batch dimension, the launch has several "
					"(kernel ABI v%d)", p->entry, v, ABI_VERSION_V3);
			return -1;
		}
		if ((v == ABI_VERSION_V4) != (l->tdims != NULL)) {
			sb_printf(diag, v == ABI_VERSION_V4 ? "kernel %s is kernel ABI v%d: the launch has no tile dims (tdims)"
							    : "kernel %s is kernel ABI v%d: it takes no tile dims, the launch has them "
							      "(kernel ABI v4)",
				  p->entry, v);
			return -1;
		}
		return v;
	}
	char list[256];
	sb_printf(diag, "kernel %s: the parameters are not kernel ABI v%d %s, nor v%d (v%d's, then .b8 bdims[%u]), "
			"nor v%d (v%d's, then .b8 tdims[%u])",
		  p->entry, ABI_VERSION, abi_describe(ABI_VERSION, list, sizeof list), ABI_VERSION_V3, ABI_VERSION,
		  ABI_BDIMS_BYTES, ABI_VERSION_V4, ABI_VERSION_V3, ABI_TDIMS_BYTES);
	return -1;
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

/* The special registers that are the same in every CTA of the launch
 * (all but %ctaid), per lane, once: no instruction writes them. */
static void init_lanes(const emu_ctx *x, emu_warp *wp, unsigned n)
{
	const emu_prog *p = x->prog;
	const unsigned *b = x->l->block;
	unsigned sval[EMU_SR_COUNT] = {0};
	for (int k = 0; k < 3; k++) {
		sval[EMU_SR_NTID_X + k] = b[k];
		sval[EMU_SR_NCTAID_X + k] = x->l->grid[k];
	}
	for (unsigned t = 0; t < n; t++) {
		unsigned w = t / EMU_WARP, l = t % EMU_WARP;
		sval[EMU_SR_TID_X] = t % b[0];
		sval[EMU_SR_TID_Y] = t / b[0] % b[1];
		sval[EMU_SR_TID_Z] = t / (b[0] * b[1]);
		sval[EMU_SR_LANEID] = l;
		sval[EMU_SR_WARPID] = w;
		for (int k = 0; k < EMU_SR_COUNT; k++)
			if (p->sreg_slot[k] >= 0 && (k < EMU_SR_CTAID_X || k > EMU_SR_CTAID_Z))
				wp[w].R[(size_t)p->sreg_slot[k] * EMU_WARP + l] = sval[k];
	}
}

/* The lanes of a CTA's warps at the CTA's start: registers poisoned (the
 * constants and init_lanes' special registers stay from the launch),
 * %ctaid, every lane runnable from the first instruction. */
static void init_warps(emu_ctx *x, emu_warp *wp, unsigned n, const uint64_t *poison)
{
	const emu_prog *p = x->prog;
	for (unsigned w = 0; w * EMU_WARP < n; w++) {
		emu_warp *W = &wp[w];
		for (int k = 0; k < p->npoison; k++) /* the others are written before they are read */
			memcpy(W->R + (size_t)p->poison[k] * EMU_WARP, poison + (size_t)p->poison[k] * EMU_WARP,
			       EMU_WARP * sizeof *poison);
		W->base = w * EMU_WARP;
		unsigned cnt = n - W->base < EMU_WARP ? n - W->base : EMU_WARP;
		W->lanes = cnt == EMU_WARP ? EMU_FULL : (1u << cnt) - 1;
		for (int k = 0; k < 3; k++) {
			int s = p->sreg_slot[EMU_SR_CTAID_X + k];
			for (unsigned l = 0; s >= 0 && l < cnt; l++)
				W->R[(size_t)s * EMU_WARP + l] = x->ctaid[k];
		}
	}
	/* runnable from tpc + 1, like a thread a barrier released */
	memset(x->tstate, EMU_STOP_BAR, n);
	for (unsigned t = 0; t < n; t++)
		x->tpc[t] = EMU_NO_PC;
}

/* After an interval every live thread waits at a barrier or has exited.
 * Returns 1 when all exited, 0 when all wait at one bar.sync, -1 (fault
 * recorded) otherwise. */
static int barrier_state(emu_ctx *x, unsigned n)
{
	const uint8_t *st = x->tstate;
	const uint32_t *pc = x->tpc;
	int ref = -1;
	unsigned arrived = 0;
	for (unsigned t = 0; t < n; t++)
		if (st[t] == EMU_STOP_BAR && ref < 0)
			ref = (int)t;
	if (ref < 0)
		return 1;
	for (unsigned t = 0; t < n; t++)
		arrived += st[t] == EMU_STOP_BAR && pc[t] == pc[ref];
	if (arrived == n)
		return 0;
	for (unsigned t = 0; t < n; t++)
		if (st[t] != EMU_STOP_BAR || pc[t] != pc[ref]) {
			x->f = (emu_fault){.kind = EMU_F_BARRIER, .ins = (int)pc[ref], .tid = (unsigned)ref,
					   .other_tid = t, .other_ins = (int)pc[t],
					   .other_exited = st[t] == EMU_STOP_EXIT, .arrived = arrived,
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

static int stop(emu_ctx *x, unsigned tid, int kind)
{
	x->f = (emu_fault){.kind = kind, .ins = (int)x->tpc[tid], .tid = tid};
	return -1;
}

/* Every live lane of a warp, from where the barrier released it. */
static void start_warp(emu_ctx *x, emu_warp *W)
{
	uint32_t live = 0;
	for (uint32_t mm = W->lanes; mm; mm &= mm - 1) {
		unsigned l = (unsigned)__builtin_ctz(mm);
		if (x->tstate[W->base + l] == EMU_STOP_BAR)
			live |= 1u << l;
	}
	W->run = live;
	W->sp = 0;
	if (live) /* all at one bar.sync (barrier_state), or all at the start */
		W->stk[W->sp++] = (emu_simt){live, x->tpc[W->base + (unsigned)__builtin_ctz(live)] + 1, EMU_NO_PC};
}

/* One thread alone until its barrier or exit: the serial mode. */
static int run_thread(emu_ctx *x, emu_warp *W, unsigned t)
{
	emu_warp one; /* not zeroed: the stack is read below sp alone (a replay calls this millions of times) */
	one.R = W->R, one.base = W->base, one.lanes = W->lanes, one.run = 1u << (t % EMU_WARP), one.sp = 1;
	one.stk[0] = (emu_simt){one.run, x->tpc[t] + 1, EMU_NO_PC};
	return emu_exec(x, &one);
}

/* One interval of the CTA: each warp a warp at a time, or (serial) each
 * thread alone in the order of its tid, as the emulator ran them before
 * warps: a fault's message then names what that order meets first. */
static int run_interval(emu_ctx *x, emu_warp *wp, unsigned n, int serial)
{
	unsigned nw = (n + EMU_WARP - 1) / EMU_WARP;
	if (!serial) {
		for (unsigned w = 0; w < nw; w++) {
			start_warp(x, &wp[w]);
			if (!wp[w].run)
				continue;
			if (emu_exec(x, &wp[w]) == EMU_STOP_FAULT)
				return -1;
			if (x->executed > x->ins_allow)
				return stop(x, wp[w].base + (unsigned)__builtin_ctz(wp[w].lanes), EMU_F_BUDGET_INS);
		}
		return 0;
	}
	for (unsigned t = 0; t < n; t++) {
		if (x->tstate[t] != EMU_STOP_BAR)
			continue;
		if (run_thread(x, &wp[t / EMU_WARP], t) == EMU_STOP_FAULT)
			return -1;
		if (x->executed > x->ins_allow)
			return stop(x, t, EMU_F_BUDGET_INS);
	}
	return 0;
}

static int run_cta(emu_ctx *x, emu_warp *wp, unsigned n, const uint64_t *poison, int serial)
{
	init_warps(x, wp, n, poison);
	memset(x->smem, EMU_SMEM_POISON, x->smem_bytes);
	x->epoch++;
	for (;;) {
		if (run_interval(x, wp, n, serial))
			return -1;
		int st = barrier_state(x, n);
		if (st)
			return st > 0 ? 0 : -1;
		if (++x->barriers > x->bar_allow)
			return stop(x, 0, EMU_F_BUDGET_BAR);
		x->epoch++;
	}
}

/* A CTA faulted, a warp at a time. Run it again from its start with its
 * threads one at a time, so that the message is the one this order gives
 * (the same fault: each lane's path does not depend on the order until
 * the first race). Programs with warp-synchronous instructions cannot run
 * a thread alone: their fault stands as found. */
static void replay(emu_ctx *x, emu_warp *wp, unsigned n, const uint64_t *poison, uint64_t executed,
		   uint64_t barriers)
{
	if (x->prog->warp_ops)
		return;
	emu_ctx warp = *x;
	x->executed = executed;
	x->barriers = barriers;
	x->marks = NULL; /* the full record, for the message */
	if (!run_cta(x, wp, n, poison, 1))
		*x = warp; /* not found alone: keep the first report */
	x->marks = warp.marks;
}

/* The memory one CTA needs, within the emulator's limits: shared memory
 * into *smem. -1 with the message otherwise. */
static int check_size(const emu_prog *p, const emu_launch *l, unsigned n, uint32_t *smem, strbuf *diag)
{
	uint64_t lanes = (n + EMU_WARP - 1) / EMU_WARP * EMU_WARP; /* whole warps */
	uint64_t regfile = lanes * (uint64_t)p->nslots * sizeof(uint64_t);
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
	int abi = check_abi(p, l, diag);
	if (abi < 0)
		return EMU_UNSUPPORTED;
	if (check_block(p, l->block, diag))
		return EMU_FAULT;
	emu_ctx x = {.prog = p, .l = l, .budget = l->branch_budget ? l->branch_budget : EMU_BRANCH_BUDGET};
	abi_args a = {.in = EMU_IN_ADDR(l), .out = EMU_OUT_ADDR(l), .rows = l->rows, .cols = l->cols,
		      .ld_in = l->ld_in, .ld_out = l->ld_out, .batch = l->batch,
		      .stride_in = l->stride_in, .stride_out = l->stride_out};
	uint64_t vals[ABI_NPARAMS];
	abi_values(&a, vals);
	for (int k = 0; k < ABI_NPARAMS; k++)
		put(x.param, &p->params[k], vals[k]);
	if (abi >= ABI_VERSION_V3) { /* the launch's records, or its one batch dimension's */
		if (l->bdims)
			memcpy(a.bdims, l->bdims, ABI_BDIMS_BYTES);
		else
			abi_bdims_v2(&a);
		memcpy(x.param + p->params[ABI_NPARAMS].off, a.bdims, ABI_BDIMS_BYTES);
	}
	if (abi == ABI_VERSION_V4)
		memcpy(x.param + p->params[ABI_NPARAMS_V3].off, l->tdims, ABI_TDIMS_BYTES);
	unsigned n = l->block[0] * l->block[1] * l->block[2];
	if (check_size(p, l, n, &x.smem_bytes, diag))
		return EMU_UNSUPPORTED;
	unsigned nw = (n + EMU_WARP - 1) / EMU_WARP;
	size_t per_warp = (size_t)p->nslots * EMU_WARP;
	uint64_t *regs = malloc(nw * per_warp * sizeof *regs);
	uint64_t *poison = malloc((size_t)p->nregs * EMU_WARP * sizeof *poison + 1);
	emu_warp *wp = malloc(nw * sizeof *wp);
	x.tstate = malloc(n);
	x.tpc = malloc(n * sizeof *x.tpc);
	x.smem = malloc(x.smem_bytes + 1);
	x.shadow = calloc((size_t)x.smem_bytes + 1, sizeof *x.shadow);
	emu_mark *marks = p->warp_ops ? NULL : calloc((size_t)x.smem_bytes + 1, sizeof *marks);
	x.marks = marks;
	int rc = EMU_OK;
	uint64_t ctas = 0;
	if (!regs || !poison || !wp || !x.tstate || !x.tpc || !x.smem || !x.shadow || (!p->warp_ops && !marks)) {
		sb_add(diag, "out of memory for the emulated block");
		rc = EMU_FAULT;
		goto out;
	}
	/* every slot of every lane from the program's image, once: registers
	 * are poisoned again for each CTA, constants stay */
	for (int s = 0; s < p->nslots; s++)
		for (unsigned ln = 0; ln < EMU_WARP; ln++) {
			if (s < p->nregs)
				poison[(size_t)s * EMU_WARP + ln] = p->init[s];
			for (unsigned w = 0; w < nw; w++)
				regs[w * per_warp + (size_t)s * EMU_WARP + ln] = p->init[s];
		}
	for (unsigned w = 0; w < nw; w++)
		wp[w].R = regs + w * per_warp;
	init_lanes(&x, wp, n);
	for (unsigned z = 0; z < l->grid[2] && rc == EMU_OK; z++)
		for (unsigned y = 0; y < l->grid[1] && rc == EMU_OK; y++)
			for (unsigned cx = 0; cx < l->grid[0]; cx++) {
				x.ctaid[0] = cx, x.ctaid[1] = y, x.ctaid[2] = z;
				allow(&x, ++ctas, n);
				uint64_t executed = x.executed, barriers = x.barriers;
				if (run_cta(&x, wp, n, poison, 0)) {
					replay(&x, wp, n, poison, executed, barriers);
					emu_diag_fault(&x, diag);
					rc = EMU_FAULT;
					break;
				}
			}
out:
	if (l->stats) {
		l->stats->instructions = x.executed;
		l->stats->warp_instructions = x.warp_executed;
		l->stats->ctas = ctas;
		l->stats->barriers = x.barriers;
	}
	free(regs);
	free(poison);
	free(wp);
	free(x.tstate);
	free(x.tpc);
	free(x.smem);
	free(x.shadow);
	free(marks);
	return rc;
}
