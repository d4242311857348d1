/* The emulator's instructions on hand-written PTX: integer widths and
 * wrap-around, shifts past the width, setp/selp, prmt against values worked
 * out by hand from the PTX ISA, bit fields, conversions, vectors, divergent
 * branches and special registers. Prints TAP. */
#include <stdlib.h>

#include "tests/unit/emu_harness.h"

typedef struct {
	const char *what;
	const char *code;  /* leaves its result in %r (32-bit) or %x (wide) */
	int wide;
	uint64_t want;
} check;

static const check checks[] = {
	{"add.u32 wraps", "mov.u32 %a, 0xffffffff; add.u32 %r, %a, 2;", 0, 1},
	{"sub.u32 wraps", "mov.u32 %a, 0; sub.u32 %r, %a, 1;", 0, 0xffffffff},
	{"mul.lo.u32 keeps the low half", "mov.u32 %a, 0x10001; mul.lo.u32 %r, %a, 0x10000;", 0, 0x10000},
	{"mul.hi.u32", "mov.u32 %a, 0xffffffff; mul.hi.u32 %r, %a, %a;", 0, 0xfffffffe},
	{"mul.hi.s32 of -2*3", "mov.u32 %a, -2; mul.hi.s32 %r, %a, 3;", 0, 0xffffffff},
	{"mul.wide.u32", "mov.u32 %a, 0xffffffff; mul.wide.u32 %x, %a, %a;", 1, 0xfffffffe00000001ull},
	{"mul.wide.s32 sign-extends", "mov.u32 %a, -2; mul.wide.s32 %x, %a, 3;", 1, 0xfffffffffffffffaull},
	{"mad.lo.u32 wraps", "mov.u32 %a, 0x80000000; mad.lo.u32 %r, %a, 2, 5;", 0, 5},
	{"mad.wide.u32 adds 64 bits", "mov.u32 %a, 0xffffffff; mov.u64 %y, 0xffffffff; mad.wide.u32 %x, %a, 2, %y;", 1,
	 0x2fffffffdull},
	{"add.u64 wraps", "mov.u64 %y, 0xffffffffffffffff; add.u64 %x, %y, 1;", 1, 0},
	{"mul.lo.u64 wraps", "mov.u64 %y, 0x100000001; mul.lo.u64 %x, %y, %y;", 1, 0x200000001ull},
	{"mad.lo.u64", "mov.u64 %y, 3; mad.lo.u64 %x, %y, 0x5555555555555556, 1;", 1, 3},
	{"shl.b32 by 31", "mov.u32 %a, 1; shl.b32 %r, %a, 31;", 0, 0x80000000},
	{"shl.b32 by 32 gives 0", "mov.u32 %a, 1; mov.u32 %b, 32; shl.b32 %r, %a, %b;", 0, 0},
	{"shl.b32 by 2^32-1 gives 0", "mov.u32 %a, 1; mov.u32 %b, -1; shl.b32 %r, %a, %b;", 0, 0},
	{"shr.u32 by 32 gives 0", "mov.u32 %a, 0x80000000; shr.u32 %r, %a, 32;", 0, 0},
	{"shr.s32 by 4 fills the sign", "mov.u32 %a, 0x80000000; shr.s32 %r, %a, 4;", 0, 0xf8000000},
	{"shr.s32 by 40 is all sign", "mov.u32 %a, 0x80000000; shr.s32 %r, %a, 40;", 0, 0xffffffff},
	{"shr.b32 is logical", "mov.u32 %a, 0x80000000; shr.b32 %r, %a, 31;", 0, 1},
	{"shl.b64 by 64 gives 0", "mov.u64 %y, 1; shl.b64 %x, %y, 64;", 1, 0},
	{"shr.s64 by 63", "mov.u64 %y, 0x8000000000000000; shr.s64 %x, %y, 63;", 1, ~0ull},
	{"shr.u64 by 4", "mov.u64 %y, 0x8000000000000000; shr.u64 %x, %y, 4;", 1, 0x0800000000000000ull},
	{"div.u32", "mov.u32 %a, 0xfffffff7; div.u32 %r, %a, 2;", 0, 0x7ffffffb},
	{"div.s32 truncates toward zero", "mov.u32 %a, -7; div.s32 %r, %a, 2;", 0, 0xfffffffd},
	{"rem.s32 has the dividend's sign", "mov.u32 %a, -7; rem.s32 %r, %a, 2;", 0, 0xffffffff},
	{"div.s32 INT_MIN by -1", "mov.u32 %a, 0x80000000; div.s32 %r, %a, -1;", 0, 0x80000000},
	{"rem.u64", "mov.u64 %y, 1000000000007; rem.u64 %x, %y, 1000;", 1, 7},
	{"div.u64", "mov.u64 %y, 0xffffffffffffffff; div.u64 %x, %y, 0x100000000;", 1, 0xffffffff},
	{"min.u32 is unsigned", "mov.u32 %a, -1; min.u32 %r, %a, 1;", 0, 1},
	{"min.s32 is signed", "mov.u32 %a, -1; min.s32 %r, %a, 1;", 0, 0xffffffff},
	{"max.s32", "mov.u32 %a, -5; max.s32 %r, %a, -9;", 0, 0xfffffffb},
	{"max.u32", "mov.u32 %a, -5; max.u32 %r, %a, 7;", 0, 0xfffffffb},
	{"not.b32", "mov.u32 %a, 0x0f0f0000; not.b32 %r, %a;", 0, 0xf0f0ffff},
	{"and, or, xor", "mov.u32 %a, 0xff00ff00; and.b32 %r, %a, 0x0ff00ff0; or.b32 %r, %r, 1; xor.b32 %r, %r, 0x11;",
	 0, 0x0f000f10},
	{"cvt.u64.u32 zero-extends", "mov.u32 %a, 0xffffffff; cvt.u64.u32 %x, %a;", 1, 0xffffffff},
	{"cvt.s64.s32 sign-extends", "mov.u32 %a, 0xfffffffe; cvt.s64.s32 %x, %a;", 1, 0xfffffffffffffffeull},
	{"cvt.u32.u64 truncates", "mov.u64 %y, 0x123456789; cvt.u32.u64 %r, %y;", 0, 0x23456789},
	{"cvt.s32.s8 reads the low byte", "mov.u32 %a, 0x1234580; cvt.s32.s8 %r, %a;", 0, 0xffffff80},
	{"cvt.u16.u32 into a 32-bit register", "mov.u32 %a, 0x12345; cvt.u16.u32 %r, %a;", 0, 0x2345},
	{"cvt.s16.u32 sign-extends into the register", "mov.u32 %a, 0x18000; cvt.s16.u32 %r, %a;", 0, 0xffff8000},
	{"mov.b64 packs {lo, hi}", "mov.u32 %a, 0x11111111; mov.u32 %b, 0x22222222; mov.b64 %x, {%a, %b};", 1,
	 0x2222222211111111ull},
	{"mov.b64 unpacks the high half", "mov.u64 %y, 0x0123456789abcdef; mov.b64 {%a, %b}, %y; mov.u32 %r, %b;", 0,
	 0x01234567},
	{"mov.b64 unpacks the low half", "mov.u64 %y, 0x0123456789abcdef; mov.b64 {%a, %b}, %y; mov.u32 %r, %a;", 0,
	 0x89abcdef},
	/* prmt: d byte k = byte (c>>4k & 7) of {b, a}, or its sign when bit 3 is set */
	{"prmt 0x7531 picks odd bytes", "mov.u32 %a, 0x03020100; mov.u32 %b, 0x07060504; prmt.b32 %r, %a, %b, 0x7531;",
	 0, 0x07050301},
	{"prmt 0x5410 joins the low halves", "mov.u32 %a, 0x11223344; mov.u32 %b, 0x55667788; prmt.b32 %r, %a, %b, 0x5410;",
	 0, 0x77883344},
	{"prmt 0x7632 joins the high halves", "mov.u32 %a, 0x11223344; mov.u32 %b, 0x55667788; prmt.b32 %r, %a, %b, 0x7632;",
	 0, 0x55661122},
	{"prmt 0x00a8 replicates signs of a", "mov.u32 %a, 0x00800070; mov.u32 %b, 0; prmt.b32 %r, %a, %b, 0x00a8;", 0,
	 0x7070ff00},
	{"prmt 0xfedc replicates signs of b", "mov.u32 %a, 0; mov.u32 %b, 0x80ff7f01; prmt.b32 %r, %a, %b, 0xfedc;", 0,
	 0xffff0000},
	{"prmt ignores selector bits above 15", "mov.u32 %a, 0; mov.u32 %b, 0x80ff7f01; mov.u32 %c, 0xffff4567;"
	 " prmt.b32 %r, %a, %b, %c;", 0, 0x017fff80},
	{"bfi.b32 inserts a nibble", "mov.u32 %a, 0xff; mov.u32 %b, 0; bfi.b32 %r, %a, %b, 4, 4;", 0, 0xf0},
	{"bfi.b32 cuts at the msb", "mov.u32 %a, 0xff; mov.u32 %b, 1; bfi.b32 %r, %a, %b, 30, 8;", 0, 0xc0000001},
	{"bfi.b32 past the msb leaves b", "mov.u32 %a, 0xff; mov.u32 %b, 5; bfi.b32 %r, %a, %b, 0x120, 8;", 0, 5},
	{"bfe.u32", "mov.u32 %a, 0x12345678; bfe.u32 %r, %a, 8, 8;", 0, 0x56},
	{"bfe.s32 sign-extends the field", "mov.u32 %a, 0xf000; bfe.s32 %r, %a, 12, 4;", 0, 0xffffffff},
	{"bfe.s32 past the msb is the sign", "mov.u32 %a, 0x80000000; bfe.s32 %r, %a, 40, 4;", 0, 0xffffffff},
	{"selp", "mov.u32 %a, 3; setp.gt.u32 %p, %a, 2; selp.b32 %r, 10, 20, %p;", 0, 10},
	{"setp.lt.u32 is unsigned", "mov.u32 %a, -1; setp.lt.u32 %p, %a, 1; selp.b32 %r, 1, 0, %p;", 0, 0},
	{"setp.lt.s32 is signed", "mov.u32 %a, -1; setp.lt.s32 %p, %a, 1; selp.b32 %r, 1, 0, %p;", 0, 1},
	{"setp.ge.u64", "mov.u64 %y, 0x100000000; setp.ge.u64 %p, %y, 0xffffffff; selp.b32 %r, 1, 0, %p;", 0, 1},
	{"setp.gt.and with !q", "mov.u32 %a, 5; setp.eq.u32 %q, %a, 5; setp.gt.and.u32 %p, %a, 1, !%q;"
	 " selp.b32 %r, 1, 0, %p;", 0, 0},
	{"setp.gt.or with !q", "mov.u32 %a, 5; setp.eq.u32 %q, %a, 5; setp.gt.or.u32 %p, %a, 9, %q;"
	 " selp.b32 %r, 1, 0, %p;", 0, 1},
	{"setp.lt p|q writes the complement", "mov.u32 %a, 5; setp.lt.u32 %p|%q, %a, 3; selp.b32 %r, 1, 0, %p;"
	 " selp.b32 %c, 2, 0, %q; or.b32 %r, %r, %c;", 0, 2},
	{"guards @p and @!p", "mov.u32 %r, 1; setp.eq.u32 %p, %r, 1; @%p add.u32 %r, %r, 10; @!%p add.u32 %r, %r, 100;",
	 0, 11},
	{"not/or/and.pred", "mov.u32 %a, 1; setp.eq.u32 %p, %a, 1; not.pred %q, %p; or.pred %p, %p, %q;"
	 " and.pred %q, %q, %p; selp.b32 %r, 2, 0, %p; selp.b32 %c, 1, 0, %q; or.b32 %r, %r, %c;", 0, 2},
	{"octal and negative hex immediates", "mov.u32 %a, 010; add.u32 %r, %a, -0x10;", 0, 0xfffffff8},
	{"ld.param reads the ABI parameters", "ld.param.u32 %a, [rows]; ld.param.u32 %b, [ld_out];"
	 " mad.lo.u32 %r, %a, 100, %b;", 0, 311},
	{"ld.param [name+imm]", "ld.param.u32 %r, [cols+4];", 0, 7},
	{"ld.param reads ABI v2's batch and strides", "ld.param.u32 %a, [batch]; ld.param.u64 %y, [stride_in];"
	 " ld.param.u64 %x, [stride_out]; mad.lo.u64 %x, %y, 1000, %x; cvt.u64.u32 %y, %a; mad.lo.u64 %x, %y, 1000000, %x;",
	 1, 2040060},
	{"%v<4> declares %v0..%v3", "mov.u32 %v3, 33; mov.u32 %v0, 9; add.u32 %r, %v3, %v0;", 0, 42},
	{"/* */ and // comments", "mov.u32 %r, /* 5 */ 6; // mov.u32 %r, 7;\n", 0, 6},
};
#define NCHECKS (sizeof checks / sizeof checks[0])

