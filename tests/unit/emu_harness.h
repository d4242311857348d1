/* Shared by the emulator's unit tests (emu_*.c): TAP output and a runner
 * that wraps a kernel body in the ABI's entry and runs it on a small block.
 * Header-only: each test is its own program. */
#ifndef TESTS_UNIT_EMU_HARNESS_H
#define TESTS_UNIT_EMU_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "tests/unit/tap.h"

/* The lines before a body: the body's first line is line EMU_T_BODY_LINE. */
#define EMU_T_HEAD                                                              \
	".version 8.0\n.target sm_80\n.address_size 64\n"                       \
	".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 rows,\n" \
	"\t.param .u32 cols, .param .u32 ld_in, .param .u32 ld_out, .param .u32 batch," \
	" .param .u64 stride_in, .param .u64 stride_out)\n"                     \
	"{\n"                                                                   \
	"\t.reg .b64 %in;\n\t.reg .b64 %out;\n\t.reg .b32 %t;\n"                \
	"\tld.param.u64 %in, [in];\n\tld.param.u64 %out, [out];\n"             \
	"\tmov.u32 %t, %tid.x;\n"
#define EMU_T_BODY_LINE 13

typedef struct {
	unsigned threads, ctas;      /* block (threads,1,1), grid (ctas,1,1) */
	const void *in;
	size_t in_bytes;
	void *out;
	size_t out_bytes;
	const char *module;          /* module-scope lines before the entry, or NULL */
	unsigned dyn_smem;
	uint64_t branch_budget;
	uint64_t max_instructions, max_barriers;
	emu_stats *stats;
} emu_t_run;

/* Run EMU_T_HEAD + body + "}" (module lines go first). Returns the
 * emulator's status; its message is left in diag. */
static inline int emu_t(const emu_t_run *r, const char *body, strbuf *diag)
{
	strbuf src;
	sb_init(&src);
	sb_reset(diag);
	if (r->module) /* shifts the body's line numbers */
		sb_add(&src, r->module);
	sb_add(&src, EMU_T_HEAD);
	sb_add(&src, body);
	sb_add(&src, "}\n");
	emu_prog *p;
	int rc = emu_load(sb_str(&src), &p, diag);
	sb_free(&src);
	if (rc != EMU_OK)
		return rc;
	emu_launch l = {
		.grid = {r->ctas ? r->ctas : 1, 1, 1}, .block = {r->threads ? r->threads : 1, 1, 1},
		.dyn_smem = r->dyn_smem, .in = r->in, .in_bytes = r->in_bytes, .out = r->out,
		.out_bytes = r->out_bytes, .rows = 3, .cols = 5, .ld_in = 7, .ld_out = 11, .batch = 2,
		.stride_in = 40, .stride_out = 60,
		.branch_budget = r->branch_budget, .max_instructions = r->max_instructions,
		.max_barriers = r->max_barriers, .stats = r->stats,
	};
	rc = emu_run(p, &l, diag);
	emu_free(p);
	return rc;
}

static inline int has(const strbuf *d, const char *s) { return strstr(sb_str(d), s) != NULL; }

/* ok when the status is want_rc and the message is `want` (any when NULL). */
static inline void emu_t_expect(const strbuf *d, int rc, int want_rc, const char *want, const char *what)
{
	int good = rc == want_rc && (!want || !strcmp(sb_str(d), want));
	ok(good, "%s", what);
	if (!good)
		printf("# rc %d (want %d)\n# got:  %s\n# want: %s\n", rc, want_rc, sb_str(d), want ? want : "(any)");
}

/* ok when the status is want_rc and the message contains `part`. */
static inline void emu_t_expect_has(const strbuf *d, int rc, int want_rc, const char *part, const char *what)
{
	int good = rc == want_rc && has(d, part);
	ok(good, "%s", what);
	if (!good)
		printf("# rc %d (want %d)\n# got:  %s\n# want a message with: %s\n", rc, want_rc, sb_str(d), part);
}

#endif
