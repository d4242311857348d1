/* The emulator on hostile or broken input: the launch's budget of
 * instructions and barriers, immediates and address offsets out of range,
 * and the limits on what one program may declare, each reached in linear
 * time. Prints TAP. */
#include <stdlib.h>
#include <time.h>

#include "tests/unit/emu_harness.h"

#define L(n) (EMU_T_BODY_LINE + (n)) /* line of the body's n-th line (0-based) */

static strbuf d;

static void expect(int rc, int want_rc, const char *want, const char *what)
{
	emu_t_expect(&d, rc, want_rc, want, what);
}

static void expect_has(int rc, int want_rc, const char *part, const char *what)
{
	emu_t_expect_has(&d, rc, want_rc, part, what);
}

/* Each thread counts to 2^22 (3 instructions a turn): under the branch
 * budget of one thread, far over the launch's once 32 threads do it. */
#define COUNT_LOOP                                                              \
	"\t.reg .b32 %c;\n\t.reg .pred %p;\n\tmov.u32 %c, 0;\nL:\n\tadd.u32 %c, %c, 1;\n" \
	"\tsetp.lt.u32 %p, %c, 4194304;\n\t@%p bra L;\n"

static void budgets(void)
{
	char want[512];
	emu_t_run r = {0};
	int rc = emu_t(&r, "L:\n\tbar.sync 0;\n\tbra.uni L;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`bar.sync 0`): thread (0,0,0) block (0,0,0): barrier budget spent: "
		 "65601 barrier intervals, the launch allows 65600 (2^16 + 64 a CTA started): a loop around bar.sync?",
		 L(1));
	expect(rc, EMU_FAULT, want, "L: bar.sync 0; bra L; stops at the default barrier budget, naming kernel, line, budget");

	r = (emu_t_run){.threads = 4, .max_barriers = 10};
	rc = emu_t(&r, "L:\n\tbar.sync 0;\n\tbra.uni L;\n", &d);
	expect_has(rc, EMU_FAULT, "barrier budget spent: 11 barrier intervals, the launch allows 10: a loop around bar.sync?",
		   "a barrier budget set through emu_launch");

	r = (emu_t_run){.threads = 32};
	rc = emu_t(&r, COUNT_LOOP, &d);
	snprintf(want, sizeof want, "kernel k line %d (`@%%p bra L`): thread (5,0,0) block (0,0,0): instruction budget spent: ",
		 L(6));
	expect_has(rc, EMU_FAULT, want, "32 threads counting to 2^22 each spend the default launch budget in thread 5");
	expect_has(rc, EMU_FAULT, "the launch allows 67633152 (2^26 + 2^14 a thread started, 2^34 at most): an endless loop?",
		   "... and the message gives the budget and how it is sized");

	r = (emu_t_run){.threads = 2, .max_instructions = 1000};
	rc = emu_t(&r, COUNT_LOOP, &d);
	expect_has(rc, EMU_FAULT, "thread (0,0,0) block (0,0,0): instruction budget spent: 1003 instructions executed, "
				  "the launch allows 1000: an endless loop?",
		   "an instruction budget set through emu_launch");

	r = (emu_t_run){.threads = 2, .max_instructions = 5};
	rc = emu_t(&r, "\tadd.u32 %t, %t, 1;\n\tadd.u32 %t, %t, 1;\n\tadd.u32 %t, %t, 1;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`}`): thread (0,0,0) block (0,0,0): instruction budget spent: "
		 "7 instructions executed, the launch allows 5: an endless loop?", L(3));
	expect(rc, EMU_FAULT, want, "straight-line code over the budget stops where the thread stopped");

	emu_stats st = {0};
	r = (emu_t_run){.threads = 64, .ctas = 2, .stats = &st};
	rc = emu_t(&r, "\t.reg .b32 %i;\n\t.reg .pred %p;\n\tmov.u32 %i, 0;\nL:\n\tbar.sync 0;\n\tadd.u32 %i, %i, 1;\n"
		       "\tsetp.lt.u32 %p, %i, 3;\n\t@%p bra L;\n", &d);
	ok(rc == EMU_OK && st.barriers == 6 && st.ctas == 2,
	   "the statistics count barrier intervals (3 in each of 2 CTAs: %llu)", (unsigned long long)st.barriers);
}

