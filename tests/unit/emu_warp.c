/* The warp-synchronous instructions on hand-written PTX, each against a
 * naive reference written from the PTX ISA's description (segments for
 * shfl, rows and columns for the m8n8 matrices), then their checks: a lane
 * outside the member mask, a member lane on another path, an .aligned
 * instruction in divergent code, a read of an inactive lane, and planted
 * bugs (a wrong shuffle lane, a missing .trans) that the comparison must
 * catch. bar.warp.sync orders a warp's shared-memory accesses. Prints TAP. */
#include <stdlib.h>

#include "tests/unit/emu_harness.h"

#define L(n) (EMU_T_BODY_LINE + (n))
#define TILE ".shared .align 16 .b8 tile[1024];\n" /* shifts the body by one line */

static strbuf d;

/* out[t] = {shfl result, predicate} for the 32 lanes of one warp */
static int run_shfl(const char *mode, unsigned b, unsigned c, uint32_t *out)
{
	char body[1024];
	snprintf(body, sizeof body,
		 "\t.reg .b32 %%v;\n\t.reg .b32 %%r;\n\t.reg .b32 %%pv;\n\t.reg .pred %%p;\n\t.reg .b64 %%o;\n"
		 "\tmad.lo.u32 %%v, %%t, 3, 1;\n"
		 "\tshfl.sync.%s.b32 %%r|%%p, %%v, %u, %u, 0xffffffff;\n"
		 "\tselp.u32 %%pv, 1, 0, %%p;\n\tmul.wide.u32 %%o, %%t, 8;\n\tadd.u64 %%o, %%out, %%o;\n"
		 "\tst.global.v2.b32 [%%o], {%%r, %%pv};\n", mode, b, c);
	emu_t_run r = {.threads = 32, .out = out, .out_bytes = 64 * sizeof *out};
	return emu_t(&r, body, &d);
}

/* The reference: lanes in segments of `width`; up/down/bfly leave a lane
 * its own value when the source falls outside its segment. */
static void ref_shfl(const char *mode, unsigned b, unsigned width, uint32_t *want)
{
	for (unsigned l = 0; l < 32; l++) {
		unsigned s0 = l / width * width, s1 = s0 + width - 1;
		int j;
		int in;
		if (!strcmp(mode, "up"))
			j = (int)l - (int)b, in = j >= (int)s0;
		else if (!strcmp(mode, "down"))
			j = (int)(l + b), in = j <= (int)s1;
		else if (!strcmp(mode, "bfly"))
			j = (int)(l ^ b), in = j <= (int)s1;
		else
			j = (int)(s0 + b % width), in = 1;
		want[2 * l] = 3 * (uint32_t)(in ? j : (int)l) + 1;
		want[2 * l + 1] = (uint32_t)in;
	}
}

static void shuffles(void)
{
	static const struct { const char *mode; unsigned b, width; } cases[] = {
		{"up", 1, 32}, {"up", 5, 32}, {"down", 3, 32}, {"down", 31, 32}, {"bfly", 1, 32}, {"bfly", 16, 32},
		{"idx", 7, 32}, {"idx", 0, 32}, {"up", 2, 8}, {"down", 3, 8}, {"bfly", 4, 8}, {"idx", 5, 8},
		{"idx", 13, 16}, {"down", 1, 4},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *m = cases[k].mode;
		unsigned w = cases[k].width, seg = 32 - w;
		/* CUDA's __shfl_*_sync(width): c = segment mask << 8 | clamp (0 for up) */
		unsigned c = seg << 8 | (strcmp(m, "up") ? 31u : 0u);
		uint32_t out[64], want[64];
		memset(out, 0xa5, sizeof out);
		int rc = run_shfl(m, cases[k].b, c, out);
		ref_shfl(m, cases[k].b, w, want);
		ok(rc == EMU_OK && !memcmp(out, want, sizeof want), "shfl.sync.%s b=%u width %u (c=0x%x): values and predicate %s",
		   m, cases[k].b, w, c, sb_str(&d));
	}
	/* a planted bug: the lane one off, as a register transpose might get it */
	uint32_t out[64], want[64];
	run_shfl("idx", 8, 31, out);
	ref_shfl("idx", 7, 32, want);
	ok(memcmp(out, want, sizeof want) != 0, "a wrong shuffle lane (8 for 7) is caught by the comparison");
}