static void arithmetic(void)
{
	strbuf body, d;
	sb_init(&body);
	sb_init(&d);
	sb_add(&body, "\t.reg .b32 %a;\n\t.reg .b32 %b;\n\t.reg .b32 %c;\n\t.reg .b32 %r;\n"
		      "\t.reg .b64 %x;\n\t.reg .b64 %y;\n\t.reg .pred %p;\n\t.reg .pred %q;\n\t.reg .b32 %v<4>;\n");
	for (size_t k = 0; k < NCHECKS; k++)
		sb_printf(&body, "\t%s\n\tst.global.%s [%%out+%zu], %s;\n", checks[k].code,
			  checks[k].wide ? "b64" : "b32", 8 * k, checks[k].wide ? "%x" : "%r");
	uint64_t out[NCHECKS];
	memset(out, 0, sizeof out);
	emu_t_run r = {.out = out, .out_bytes = sizeof out};
	int rc = emu_t(&r, sb_str(&body), &d);
	ok(rc == EMU_OK, "one thread runs %zu checks (%s)", NCHECKS, sb_str(&d));
	for (size_t k = 0; k < NCHECKS; k++)
		ok(out[k] == checks[k].want, "%s: got 0x%llx, want 0x%llx", checks[k].what,
		   (unsigned long long)out[k], (unsigned long long)checks[k].want);
	sb_free(&body);
	sb_free(&d);
}