static void immediates(void)
{
	emu_t_run r = {0};
	char want[256];
	int rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.global.b32 %a, [%in+-9223372036854775808];\n", &d);
	snprintf(want, sizeof want, "line %d: address offset -9223372036854775808 is out of range (-2^31 to 2^31-1)", L(1));
	expect(rc, EMU_UNSUPPORTED, want, "[%in+-9223372036854775808] is refused with the line");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.param.u32 %a, [rows+9223372036854775807];\n", &d);
	snprintf(want, sizeof want, "line %d: address offset 9223372036854775807 is out of range (-2^31 to 2^31-1)", L(1));
	expect(rc, EMU_UNSUPPORTED, want, "[rows+9223372036854775807] is refused with the line");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.global.b32 %a, [%in+2147483648];\n", &d);
	expect_has(rc, EMU_UNSUPPORTED, "address offset 2147483648 is out of range", "an offset of 2^31 is refused");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.shared.b32 %a, [4294967296];\n", &d);
	expect_has(rc, EMU_UNSUPPORTED, "address offset 4294967296 is out of range", "so is an absolute address of 2^32");
	uint32_t in[1];
	r = (emu_t_run){.in = in, .in_bytes = sizeof in};
	rc = emu_t(&r, "\t.reg .b32 %a;\n\tld.global.b32 %a, [%in+-2147483648];\n", &d);
	expect_has(rc, EMU_FAULT, "global load of 4 bytes at in-0x80000000", "an offset of -2^31 is read, and faults");

	uint64_t out[2] = {0};
	r = (emu_t_run){.out = out, .out_bytes = sizeof out};
	rc = emu_t(&r, "\t.reg .b64 %x;\n\tmov.u64 %x, -9223372036854775808;\n\tst.global.b64 [%out], %x;\n"
		       "\tmov.u64 %x, 18446744073709551615;\n\tst.global.b64 [%out+8], %x;\n", &d);
	ok(rc == EMU_OK && out[0] == UINT64_C(0x8000000000000000) && out[1] == UINT64_MAX,
	   "-2^63 and 2^64-1 are immediates (%s)", sb_str(&d));
	rc = emu_t(&r, "\t.reg .b64 %x;\n\tmov.u64 %x, -9223372036854775809;\n", &d);
	snprintf(want, sizeof want, "line %d: immediate -9223372036854775809 is out of range (64 bits: -2^63 at the least)",
		 L(1));
	expect(rc, EMU_UNSUPPORTED, want, "-2^63-1 is refused with the line");
	rc = emu_t(&r, "\t.reg .b64 %x;\n\tmov.u64 %x, 18446744073709551616;\n", &d);
	expect_has(rc, EMU_UNSUPPORTED, "immediate '18446744073709551616' is outside the subset", "so is 2^64");
}

static double seconds(clock_t since) { return (double)(clock() - since) / CLOCKS_PER_SEC; }

/* The body of a program at the limits: `regs` registers besides the
 * harness's 3, `labels` labels, `ins` instructions besides its 3, the first
 * 40,000 with distinct immediates. */
static char *at_limits(int regs, int labels, int ins)
{
	strbuf b;
	sb_init(&b);
	sb_printf(&b, "\t.reg .b32 %%r<%d>;\n", regs);
	for (int k = 0; k < labels; k++)
		sb_printf(&b, "L%d:\n", k);
	for (int k = 0; k < ins; k++)
		sb_printf(&b, "\tadd.u32 %%r%d, %%r%d, %d;\n", k % regs, (k + 1) % regs, k < 40000 ? k : 1);
	return b.data;
}