static void votes(void)
{
	static const struct { const char *kind, *cond; } cases[] = {
		{"ballot.b32", "%t, 3"}, {"all.pred", "%t, 32"}, {"all.pred", "%t, 31"}, {"any.pred", "%t, 0"},
		{"any.pred", "%t, 1"}, {"uni.pred", "%t, 32"}, {"uni.pred", "%t, 16"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char body[1024];
		int ballot = cases[k].kind[0] == 'b';
		snprintf(body, sizeof body,
			 "\t.reg .b32 %%r;\n\t.reg .pred %%p;\n\t.reg .pred %%q;\n\t.reg .b64 %%o;\n"
			 "\tsetp.lt.u32 %%p, %s;\n\tvote.sync.%s %s, %%p, 0xffffffff;\n%s"
			 "\tmul.wide.u32 %%o, %%t, 4;\n\tadd.u64 %%o, %%out, %%o;\n\tst.global.b32 [%%o], %%r;\n",
			 cases[k].cond, cases[k].kind, ballot ? "%r" : "%q", ballot ? "" : "\tselp.u32 %r, 1, 0, %q;\n");
		uint32_t out[32], n = (uint32_t)atoi(strchr(cases[k].cond, ',') + 2);
		emu_t_run r = {.threads = 32, .out = out, .out_bytes = sizeof out};
		int rc = emu_t(&r, body, &d);
		uint32_t set = n >= 32 ? 0xffffffffu : (1u << n) - 1, want;
		switch (cases[k].kind[1]) {
		case 'a': want = set; break;                                    /* ballot */
		case 'l': want = set == 0xffffffffu; break;                      /* all */
		case 'n': want = cases[k].kind[0] == 'a' ? set != 0 : set == 0 || set == 0xffffffffu; break;
		default: want = 0;
		}
		int good = rc == EMU_OK;
		for (int l = 0; l < 32; l++)
			good &= out[l] == want;
		ok(good, "vote.sync.%s on lanes < %u: 0x%x in every lane %s", cases[k].kind, n, want, sb_str(&d));
	}
	uint32_t out[32];
	emu_t_run r = {.threads = 32, .out = out, .out_bytes = sizeof out};
	int rc = emu_t(&r, "\t.reg .b32 %r;\n\t.reg .pred %p;\n\t.reg .b64 %o;\n\tsetp.lt.u32 %p, %t, 12;\n"
			   "\t@%p bra A;\n\tactivemask.b32 %r;\n\tbra.uni E;\nA:\n\tactivemask.b32 %r;\nE:\n"
			   "\tmul.wide.u32 %o, %t, 4;\n\tadd.u64 %o, %out, %o;\n\tst.global.b32 [%o], %r;\n", &d);
	int good = rc == EMU_OK;
	for (int l = 0; l < 32; l++)
		good &= out[l] == (l < 12 ? 0xfffu : 0xfffff000u);
	ok(good, "activemask on the two paths of a divergent branch: 0xfff and 0xfffff000, then one warp again %s",
	   sb_str(&d));
}

/* Four 8x8 matrices of halves in `in`, row pitch 32 bytes: element (k, r, c)
 * = 0x1000 k + 0x100 r + c (distinct, and a transposition shows). */
static uint16_t mat(unsigned k, unsigned r, unsigned c) { return (uint16_t)(0x1000 * k + 0x100 * r + c + 1); }

/* The fragment of lane t, half h: element (t/4, 2(t%4) + h), transposed when trans. */
static uint32_t frag_ref(unsigned k, unsigned t, int trans)
{
	unsigned r = t / 4, c = 2 * (t % 4);
	return trans ? (uint32_t)mat(k, c, r) | (uint32_t)mat(k, c + 1, r) << 16
		     : (uint32_t)mat(k, r, c) | (uint32_t)mat(k, r, c + 1) << 16;
}

/* the tile from `in`: lane l copies 16-byte chunks l and l + 32 */
#define COPY_IN                                                                                         \
	"\t.reg .b32 %a;\n\t.reg .b32 %x<4>;\n\t.reg .b32 %s;\n\t.reg .b64 %o;\n\t.reg .b32 %q;\n"      \
	"\tmul.wide.u32 %o, %t, 16;\n\tadd.u64 %o, %in, %o;\n\tmov.u32 %s, tile;\n\tmad.lo.u32 %s, %t, 16, %s;\n" \
	"\tld.global.v4.b32 {%x0, %x1, %x2, %x3}, [%o];\n\tst.shared.v4.b32 [%s], {%x0, %x1, %x2, %x3};\n" \
	"\tld.global.v4.b32 {%x0, %x1, %x2, %x3}, [%o+512];\n\tst.shared.v4.b32 [%s+512], {%x0, %x1, %x2, %x3};\n" \
	"\tbar.sync 0;\n"
/* lane l's row address: matrix l/8, row l%8 */
#define ROW_ADDR "\tmov.u32 %a, tile;\n\tmad.lo.u32 %a, %t, 32, %a;\n"

static void fill(uint16_t *in)
{
	memset(in, 0, 1024);
	for (unsigned k = 0; k < 4; k++)
		for (unsigned r = 0; r < 8; r++)
			for (unsigned c = 0; c < 8; c++)
				in[(k * 8 + r) * 16 + c] = mat(k, r, c);
}

static int run_ldmatrix(const char *form, int n, uint32_t *out)
{
	static uint16_t in[512];
	fill(in);
	char body[2048];
	snprintf(body, sizeof body, "%s%s"
		 "\tldmatrix.sync.aligned.m8n8.%s.shared.b16 %s, [%%a];\n"
		 "\tmul.wide.u32 %%o, %%t, 16;\n\tadd.u64 %%o, %%out, %%o;\n\tst.global.v4.b32 [%%o], {%%x0, %%x1, %%x2, %%x3};\n",
		 COPY_IN, ROW_ADDR, form, n == 1 ? "%x0" : n == 2 ? "{%x0, %x1}" : "{%x0, %x1, %x2, %x3}");
	memset(out, 0, 512);
	emu_t_run r = {.threads = 32, .module = TILE, .in = in, .in_bytes = sizeof in, .out = out, .out_bytes = 512};
	return emu_t(&r, body, &d);
}

static void matrices(void)
{
	static const struct { const char *form; int n, trans; } cases[] = {
		{"x1", 1, 0}, {"x2", 2, 0}, {"x4", 4, 0}, {"x1.trans", 1, 1}, {"x2.trans", 2, 1}, {"x4.trans", 4, 1},
	};
	uint32_t out[128];
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int rc = run_ldmatrix(cases[k].form, cases[k].n, out);
		int good = rc == EMU_OK;
		for (unsigned t = 0; t < 32; t++)
			for (int m = 0; m < cases[k].n; m++)
				good &= out[4 * t + (unsigned)m] == frag_ref((unsigned)m, t, cases[k].trans);
		ok(good, "ldmatrix .%s: each lane's fragments of %d matrices %s", cases[k].form, cases[k].n, sb_str(&d));
	}
	/* a planted bug: .trans missing where the transposed fragments are wanted */
	run_ldmatrix("x4", 4, out);
	int same = 1;
	for (unsigned t = 0; t < 32; t++)
		same &= out[4 * t] == frag_ref(0, t, 1);
	ok(!same, "a missing .trans is caught by the comparison");

	/* stmatrix: the fragments of ldmatrix stored back, plain and .trans */
	for (int trans = 0; trans < 2; trans++) {
		static uint32_t frags[128];
		static uint16_t o[512];
		for (unsigned t = 0; t < 32; t++)
			for (unsigned m = 0; m < 4; m++)
				frags[4 * t + m] = frag_ref(m, t, 0);
		char body[2048];
		snprintf(body, sizeof body,
			 "\t.reg .b32 %%a;\n\t.reg .b32 %%x<4>;\n\t.reg .b32 %%s;\n\t.reg .b64 %%o;\n"
			 "\tmul.wide.u32 %%o, %%t, 16;\n\tadd.u64 %%o, %%in, %%o;\n"
			 "\tld.global.v4.b32 {%%x0, %%x1, %%x2, %%x3}, [%%o];\n%s"
			 "\tstmatrix.sync.aligned.m8n8.x4%s.shared.b16 [%%a], {%%x0, %%x1, %%x2, %%x3};\n\tbar.sync 0;\n"
			 "\tmov.u32 %%s, tile;\n\tmad.lo.u32 %%s, %%t, 16, %%s;\n\tmul.wide.u32 %%o, %%t, 16;\n\tadd.u64 %%o, %%out, %%o;\n"
			 "\tld.shared.v4.b32 {%%x0, %%x1, %%x2, %%x3}, [%%s];\n\tst.global.v4.b32 [%%o], {%%x0, %%x1, %%x2, %%x3};\n"
			 "\tld.shared.v4.b32 {%%x0, %%x1, %%x2, %%x3}, [%%s+512];\n\tst.global.v4.b32 [%%o+512], {%%x0, %%x1, %%x2, %%x3};\n",
			 ROW_ADDR, trans ? ".trans" : "");
		memset(o, 0, sizeof o);
		emu_t_run r = {.threads = 32, .module = TILE, .in = frags, .in_bytes = sizeof frags, .out = o,
			       .out_bytes = sizeof o};
		int rc = emu_t(&r, body, &d);
		int good = rc == EMU_OK;
		for (unsigned k = 0; k < 4; k++)
			for (unsigned rr = 0; rr < 8; rr++)
				for (unsigned c = 0; c < 8; c++)
					good &= o[(k * 8 + rr) * 16 + c] == (trans ? mat(k, c, rr) : mat(k, rr, c));
		ok(good, "stmatrix .x4%s: the matrices back in rows%s %s", trans ? ".trans" : "",
		   trans ? ", transposed" : "", sb_str(&d));
	}

	/* movmatrix: lane t's fragment of matrix 0 in, of its transpose out */
	uint32_t in[32];
	for (unsigned t = 0; t < 32; t++)
		in[t] = frag_ref(0, t, 0);
	emu_t_run r = {.threads = 32, .in = in, .in_bytes = sizeof in, .out = out, .out_bytes = 128};
	int rc = emu_t(&r, "\t.reg .b32 %x;\n\t.reg .b32 %y;\n\t.reg .b64 %o;\n\t.reg .b64 %p;\n"
			   "\tmul.wide.u32 %o, %t, 4;\n\tadd.u64 %p, %in, %o;\n\tld.global.b32 %x, [%p];\n"
			   "\tmovmatrix.sync.aligned.m8n8.trans.b16 %y, %x;\n\tadd.u64 %p, %out, %o;\n\tst.global.b32 [%p], %y;\n",
		   &d);
	int good = rc == EMU_OK;
	for (unsigned t = 0; t < 32; t++)
		good &= out[t] == frag_ref(0, t, 1);
	ok(good, "movmatrix.sync.aligned.m8n8.trans.b16: the transpose's fragments %s", sb_str(&d));
}

