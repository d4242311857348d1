/* diag: one line per fault, in the form
 *   kernel K line L (`instruction`): thread (x,y,z) block (x,y,z): what happened
 * with addresses named by allocation ("in+0x1f0", "tile+0x40"). */
#include <inttypes.h>

#include "emu/emu_int.h"

static const char *ins_text(const emu_ctx *x, int ins) { return x->prog->text + x->prog->code[ins].text; }

static void thread_xyz(strbuf *sb, const emu_ctx *x, unsigned tid)
{
	const unsigned *b = x->l->block;
	sb_printf(sb, "thread (%u,%u,%u)", tid % b[0], tid / b[0] % b[1], tid / (b[0] * b[1]));
}

static void where(strbuf *sb, const emu_ctx *x, int ins)
{
	sb_printf(sb, "kernel %s line %u (`%s`): ", x->prog->entry, x->prog->code[ins].line, ins_text(x, ins));
}

static void block_xyz(strbuf *sb, const emu_ctx *x)
{
	sb_printf(sb, "block (%u,%u,%u)", x->ctaid[0], x->ctaid[1], x->ctaid[2]);
}

/* "in+0x1f0", "out-0x4", or the bare address with both allocations. */
static void global_addr(strbuf *sb, const emu_ctx *x, uint64_t addr, size_t *size)
{
	static const uint64_t near = 1ull << 40;
	const struct { const char *name; uint64_t base; size_t bytes; } al[2] = {
		{"in", EMU_IN_ADDR(x->l), x->l->in_bytes}, {"out", EMU_OUT_ADDR(x->l), x->l->out_bytes},
	};
	for (int k = 0; k < 2; k++) {
		if (addr - al[k].base < near) {
			sb_printf(sb, "%s+0x%" PRIx64, al[k].name, addr - al[k].base);
			*size = al[k].bytes;
			return;
		}
		if (al[k].base - addr <= near) {
			sb_printf(sb, "%s-0x%" PRIx64, al[k].name, al[k].base - addr);
			*size = al[k].bytes;
			return;
		}
	}
	sb_printf(sb, "0x%" PRIx64 ", outside any allocation (in is 0x%" PRIx64 " and 0x%zx bytes, out is 0x%" PRIx64
		      " and 0x%zx bytes)", addr, EMU_IN_ADDR(x->l), x->l->in_bytes, EMU_OUT_ADDR(x->l), x->l->out_bytes);
	*size = 0;
}

/* "tile+0x40": the variable the address falls in, else the last one before it. */
static void shared_addr(strbuf *sb, const emu_ctx *x, uint64_t addr)
{
	const emu_prog *p = x->prog;
	int best = -1;
	for (int i = 0; i < p->nvars; i++)
		if (p->vars[i].off <= addr && (best < 0 || p->vars[i].off >= p->vars[best].off))
			best = i;
	if (best >= 0)
		sb_printf(sb, "%s+0x%" PRIx64, p->vars[best].name, addr - p->vars[best].off);
	else
		sb_printf(sb, "0x%" PRIx64, addr);
}

/* A warp-synchronous instruction whose lanes did not all take part. */
static void warp_fault(strbuf *sb, const emu_ctx *x)
{
	const emu_fault *f = &x->f;
	unsigned lane = f->tid % EMU_WARP;
	switch (f->store) {
	case EMU_W_NOT_MEMBER:
		sb_printf(sb, "lane %u executes it but is not in the member mask 0x%08x", lane, (unsigned)f->addr);
		break;
	case EMU_W_ABSENT:
		sb_printf(sb, "lane %u of the member mask 0x%08x does not execute it with lane %u (divergent, guarded "
			      "off or exited)", f->other_tid, (unsigned)f->addr, lane);
		break;
	case EMU_W_MASKS:
		sb_printf(sb, "lane %u gives the member mask 0x%08x, lane %u 0x%08x", lane, (unsigned)f->addr,
			  f->other_tid, f->bytes);
		break;
	case EMU_W_ALIGNED:
		sb_printf(sb, "lane %u of the warp does not execute it with lane %u (.aligned: the whole warp must)",
			  f->other_tid, lane);
		break;
	default:
		sb_printf(sb, "lane %u reads lane %u, which does not execute it (active lanes 0x%08x)", lane,
			  f->other_tid, (unsigned)f->addr);
		break;
	}
}