/* Odd threads loop t times, even ones take the other side of the branch:
 * each thread's own path decides its result. */
static void divergence(void)
{
	const char *body =
		"\t.reg .b32 %i;\n\t.reg .b32 %acc;\n\t.reg .b32 %v;\n\t.reg .pred %p;\n\t.reg .b64 %o;\n"
		"\tmov.u32 %acc, 0;\n"
		"\tand.b32 %i, %t, 1;\n"
		"\tsetp.eq.u32 %p, %i, 0;\n"
		"\t@%p bra EVEN;\n"
		"\tmov.u32 %i, 0;\n"
		"ODD:\n"
		"\tsetp.ge.u32 %p, %i, %t;\n"
		"\t@%p bra JOIN;\n"
		"\tadd.u32 %acc, %acc, %i;\n"
		"\tadd.u32 %i, %i, 1;\n"
		"\tbra ODD;\n"
		"EVEN:\n"
		"\tmul.lo.u32 %acc, %t, 1000;\n"
		"JOIN:\n"
		"\tmov.u32 %v, %warpid;\n"
		"\tmad.lo.u32 %acc, %v, 1000000, %acc;\n"
		"\tmul.wide.u32 %o, %t, 4;\n"
		"\tadd.u64 %o, %out, %o;\n"
		"\tst.global.b32 [%o], %acc;\n"
		"\tmov.u32 %v, %ntid.x;\n"
		"\tmov.u32 %i, %laneid;\n"
		"\tmad.lo.u32 %v, %v, 1000, %i;\n"
		"\tmov.u32 %i, %ctaid.x;\n"
		"\tmad.lo.u32 %v, %i, 100000, %v;\n"
		"\tmov.u32 %i, %nctaid.x;\n"
		"\tmad.lo.u32 %v, %i, 1000000, %v;\n"
		"\tst.global.b32 [%o+256], %v;\n";
	uint32_t out[128];
	memset(out, 0, sizeof out);
	strbuf d;
	sb_init(&d);
	emu_t_run r = {.threads = 64, .out = out, .out_bytes = sizeof out};
	int rc = emu_t(&r, body, &d);
	ok(rc == EMU_OK, "divergent branches run (%s)", sb_str(&d));
	int bad = -1;
	for (uint32_t t = 0; t < 64 && bad < 0; t++) {
		uint32_t want = (t & 1 ? t * (t - 1) / 2 : t * 1000) + (t / 32) * 1000000;
		uint32_t sreg = 1000000 + 64 * 1000 + t % 32;
		if (out[t] != want || out[64 + t] != sreg)
			bad = (int)t;
	}
	ok(bad < 0, "each thread took its own path, %%warpid/%%laneid/%%ntid/%%ctaid/%%nctaid right (first bad: %d)", bad);
	sb_free(&d);
}