static void checks(void)
{
	char want[512];
	emu_t_run r = {.threads = 32};
	int rc = emu_t(&r, "\t.reg .b32 %r;\n\tshfl.sync.idx.b32 %r, %t, 0, 31, 0xfffffffe;\n", &d);
	snprintf(want, sizeof want, "kernel k line %d (`shfl.sync.idx.b32 %%r, %%t, 0, 31, 0xfffffffe`): thread (0,0,0) "
		 "block (0,0,0): lane 0 executes it but is not in the member mask 0xfffffffe", L(1));
	emu_t_expect(&d, rc, EMU_FAULT, want, "a lane left out of the member mask: a fault naming lane and mask");
	rc = emu_t(&r, "\t.reg .b32 %r;\n\t.reg .pred %p;\n\tsetp.lt.u32 %p, %t, 16;\n\t@%p bra E;\n"
		       "\tshfl.sync.down.b32 %r, %t, 1, 31, 0xffffffff;\nE:\n\tret;\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "thread (16,0,0) block (0,0,0): lane 0 of the member mask 0xffffffff does not "
					    "execute it with lane 16 (divergent, guarded off or exited)",
			 "half the warp branched away from a full-mask shfl: a fault");
	rc = emu_t(&r, "\t.reg .b32 %r;\n\t.reg .pred %p;\n\tsetp.lt.u32 %p, %t, 16;\n"
		       "\t@%p shfl.sync.idx.b32 %r, %t, 20, 31, 0x0000ffff;\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "lane 0 reads lane 20, which does not execute it",
			 "shfl from a lane outside the executing ones: a fault");
	rc = emu_t(&r, "\t.reg .b32 %r;\n\t.reg .b32 %m;\n\t.reg .pred %p;\n\tmov.u32 %m, 0xffffffff;\n"
		       "\tsetp.eq.u32 %p, %t, 3;\n\t@%p mov.u32 %m, 0x7fffffff;\n\tvote.sync.ballot.b32 %r, %p, %m;\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "lane 3 gives the member mask 0x7fffffff, lane 0 0xffffffff",
			 "lanes that disagree on the member mask: a fault");
	r.module = TILE;
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b32 %x;\n\t.reg .pred %p;\n\tmov.u32 %a, tile;\n"
		       "\tmad.lo.u32 %a, %t, 16, %a;\n\tsetp.lt.u32 %p, %t, 31;\n"
		       "\t@%p ldmatrix.sync.aligned.m8n8.x1.shared.b16 %x, [%a];\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "lane 31 of the warp does not execute it with lane 0 (.aligned: the whole warp must)",
			 "ldmatrix with a lane guarded off: an .aligned fault");
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b32 %x;\n\tmov.u32 %a, tile;\n\tmad.lo.u32 %a, %t, 8, %a;\n"
		       "\tldmatrix.sync.aligned.m8n8.x1.shared.b16 %x, [%a];\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "misaligned shared load of 16 bytes at tile+0x8",
			 "ldmatrix rows must be 16-byte aligned");
	/* bar.warp.sync orders a warp's shared-memory accesses; without it, a race */
	const char *sync = "\t.reg .b32 %a;\n\t.reg .b32 %x;\n\tmov.u32 %a, tile;\n\tmad.lo.u32 %a, %t, 4, %a;\n"
			   "\tst.shared.b32 [%a], %t;\n\tbar.warp.sync 0xffffffff;\n\tld.shared.b32 %x, [%a+4];\n";
	rc = emu_t(&r, sync, &d);
	emu_t_expect(&d, rc, EMU_OK, "", "store, bar.warp.sync, the neighbour's load: no race");
	r.threads = 64;
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b32 %x;\n\tmov.u32 %a, tile;\n\tmad.lo.u32 %a, %t, 4, %a;\n"
		       "\tst.shared.b32 [%a], %t;\n\tbar.warp.sync 0xffffffff;\n\tld.shared.b32 %x, [%a+4];\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "thread (32,0,0) block (0,0,0): shared-memory race at tile+0x80: this 4-byte "
					    "store writes a byte that thread (31,0,0) read",
			 "... but not across warps: lane 31 read warp 1's word, a race");
	r.threads = 32;
	rc = emu_t(&r, "\t.reg .b32 %a;\n\t.reg .b32 %x;\n\tmov.u32 %a, tile;\n\tmad.lo.u32 %a, %t, 4, %a;\n"
		       "\tst.shared.b32 [%a], %t;\n\tld.shared.b32 %x, [%a+4];\n", &d);
	emu_t_expect_has(&d, rc, EMU_FAULT, "thread (1,0,0) block (0,0,0): shared-memory race at tile+0x4: this 4-byte "
					    "store writes a byte that thread (0,0,0) read",
			 "without bar.warp.sync the lanes of a warp race");

	static const struct { const char *body; const char *msg; } bad[] = {
		{"\tshfl.sync.idx.b64 %in, %in, 0, 31, -1;\n", "unsupported instruction 'shfl.sync.idx.b64' (needs .b32)"},
		{"\tshfl.idx.b32 %t, %t, 0, 31;\n", "unsupported instruction 'shfl.idx.b32' (only the .sync form)"},
		{"\tshfl.sync.idx.b32 %t, %t, 0, 31;\n", "'shfl.sync.idx.b32' takes 5 operands, found 4"},
		{"\tvote.sync.all.pred %t, %t, -1;\n", "%t is a 32-bit register, but 'vote.sync.all.pred' needs a predicate register"},
		{"\tldmatrix.sync.aligned.m8n8.x3.shared.b16 %t, [%t];\n",
		 "unsupported instruction 'ldmatrix.sync.aligned.m8n8.x3.shared.b16' (needs .x1, .x2 or .x4)"},
		{"\tldmatrix.sync.aligned.m8n8.x2.shared.b16 %t, [%t];\n",
		 "'ldmatrix.sync.aligned.m8n8.x2.shared.b16' needs 2 registers in braces"},
		{"\tldmatrix.sync.aligned.m8n8.x1.b16 %t, [%t];\n",
		 "unsupported instruction 'ldmatrix.sync.aligned.m8n8.x1.b16' (needs .shared: generic addresses are outside the subset)"},
		{"\tmovmatrix.sync.aligned.m8n8.b16 %t, %t;\n",
		 "unsupported instruction 'movmatrix.sync.aligned.m8n8.b16' (needs .trans)"},
		{"\tbar.warp.sync;\n", "'bar.warp.sync' takes 1 operands, found 0"},
	};
	r = (emu_t_run){.threads = 32};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		snprintf(want, sizeof want, "line %d: %s", L(0), bad[k].msg);
		rc = emu_t(&r, bad[k].body, &d);
		emu_t_expect(&d, rc, EMU_UNSUPPORTED, want, want);
	}
}

int main(void)
{
	sb_init(&d);
	shuffles();
	votes();
	matrices();
	checks();
	sb_free(&d);
	return tap_done();
}