static void access_fault(strbuf *sb, const emu_ctx *x)
{
	const emu_fault *f = &x->f;
	const char *op = f->store ? "store" : "load";
	size_t size = 0;
	switch (f->kind) {
	case EMU_F_GLOBAL_OOB:
		sb_printf(sb, "global %s of %u bytes at ", op, f->bytes);
		global_addr(sb, x, f->addr, &size);
		if (size)
			sb_printf(sb, " (allocation is 0x%zx bytes)", size);
		break;
	case EMU_F_GLOBAL_MISALIGN:
		sb_printf(sb, "misaligned global %s of %u bytes at ", op, f->bytes);
		global_addr(sb, x, f->addr, &size);
		sb_printf(sb, " (%u-byte accesses need %u-byte alignment)", f->bytes, f->bytes);
		break;
	case EMU_F_GLOBAL_READONLY:
		sb_printf(sb, "global store of %u bytes at ", f->bytes);
		global_addr(sb, x, f->addr, &size);
		sb_add(sb, " (the input is read-only)");
		break;
	case EMU_F_SHARED_OOB:
	case EMU_F_SHARED_MISALIGN:
		sb_printf(sb, "%sshared %s of %u bytes at ", f->kind == EMU_F_SHARED_OOB ? "" : "misaligned ", op,
			  f->bytes);
		shared_addr(sb, x, f->addr);
		if (f->kind == EMU_F_SHARED_OOB)
			sb_printf(sb, " (shared memory is 0x%x bytes)", x->smem_bytes);
		else
			sb_printf(sb, " (%u-byte accesses need %u-byte alignment)", f->bytes, f->bytes);
		break;
	case EMU_F_RACE:
		sb_add(sb, "shared-memory race at ");
		shared_addr(sb, x, f->addr);
		sb_printf(sb, ": this %u-byte %s %s a byte that ", f->bytes, op, f->store ? "writes" : "reads");
		thread_xyz(sb, x, f->other_tid);
		sb_printf(sb, " %s at line %u (`%s`) in the same barrier interval (no bar.sync between them)",
			  f->other_store ? "wrote" : "read", x->prog->code[f->other_ins].line,
			  ins_text(x, f->other_ins));
		break;
	case EMU_F_DIVZERO:
		sb_add(sb, "integer division by zero");
		break;
	case EMU_F_LOOP:
		sb_printf(sb, "more than %" PRIu64 " backward branches without reaching a barrier or exit (an endless loop?)",
			  x->budget);
		break;
	case EMU_F_BUDGET_INS:
		sb_printf(sb, "instruction budget spent: %" PRIu64 " instructions executed, the launch allows %" PRIu64
			      "%s: an endless loop?", x->executed, x->ins_allow,
			  x->l->max_instructions ? "" : " (2^26 + 2^14 a thread started, 2^34 at most)");
		break;
	case EMU_F_WARP:
		warp_fault(sb, x);
		break;
	case EMU_F_BUDGET_BAR:
		sb_printf(sb, "barrier budget spent: %" PRIu64 " barrier intervals, the launch allows %" PRIu64
			      "%s: a loop around bar.sync?", x->barriers, x->bar_allow,
			  x->l->max_barriers ? "" : " (2^16 + 64 a CTA started)");
		break;
	}
}

void emu_diag_fault(const emu_ctx *x, strbuf *sb)
{
	const emu_fault *f = &x->f;
	where(sb, x, f->ins);
	if (f->kind == EMU_F_BARRIER) {
		block_xyz(sb, x);
		sb_printf(sb, ": barrier divergence: %u of %u threads wait here, but ", f->arrived, f->threads);
		thread_xyz(sb, x, f->other_tid);
		sb_printf(sb, " %s at line %u (`%s`)", f->other_exited ? "exited" : "waits at another barrier",
			  x->prog->code[f->other_ins].line, ins_text(x, f->other_ins));
		return;
	}
	thread_xyz(sb, x, f->tid);
	sb_add(sb, " ");
	block_xyz(sb, x);
	sb_add(sb, ": ");
	access_fault(sb, x);
}