static void vectors(void)
{
	const char *body =
		"\t.reg .b32 %a<4>;\n\t.reg .b64 %w<2>;\n\t.reg .b32 %s;\n\t.reg .b16 %h;\n\t.reg .b64 %o;\n"
		"\tld.global.nc.L1::no_allocate.v4.b32 {%a0, %a1, %a2, %a3}, [%in];\n"
		"\tst.global.cs.v4.b32 [%out], {%a3, %a2, %a1, %a0};\n"
		"\tld.global.v2.b64 {%w0, %w1}, [%in+16];\n"
		"\tst.global.v2.b64 [%out+16], {%w1, %w0};\n"
		"\tld.global.s8 %a0, [%in+3];\n"
		"\tst.global.b32 [%out+32], %a0;\n"
		"\tld.global.u16 %a0, [%in+2];\n"
		"\tst.global.b32 [%out+36], %a0;\n"
		"\tld.global.b16 %h, [%in+6];\n"
		"\tst.global.b16 [%out+40], %h;\n"
		"\tmov.u32 %a1, 0x1234abcd;\n"
		"\tst.global.b8 [%out+42], %a1;\n"
		/* shared: a v4 round trip through a variable and an address register */
		"\tmov.u32 %s, sbuf;\n"
		"\tld.global.v4.b32 {%a0, %a1, %a2, %a3}, [%in];\n"
		"\tst.shared.v4.b32 [%s+16], {%a0, %a1, %a2, %a3};\n"
		"\tbar.sync 0;\n"
		"\tld.shared.v2.b64 {%w0, %w1}, [sbuf+16];\n"
		"\tadd.u64 %o, %out, 64;\n"
		"\tst.global.v2.b64 [%o+-16], {%w0, %w1};\n"
		/* the dynamic area follows the static one */
		"\tst.shared.b32 [dyn+4], %a3;\n"
		"\tmov.u64 %o, dyn;\n"
		"\tcvt.u32.u64 %s, %o;\n"
		"\tld.shared.b32 %a0, [%s+4];\n"
		"\tst.global.b32 [%out+64], %a0;\n"
		"\tst.global.b32 [%out+68], %s;\n";
	uint8_t in[32];
	for (int k = 0; k < 32; k++)
		in[k] = (uint8_t)(0x80 + k);
	uint8_t out[72];
	memset(out, 0, sizeof out);
	strbuf d;
	sb_init(&d);
	emu_t_run r = {.in = in, .in_bytes = sizeof in, .out = out, .out_bytes = sizeof out, .dyn_smem = 16,
		       .module = ".shared .align 16 .b8 sbuf[40];\n.extern .shared .align 16 .b8 dyn[];\n"};
	int rc = emu_t(&r, body, &d);
	ok(rc == EMU_OK, "vector loads and stores run (%s)", sb_str(&d));
	int rev = 1;
	for (int e = 0; e < 4; e++)
		rev &= !memcmp(out + 4 * e, in + 4 * (3 - e), 4);
	ok(rev, "ld.global.v4.b32 / st.global.v4.b32 with cache hints, elements in order");
	ok(!memcmp(out + 16, in + 24, 8) && !memcmp(out + 24, in + 16, 8), "ld/st.global.v2.b64");
	uint32_t v;
	memcpy(&v, out + 32, 4);
	ok(v == 0xffffff83, "ld.global.s8 sign-extends into a 32-bit register: 0x%x", v);
	memcpy(&v, out + 36, 4);
	ok(v == 0x8382, "ld.global.u16 zero-extends: 0x%x", v);
	ok(out[40] == 0x86 && out[41] == 0x87 && out[42] == 0xcd && out[43] == 0,
	   "b16 round trip, st.global.b8 stores the low byte of a wider register");
	ok(!memcmp(out + 48, in, 16), "shared v4 store, v2.b64 load of [name+imm], store at [%%reg+-imm]");
	memcpy(&v, out + 64, 4);
	ok(v == 0x8f8e8d8c, "extern shared: store at [dyn+4], load through its address: 0x%x", v);
	memcpy(&v, out + 68, 4);
	ok(v == 48, "dyn starts after sbuf's 40 bytes, aligned to 16: %u", v);
	sb_free(&d);
}

int main(void)
{
	arithmetic();
	divergence();
	vectors();
	return tap_done();
}
