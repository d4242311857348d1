/* The emulator's checks on planted bugs: out-of-bounds and misaligned
 * accesses, stores to the input, shared-memory races, barrier divergence,
 * endless loops, and PTX outside the subset. The messages are compared
 * whole where their form matters. Prints TAP. */
#include <stdlib.h>

#include "tests/unit/emu_harness.h"

#define L(n) (EMU_T_BODY_LINE + (n)) /* line of the body's n-th line (0-based) */
#define SHARED ".shared .align 4 .b8 buf[64];\n" /* shifts the body by one line */

static strbuf d;

static void expect(int rc, int want_rc, const char *want, const char *what)
{
	emu_t_expect(&d, rc, want_rc, want, what);
}

static void expect_has(int rc, int want_rc, const char *part, const char *what)
{
	emu_t_expect_has(&d, rc, want_rc, part, what);
}

static void global_bounds(void)
{
	uint8_t in[20] = {0}, out[24] = {0};
	char want[512];
	emu_t_run r = {.in = in, .in_bytes = sizeof in, .out = out, .out_bytes = sizeof out};
	int rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.global.b32 %a, [%in+20];\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`ld.global.b32 %%a, [%%in+20]`): thread (0,0,0) block (0,0,0): "
		 "global load of 4 bytes at in+0x14 (allocation is 0x14 bytes)", L(1));
	expect(rc, EMU_FAULT, want, "a load one element past the input: kernel, line, instruction, thread, block, address");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tmov.u32 %a, 1;\n\tst.global.v4.b32 [%out+16], {%a, %a, %a, %a};\n", &d);
	expect_has(rc, EMU_FAULT, "global store of 16 bytes at out+0x10 (allocation is 0x18 bytes)",
		   "a 16-byte store that straddles the end of the output");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.global.b32 %a, [%in+-4];\n", &d);
	expect_has(rc, EMU_FAULT, "global load of 4 bytes at in-0x4 (allocation is 0x14 bytes)",
		   "a load just before the input, through [%%reg+-imm]");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b64 %x;\n\tld.global.b32 %a, [%x];\n", &d);
	expect_has(rc, EMU_FAULT, "outside any allocation", "an address from a register never written");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b32 %b;\n\tld.global.v2.b32 {%a, %b}, [%in+4];\n", &d);
	expect_has(rc, EMU_FAULT, "misaligned global load of 8 bytes at in+0x4 (8-byte accesses need 8-byte alignment)",
		   "a misaligned vector load");
	rc = emu_t(&r, "\tst.global.b32 [%in], %t;\n", &d);
	expect_has(rc, EMU_FAULT, "global store of 4 bytes at in+0x0 (the input is read-only)", "a store into the input");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .pred %p;\n\tsetp.eq.u32 %p, %t, 1;\n\t@%p ld.global.b32 %a, [%in+20];\n"
		       "\tst.global.b32 [%out], %a;\n", &d);
	expect(rc, EMU_OK, "", "a guarded-off access is not made");

	/* element 37 of 37 is thread 5 of block 1 */
	uint32_t in37[37], out37[37];
	emu_t_run r2 = {.threads = 32, .ctas = 2, .in = in37, .in_bytes = sizeof in37, .out = out37,
			.out_bytes = sizeof out37};
	rc = emu_t(&r2, "\t.reg .b32 %i;\n\t.reg .b32 %v;\n\t.reg .b64 %o;\n"
			"\tmov.u32 %i, %ctaid.x;\n\tmad.lo.u32 %i, %i, 32, %t;\n\tmul.wide.u32 %o, %i, 4;\n"
			"\tadd.u64 %o, %in, %o;\n\tld.global.b32 %v, [%o];\n", &d);
	expect_has(rc, EMU_FAULT, "thread (5,0,0) block (1,0,0): global load of 4 bytes at in+0x94 (allocation is 0x94 bytes)",
		   "the first thread past the end is named with its block");
}

static void shared_bounds(void)
{
	emu_t_run r = {.module = SHARED};
	int rc = emu_t(&r, "\t.reg .b32 %s;\n\tmov.u32 %s, buf;\n\tst.shared.b32 [%s+64], %t;\n", &d);
	expect_has(rc, EMU_FAULT, "shared store of 4 bytes at buf+0x40 (shared memory is 0x40 bytes)",
		   "a shared store past the end");
	rc = emu_t(&r, "\tst.shared.b32 [buf+2], %t;\n", &d);
	expect_has(rc, EMU_FAULT, "misaligned shared store of 4 bytes at buf+0x2", "a misaligned shared store");
}

