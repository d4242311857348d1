/* Unit tests for instructions per byte (inspect/ipb.c): the arithmetic from
 * counts and a tile, the tile a kernel's metadata gives, the flags' tile for
 * PTX without metadata, and the closing branch to itself that the count
 * leaves out. TAP. */
#include <stdio.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tests/unit/ins_tap.h"

static void test_arithmetic(void)
{
	ins_ipb x;
	/* narrow_b16 on sm_90 (ptxas 13.0), counted by hand from its SASS: 952
	 * instruction lines, 9 NOPs and the BRA to itself: 942. A block is 32x8
	 * threads (8 warps) and moves a 128x64 tile of halves: 2 x 128 x 64 x 2
	 * bytes. 942 x 8 / 32768 = 0.22998046875. */
	ins_tile t = {128, 64, 16, 256};
	ok(ins_ipb_of(942, &t, &x) == 0 && x.have && x.warps == 8 && x.bytes == 32768 && x.instructions == 942 &&
		   x.value == 0.22998046875,
	   "narrow_b16: 942 instructions x 8 warps / 32768 bytes = 0.22998046875");
	t = (ins_tile){128, 64, 8, 256};
	ok(ins_ipb_of(928, &t, &x) == 0 && x.bytes == 16384 && x.value == 928.0 * 8 / 16384,
	   "bytes: 1-byte elements, 2 x 128 x 64");
	t = (ins_tile){32, 16, 128, 256};
	ok(ins_ipb_of(100, &t, &x) == 0 && x.bytes == 16384, "bytes: 16-byte elements, 2 x 32 x 16 x 16");
	t = (ins_tile){1, 256, 32, 256};
	ok(ins_ipb_of(133, &t, &x) == 0 && x.bytes == 2048 && x.warps == 8 && x.value == 133.0 * 8 / 2048,
	   "a linear kernel: 1 x per_block elements a pass");
	t = (ins_tile){64, 64, 32, 100};
	ok(ins_ipb_of(64, &t, &x) == 0 && x.warps == 4, "100 threads are 4 warps (the last one partial)");
	t = (ins_tile){32, 32, 32, 1};
	ok(ins_ipb_of(64, &t, &x) == 0 && x.warps == 1, "1 thread is 1 warp");
	t = (ins_tile){1u << 20, 1u << 20, 128, 1024};
	ok(ins_ipb_of(4000000000u, &t, &x) == 0 && x.bytes == (uint64_t)1 << 45 && x.warps == 32 &&
		   x.value == 4000000000.0 * 32 / 35184372088832.0,
	   "the largest tile: 2^45 bytes, no overflow");
	t = (ins_tile){0, 64, 16, 256};
	ok(ins_ipb_of(10, &t, &x) == -1 && !x.have && strstr(x.why, "0x64"), "a zero dimension: no figure, and why");
	t = (ins_tile){128, 64, 16, 0};
	ok(ins_ipb_of(10, &t, &x) == -1 && !x.have, "no threads: no figure");
	t = (ins_tile){128, 64, 16, 1025};
	ok(ins_ipb_of(10, &t, &x) == -1 && !x.have, "1025 threads: no figure");
	t = (ins_tile){128, 64, 12, 256};
	ok(ins_ipb_of(10, &t, &x) == -1 && !x.have && strstr(x.why, "12-bit"), "12-bit elements: no figure");
}

/* The tile of one header, and the source named. */
static void tile_is(const char *header, ins_tile want, const char *source, const char *what)
{
	px_meta m;
	ins_tile t;
	char err[256], src[128] = "";
	int parsed = meta_parse(header, &m, err, sizeof err) == 0;
	if (!parsed)
		printf("# meta_parse: %s\n", err);
	else
		ins_tile_of_meta(&m, &t, src, sizeof src);
	ok(parsed && !memcmp(&t, &want, sizeof t) && strstr(src, source), what);
	if (parsed && !strstr(src, source))
		printf("# source '%s'\n", src);
}

static void test_meta(void)
{
	tile_is("// ptxpose kernel=k abi=2 elem=16 grid=tile tile=128x64 block=32x8\n", (ins_tile){128, 64, 16, 256},
		"tile=128x64 of the metadata", "grid=tile: the tile, the width, the block's threads");
	tile_is("// ptxpose kernel=k abi=2 elem=32 grid=linear block=256x1 per_block=1024\n", (ins_tile){1, 1024, 32, 256},
		"per_block=1024 of the metadata", "grid=linear: 1 x per_block elements");
	tile_is("// ptxpose kernel=k abi=2 elem=8 grid=tile tile=512x16 block=256x1\n"
		"// ptxpose skinny=tall kmax=16 kw=16 stages=1\n",
		(ins_tile){512, 16, 8, 256}, "a full tile (K = kmax = 16)",
		"the small-dimension family: kmax x N, a full tile");
}

/* ins_ipb_report on a report with SASS counted: metadata first, then the flags. */
static void test_report(void)
{
	static ins_report r;
	memset(&r, 0, sizeof r);
	r.have_sass = 1;
	r.sass.total = 942;
	ins_ipb_report(&r, NULL);
	ok(!r.ipb.have && !strcmp(r.ipb.why, "no tile: use --tile --elem --threads"),
	   "no metadata, no flags: n/a, and what to give");
	ins_tile given = {128, 64, 16, 256};
	ins_ipb_report(&r, &given);
	ok(r.ipb.have && r.ipb.value == 0.22998046875 && !strcmp(r.ipb.source, "--tile 128x64 --elem 16 --threads 256"),
	   "no metadata: the flags' tile");
	char err[256];
	r.have_meta = meta_parse("// ptxpose kernel=k abi=2 elem=32 grid=tile tile=64x64 block=32x8\n", &r.meta, err,
				 sizeof err) == 0;
	ins_ipb_report(&r, &given);
	ok(r.have_meta && r.ipb.have && r.ipb.bytes == 32768 && r.ipb.tile.elem_bits == 32 &&
		   !strcmp(r.ipb.source, "tile=64x64 of the metadata"),
	   "metadata: its own tile, whatever the flags say");
}

static void branch(const char *line, int want, const char *what)
{
	ins_insn in;
	int got = ins_sass_line(line, &in) && ins_insn_is_self_branch(&in);
	ok(got == want, what);
}

static void test_self_branch(void)
{
	branch("        /*3ae0*/                   BRA 0x3ae0;                                     /* 0xfffffffc00fc7947 */", 1,
	       "BRA to its own address (no space before ';')");
	branch("        /*01f0*/                   BRA 0x1f0 ;", 1, "... with a space before ';'");
	branch("        /*01f0*/               @PT BRA 0x1f0;", 1, "... under @PT");
	branch("        /*01f0*/               @P0 BRA 0x1f0;", 0, "a guarded BRA to itself is a loop that may run");
	branch("        /*3ad0*/                   BRA 0x4d0 ;", 0, "a BRA elsewhere counts");
	branch("        /*01f0*/                   BRA.U 0x1f0;", 0, "BRA.U is another instruction");
	branch("        /*01f0*/                   BRX R2 -0x1f0;", 0, "BRX is not BRA");
	branch("        /*01f0*/                   BRA `(.L_x_3);", 0, "a label is not an address");
	branch("        /*01f0*/                   BRA 0x1f0f;", 0, "0x1f0f is not 0x1f0");
}

int main(void)
{
	test_arithmetic();
	test_meta();
	test_report();
	test_self_branch();
	return done_testing();
}