static void limits(void)
{
	char want[256];
	emu_t_run r = {0};
	clock_t t0 = clock();
	int rc = emu_t(&r, "\t.reg .b64 %z<59900>;\n", &d);
	snprintf(want, sizeof want, "line %d: register range %%z<N> needs 1 <= N <= 16384", L(0));
	expect(rc, EMU_UNSUPPORTED, want, ".reg .b64 %z<59900>; is refused");
	rc = emu_t(&r, "\t.reg .b32 %a<10000>;\n\t.reg .b32 %b<10000>;\n", &d);
	snprintf(want, sizeof want, "line %d: more than 16384 registers (the emulator's limit)", L(1));
	expect(rc, EMU_UNSUPPORTED, want, "two ranges past 16384 registers are refused");

	char *body = at_limits(16381, 65536, (1 << 18) - 3);
	t0 = clock();
	rc = emu_t(&r, body, &d);
	double took = seconds(t0);
	free(body);
	/* linear: about 0.5 s of CPU under ASan; a quadratic step over 2^18
	 * instructions would take hours, so 10 s tells the two apart on a
	 * loaded CI machine too (2 s failed there once) */
	ok(rc == EMU_OK && took < 10.0,
	   "16384 registers, 65536 labels, 2^18 instructions, 40000 constants: loaded and run in %.2f s (%s)", took,
	   sb_str(&d));
	body = at_limits(16382, 1, 1);
	rc = emu_t(&r, body, &d);
	free(body);
	expect_has(rc, EMU_UNSUPPORTED, "more than 16384 registers (the emulator's limit)", "16385 registers are refused");
	body = at_limits(1, 65537, 1);
	rc = emu_t(&r, body, &d);
	free(body);
	snprintf(want, sizeof want, "line %d: more than 65536 labels (the emulator's limit)", L(65537));
	expect(rc, EMU_UNSUPPORTED, want, "65537 labels are refused");
	body = at_limits(1, 0, (1 << 18) - 2);
	rc = emu_t(&r, body, &d);
	free(body);
	expect_has(rc, EMU_UNSUPPORTED, "more than 262144 instructions (the emulator's limit)",
		   "2^18 + 1 instructions are refused");

	r = (emu_t_run){.threads = 1024};
	rc = emu_t(&r, "\t.reg .b32 %a<16000>;\n", &d);
	expect_has(rc, EMU_UNSUPPORTED, "registers and constants a thread for 1024 threads is 125 MiB of emulated registers "
					"(the emulator's limit is 64 MiB)",
		   "16000 registers for 1024 threads: the register file is refused before it is allocated");
	r.threads = 32;
	rc = emu_t(&r, "\t.reg .b32 %a<16000>;\n", &d);
	expect(rc, EMU_OK, "", "... and runs with 32 threads");
}

static void shared(void)
{
	emu_t_run r = {.module = ".shared .b8 s[262145];\n"};
	int rc = emu_t(&r, "", &d);
	expect(rc, EMU_UNSUPPORTED, "line 1: shared variable s is larger than 256 KiB (the emulator's limit)",
	       "a shared array over 256 KiB");
	r.module = ".shared .b8 s[65536][65536][65536][65536][65536];\n";
	rc = emu_t(&r, "", &d);
	expect(rc, EMU_UNSUPPORTED, "line 1: shared variable s is larger than 256 KiB (the emulator's limit)",
	       "dimensions whose product wraps around 2^64");
	r.module = ".shared .b8 a[200000];\n.shared .b8 b[200000];\n";
	rc = emu_t(&r, "", &d);
	expect_has(rc, EMU_UNSUPPORTED, "more than 256 KiB of shared memory (the emulator's limit)",
		   "two arrays over 256 KiB together");
	strbuf m;
	sb_init(&m);
	for (int k = 0; k <= 1024; k++)
		sb_printf(&m, ".shared .b8 v%d[1];\n", k);
	r.module = sb_str(&m);
	rc = emu_t(&r, "", &d);
	expect(rc, EMU_UNSUPPORTED, "line 1025: more than 1024 shared variables (the emulator's limit)",
	       "1025 shared variables");
	sb_free(&m);
	r = (emu_t_run){.module = ".extern .shared .align 16 .b8 dyn[];\n.shared .b8 s[16];\n", .dyn_smem = 1u << 20};
	rc = emu_t(&r, "", &d);
	expect(rc, EMU_UNSUPPORTED, "kernel k: 1048592 bytes of shared memory (16 static, 1048576 dynamic) is more than "
				    "the emulator's limit of 256 KiB",
	       "dynamic shared memory over the limit is refused before it is allocated");
	r.dyn_smem = 4096;
	rc = emu_t(&r, "", &d);
	expect(rc, EMU_OK, "", "... and 4 KiB of it runs");
}

int main(void)
{
	sb_init(&d);
	budgets();
	immediates();
	limits();
	shared();
	sb_free(&d);
	return tap_done();
}