static void races(void)
{
	char want[512];
	emu_t_run r = {.threads = 2, .module = SHARED};
	int rc = emu_t(&r, "\tst.shared.b32 [buf+8], %t;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`st.shared.b32 [buf+8], %%t`): thread (1,0,0) block (0,0,0): "
		 "shared-memory race at buf+0x8: this 4-byte store writes a byte that thread (0,0,0) wrote at line %d "
		 "(`st.shared.b32 [buf+8], %%t`) in the same barrier interval (no bar.sync between them)", L(1), L(1));
	expect(rc, EMU_FAULT, want, "two threads store to one shared word: a race naming both threads and the line");

	const char *rw = "\t.reg .b32 %a;\n\t.reg .b32 %s;\n\tmov.u32 %s, buf;\n\tmad.lo.u32 %s, %t, 4, %s;\n"
			 "\tst.shared.b32 [%s], %t;\n\tld.shared.b32 %a, [buf+4];\n";
	rc = emu_t(&r, rw, &d);
	snprintf(want, sizeof want, "this 4-byte store writes a byte that thread (0,0,0) read at line %d "
		 "(`ld.shared.b32 %%a, [buf+4]`)", L(6));
	expect_has(rc, EMU_FAULT, want, "a store to a word another thread read in the interval");

	uint32_t out[1];
	emu_t_run r2 = {.threads = 64, .module = SHARED, .out = out, .out_bytes = sizeof out};
	rc = emu_t(&r2, "\t.reg .b32 %a;\n\t.reg .pred %p;\n\tsetp.eq.u32 %p, %t, 0;\n\t@%p st.shared.b32 [buf], %t;\n"
			"\tld.shared.b32 %a, [buf];\n", &d);
	expect_has(rc, EMU_FAULT, "thread (1,0,0) block (0,0,0): shared-memory race at buf+0x0: this 4-byte load reads "
				  "a byte that thread (0,0,0) wrote",
		   "a load of a word another thread stored, no barrier between");
	rc = emu_t(&r2, "\t.reg .b32 %a;\n\t.reg .pred %p;\n\tsetp.eq.u32 %p, %t, 0;\n\t@%p st.shared.b32 [buf], %t;\n"
			"\tbar.sync 0;\n\tld.shared.b32 %a, [buf];\n\tbar.sync 0;\n\t@%p st.shared.b32 [buf], %a;\n", &d);
	expect(rc, EMU_OK, "", "store, barrier, 64 readers, barrier, store: no race");
	rc = emu_t(&r2, "\t.reg .b32 %a;\n\t.reg .pred %p;\n\tld.shared.b32 %a, [buf];\n\tsetp.eq.u32 %p, %t, 63;\n"
			"\t@%p st.shared.b32 [buf], %a;\n", &d);
	expect_has(rc, EMU_FAULT, "thread (63,0,0) block (0,0,0): shared-memory race at buf+0x0: this 4-byte store writes "
				  "a byte that thread (0,0,0) read",
		   "a store after 63 other threads read the word");
	rc = emu_t(&r2, "\t.reg .b32 %a;\n\t.reg .b32 %s;\n\t.reg .pred %p;\n\tmov.u32 %s, buf;\n\tand.b32 %a, %t, 15;\n"
			"\tmad.lo.u32 %s, %a, 4, %s;\n\tsetp.lt.u32 %p, %t, 16;\n\t@%p st.shared.b32 [%s], %t;\n"
			"\t@%p ld.shared.b32 %a, [%s];\n\t@%p st.shared.b32 [%s], %a;\n", &d);
	expect(rc, EMU_OK, "", "each thread reads and writes only its own word: no race");
}

static void barriers(void)
{
	char want[512];
	emu_t_run r = {.threads = 64};
	int rc = emu_t(&r, "\t.reg .pred %p;\n\tsetp.lt.u32 %p, %t, 32;\n\t@%p ret;\n\tbar.sync 0;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`bar.sync 0`): block (0,0,0): barrier divergence: 32 of 64 threads "
		 "wait here, but thread (0,0,0) exited at line %d (`@%%p ret`)", L(3), L(2));
	expect(rc, EMU_FAULT, want, "half the block returns before bar.sync");
	rc = emu_t(&r, "\t.reg .pred %p;\n\tsetp.lt.u32 %p, %t, 32;\n\t@%p bra B;\n\tbar.sync 0;\n\tbra.uni E;\n"
		       "B:\n\tbar.sync 0;\nE:\n\tret;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`bar.sync 0`): block (0,0,0): barrier divergence: 32 of 64 threads "
		 "wait here, but thread (32,0,0) waits at another barrier at line %d (`bar.sync 0`)", L(6), L(3));
	expect(rc, EMU_FAULT, want, "two halves wait at different bar.sync instructions");
	rc = emu_t(&r, "\t.reg .b32 %i;\n\t.reg .pred %p;\n\tmov.u32 %i, 0;\nL:\n\tbar.sync 0;\n\tadd.u32 %i, %i, 1;\n"
		       "\tsetp.lt.u32 %p, %i, 3;\n\t@%p bra L;\n", &d);
	expect(rc, EMU_OK, "", "a barrier in a loop every thread runs three times");
}

