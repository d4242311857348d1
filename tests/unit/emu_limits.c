/* The emulator on hostile or broken input (issue 9): the launch's budget of
 * instructions and barriers. Prints TAP. */
#include <stdlib.h>

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

int main(void)
{
	sb_init(&d);
	budgets();
	sb_free(&d);
	return tap_done();
}