static void others(void)
{
	emu_t_run r = {0};
	int rc = emu_t(&r, "\t.reg .b32 %a;\n\tmov.u32 %a, 0;\n\tdiv.u32 %a, %t, %a;\n", &d);
	expect_has(rc, EMU_FAULT, "integer division by zero", "division by zero");
	r.branch_budget = 1000;
	rc = emu_t(&r, "L:\n\tbra.uni L;\n", &d);
	expect_has(rc, EMU_FAULT, "more than 1000 backward branches without reaching a barrier or exit",
		   "an endless loop stops");
}

static void unsupported(void)
{
	char want[256];
	emu_t_run r = {0};
	struct {
		const char *body;
		int line;  /* body line of the error */
		const char *msg;
	} cases[] = {
		{"\t.reg .f32 %f;\n\tfma.rn.f32 %f, %f, %f, %f;\n", 1, "unsupported instruction 'fma.rn.f32'"},
		{"\t.reg .b32 %a;\n\tprmt.b32.f4e %a, %a, %a, %a;\n", 1,
		 "unsupported instruction 'prmt.b32.f4e' (modifier .f4e is outside the subset)"},
		{"\t.reg .b32 %a;\n\tld.local.b32 %a, [%in];\n", 1,
		 "unsupported instruction 'ld.local.b32' (modifier .local is outside the subset)"},
		{"\t.reg .b32 %a;\n\t.reg .b64 %x;\n\tld.global.L2::cache_hint.b32 %a, [%in], %x;\n", 2,
		 "unsupported instruction 'ld.global.L2::cache_hint.b32' (modifier .L2::cache_hint is outside the subset)"},
		{"\t.reg .b64 %x;\n\tcvta.to.shared.u64 %x, %x;\n", 1,
		 "unsupported instruction 'cvta.to.shared.u64' (only the global state space: generic shared/local addresses "
		 "are outside the subset)"},
		{"\t.reg .f32 %f;\n\tadd.f32 %f, %f, %f;\n", 1,
		 "unsupported instruction 'add.f32' (floating-point types are outside the subset here)"},
		{"\tadd.u32 %nope, %t, 1;\n", 0, "register %nope is not declared (or is an unsupported special register)"},
		{"\t.reg .b32 %a;\n\tmov.u32 %a, %clock;\n", 1,
		 "register %clock is not declared (or is an unsupported special register)"},
		{"\t.reg .b64 %x;\n\tadd.u32 %x, %t, 1;\n", 1, "%x is a 64-bit register, but 'add.u32' needs a 32-bit register"},
		{"\t.local .b32 foo;\n", 0, "unsupported directive '.local' in the kernel body"},
		{"\tbra.uni NOWHERE;\n", 0, "label NOWHERE is not defined"},
		{"\t#include <x>\n", 0, "unexpected character '#'"},
		{"\t/* a\n\t b */ add.u32 %nope, %t, 1;\n", 1, "register %nope is not declared (or is an unsupported special register)"},
		{"\tbar.sync 0, 32;\n", 0, "unsupported instruction 'bar.sync' (a thread count is outside the subset)"},
		{"\tredux.sync.add.u32 %t, %t, -1;\n", 0, "unsupported instruction 'redux.sync.add.u32'"},
		{"\t{\n", 0, "unsupported nested block '{'"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		snprintf(want, sizeof want, "line %d: %s", L(cases[k].line), cases[k].msg);
		int rc = emu_t(&r, cases[k].body, &d);
		expect(rc, EMU_UNSUPPORTED, want, want);
	}
}

/* Whole files: entry checks, and emu_transpose with metadata. */
static void files(void)
{
	const char *ptx =
		"// ptxpose kernel=naive abi=2 elem=32 grid=linear block=64 per_block=64\n"
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry naive(.param .u64 in, .param .u64 out, .param .u32 rows,\n"
		"\t.param .u32 cols, .param .u32 ld_in, .param .u32 ld_out, .param .u32 batch, .param .u64 stride_in,"
		" .param .u64 stride_out)\n.reqntid 64, 1, 1\n{\n"
		"\t.reg .b64 %in;\n\t.reg .b64 %out;\n\t.reg .b32 %rows;\n\t.reg .b32 %cols;\n\t.reg .b32 %ldi;\n"
		"\t.reg .b32 %ldo;\n\t.reg .b32 %e;\n\t.reg .b32 %i;\n\t.reg .b32 %j;\n\t.reg .b32 %v;\n\t.reg .b64 %o;\n"
		"\t.reg .pred %p;\n"
		"\tld.param.u64 %in, [in];\n\tld.param.u64 %out, [out];\n\tld.param.u32 %rows, [rows];\n"
		"\tld.param.u32 %cols, [cols];\n\tld.param.u32 %ldi, [ld_in];\n\tld.param.u32 %ldo, [ld_out];\n"
		"\tmov.u32 %e, %ctaid.x;\n\tmov.u32 %i, %tid.x;\n\tmad.lo.u32 %e, %e, 64, %i;\n"
		"\tmul.lo.u32 %i, %rows, %cols;\n\tsetp.ge.u32 %p, %e, %i;\n\t@%p ret;\n"
		"\tdiv.u32 %i, %e, %cols;\n\trem.u32 %j, %e, %cols;\n"
		"\tmad.lo.u32 %v, %i, %ldi, %j;\n\tmul.wide.u32 %o, %v, 4;\n\tadd.u64 %o, %in, %o;\n"
		"\tld.global.b32 %v, [%o];\n"
		"\tmad.lo.u32 %j, %j, %ldo, %i;\n\tmul.wide.u32 %o, %j, 4;\n\tadd.u64 %o, %out, %o;\n"
		"\tst.global.b32 [%o], %v;\n}\n";
	px_meta m;
	char err[256];
	ok(meta_parse(ptx, &m, err, sizeof err) == 0, "metadata of the hand-written naive kernel (%s)", err);
	enum { R = 5, C = 7, LDI = 9, LDO = 6 };
	uint32_t in[R * LDI], out[C * LDO];
	for (int k = 0; k < R * LDI; k++)
		in[k] = 1000u + (unsigned)k;
	memset(out, 0xa5, sizeof out);
	sb_reset(&d);
	int rc = emu_transpose(ptx, &m, in, sizeof in, out, sizeof out, R, C, LDI, LDO, &d);
	int good = rc == EMU_OK;
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++)
			good &= out[j * LDO + i] == in[i * LDI + j];
	ok(good, "emu_transpose: 5x7 with ld_in 9, ld_out 6, grid from the metadata (%s)", sb_str(&d));
	px_meta bad = m;
	strcpy(bad.kernel, "other");
	sb_reset(&d);
	rc = emu_transpose(ptx, &bad, in, sizeof in, out, sizeof out, R, C, LDI, LDO, &d);
	expect(rc, EMU_UNSUPPORTED, "the metadata names kernel other but the file's entry is naive",
	       "metadata and entry name disagree");
	bad = m;
	bad.block[0] = 32;
	sb_reset(&d);
	rc = emu_transpose(ptx, &bad, in, sizeof in, out, sizeof out, R, C, LDI, LDO, &d);
	expect(rc, EMU_FAULT, "kernel naive: block 32x1x1 does not match .reqntid 64, 1, 1 (the launch would fail)",
	       "a block that .reqntid refuses");
	emu_prog *p;
	sb_reset(&d);
	rc = emu_load(".version 8.0\n.target sm_80\n.address_size 64\n"
		      ".visible .entry k(.param .u64 in)\n{\n\tret;\n}\n", &p, &d);
	emu_launch l = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
	if (rc == EMU_OK) {
		rc = emu_run(p, &l, &d);
		emu_free(p);
	}
	expect_has(rc, EMU_UNSUPPORTED, "the parameters are not kernel ABI v2", "an entry without the ABI's parameters");
	sb_reset(&d);
	rc = emu_load(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry a()\n{\n\tret;\n}\n"
		      ".visible .entry b()\n{\n\tret;\n}\n", &p, &d);
	expect(rc, EMU_UNSUPPORTED, "line 8: a second .entry (ptxpose files hold one kernel)", "two entries in one file");
}

int main(void)
{
	sb_init(&d);
	global_bounds();
	shared_bounds();
	races();
	barriers();
	others();
	unsupported();
	files();
	sb_free(&d);
	return tap_done();
}
