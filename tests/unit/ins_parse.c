/* Unit tests for the SASS-line, SASS-listing and ptxas -v parsers, on lines
 * captured from cuobjdump 13.5 and ptxas 13.0 (sm_80, sm_90, sm_100). TAP. */
#include <stdio.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tests/unit/ins_tap.h"

/* Parse one line and compare with the expected class, width and guard. */
static void line_is(const char *line, enum ins_class cls, unsigned bits, int pred, const char *what)
{
	ins_insn in;
	int got = ins_sass_line(line, &in);
	int good = got && in.cls == cls && ins_width_bits(in.width) == bits && in.predicated == pred;
	if (!good)
		printf("# line: %s\n# got %d cls %s width %u pred %d\n", line, got,
		       got ? ins_class_name(in.cls) : "-", got ? ins_width_bits(in.width) : 0,
		       got ? in.predicated : -1);
	ok(good, what);
}

static void not_insn(const char *line, const char *what)
{
	ins_insn in;
	ok(ins_sass_line(line, &in) == 0, what);
}

static void test_lines(void)
{
	line_is("        /*0030*/                   LDG.E.CONSTANT R15, desc[UR6][R2.64+0xc] ;      /* 0x00000c06020f7981 */",
		INS_C_LDG, 32, 0, "LDG.E.CONSTANT is a 32-bit global load");
	line_is("        /*0040*/                   LDG.E.64 R12, desc[UR6][R2.64+0x10] ;           /* 0x00001006020c7981 */",
		INS_C_LDG, 64, 0, "LDG.E.64");
	line_is("        /*0050*/                   LDG.E.NA.CONSTANT R14, desc[UR6][R2.64+0x30] ;  /* 0x00003006020e7981 */",
		INS_C_LDG, 32, 0, "LDG.E.NA.CONSTANT: modifiers are not widths");
	line_is("        /*0070*/                   LDG.E.U16 R17, desc[UR6][R2.64+0x20] ;          /* 0x0000200602117981 */",
		INS_C_LDG, 16, 0, "LDG.E.U16");
	line_is("        /*0080*/                   LDG.E.U8 R19, desc[UR6][R2.64+0x28] ;           /* 0x0000280602137981 */",
		INS_C_LDG, 8, 0, "LDG.E.U8");
	line_is("        /*0080*/                   LDG.E.S8 R19, [R2.64+0x28] ;                    /* 0x0000280602137981 */",
		INS_C_LDG, 8, 0, "LDG.E.S8 counts as 8 bits");
	line_is("        /*0040*/                   LDG.E.LTC128B.128.CONSTANT R4, [R2.64] ;        /* 0x0000000402047981 */",
		INS_C_LDG, 128, 0, "LDG.E.LTC128B.128: the 128 after the cache hint");
	line_is("        /*0040*/                   LDG.E.LTC128B.CONSTANT R4, [R2.64] ;            /* 0x0000000402047981 */",
		INS_C_LDG, 32, 0, "LTC128B alone is a cache hint, not a width");
	line_is("        /*0190*/              @!P0 STG.E.128 desc[UR6][R2.64], R4 ;                /* 0x0000000402008986 */",
		INS_C_STG, 128, 1, "@!P0 STG.E.128 is a predicated 128-bit store");
	line_is("        /*0190*/               @P0 STG.E.EF [R6.64+0x10], R18 ;                      /* 0x0000101206000986 */",
		INS_C_STG, 32, 1, "@P0 STG.E.EF (sm_80 addressing)");
	line_is("        /*0100*/                   STS.128 [UR4+0x10], R12 ;                       /* 0x0000100cff007988 */",
		INS_C_STS, 128, 0, "STS.128");
	line_is("        /*0110*/                   STS [UR4+0x30], R14 ;                           /* 0x0000300eff007988 */",
		INS_C_STS, 32, 0, "STS");
	line_is("        /*00e0*/                   STS.64 [RZ], R8 ;                                 /* 0x00000008ff007388 */",
		INS_C_STS, 64, 0, "STS.64");
	line_is("        /*0140*/                   LDS.128 R4, [UR4+0x80] ;                        /* 0x00008004ff047984 */",
		INS_C_LDS, 128, 0, "LDS.128");
	line_is("        /*0140*/                   LDS.U.128 R4, [R0] ;                            /* 0x00008004ff047984 */",
		INS_C_LDS, 128, 0, "LDS.U.128");
	line_is("        /*0140*/               @PT LDS R4, [R0] ;                                  /* 0x00008004ff047984 */",
		INS_C_LDS, 32, 0, "@PT is no predicate");
	line_is("        /*0140*/              @UP0 LDS R4, [R0] ;                                  /* 0x00008004ff047984 */",
		INS_C_LDS, 32, 1, "@UP0 is a predicate");
	line_is("        /*0130*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;                   /* 0x0000000000007b1d */",
		INS_C_BAR, 32, 0, "BAR.SYNC.DEFER_BLOCKING");
	line_is("        /*0130*/                   LDL.64 R2, [R1+0x8] ;                           /* 0x0000000000007b1d */",
		INS_C_LDL, 64, 0, "LDL.64");
	line_is("        /*0130*/                   STL [R1], R0 ;                                  /* 0x0000000000007b1d */",
		INS_C_STL, 32, 0, "STL");
	line_is("        /*0130*/                   LD.E.64 R2, [R4.64] ;                           /* 0x0000000000007b1d */",
		INS_C_LD, 64, 0, "LD.E.64 is a generic load");
	line_is("        /*0130*/                   LDSM.16.M88.4 R4, [R2] ;                        /* 0x0000000000007b1d */",
		INS_C_OTHER, 32, 0, "LDSM is not LDS");
	line_is("        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;                      /* 0x00008400ff027b82 */",
		INS_C_OTHER, 32, 0, "LDC is not a memory access we count");
	line_is("        /*01f0*/                   BRA 0x1f0;                                      /* 0xfffffffc00fc7947 */",
		INS_C_OTHER, 32, 0, "BRA without a space before ';'");
	line_is("        /*0200*/                   NOP;                                            /* 0x0000000000007918 */",
		INS_C_NOP, 32, 0, "NOP");
	not_insn("                                                                                   /* 0x000fc00000000000 */",
		 "an encoding continuation line is not an instruction");
	not_insn("\t\tFunction : k", "a Function header is not an instruction");
	not_insn("\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"", "headerflags");
	not_insn("", "an empty line");

	ins_insn in;
	ins_sass_line("        /*0190*/              @!P0 STG.E.128 desc[UR6][R2.64], R4 ;                /* 0x0000000402008986 */", &in);
	ok(in.addr == 0x190 && !strcmp(in.guard, "@!P0") && !strcmp(in.opcode, "STG.E.128") &&
		   !strcmp(in.text, "STG.E.128 desc[UR6][R2.64], R4 ;"),
	   "address, guard, opcode and text of an instruction");
}

static const char listing[] =
	"\n\tcode for sm_90\n\t.target\tsm_90\n\n\t\tFunction : k\n"
	"\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;                          /* 0x00000a00ff017b82 */\n"
	"                                                                                   /* 0x000ff00000000800 */\n"
	"        /*0030*/                   LDG.E.CONSTANT R15, desc[UR6][R2.64+0xc] ;      /* 0x00000c06020f7981 */\n"
	"                                                                                   /* 0x001ea8000c1e9900 */\n"
	"        /*0100*/                   STS.128 [UR4+0x10], R12 ;                       /* 0x0000100cff007988 */\n"
	"                                                                                   /* 0x004fe80008000c04 */\n"
	"        /*0130*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;                   /* 0x0000000000007b1d */\n"
	"                                                                                   /* 0x000fec0000010000 */\n"
	"        /*0140*/                   LDS.128 R4, [UR4+0x80] ;                        /* 0x00008004ff047984 */\n"
	"                                                                                   /* 0x000fe80008000c00 */\n"
	"        /*0180*/               @P0 STG.E.EF desc[UR6][R2.64+0x10], R6 ;            /* 0x0000100602000986 */\n"
	"                                                                                   /* 0x001fe8000c001906 */\n"
	"        /*0190*/              @!P0 STG.E.128 desc[UR6][R2.64], R4 ;                /* 0x0000000402008986 */\n"
	"                                                                                   /* 0x000fe8000c101d06 */\n"
	"        /*01e0*/                   EXIT ;                                          /* 0x000000000000794d */\n"
	"                                                                                   /* 0x000fea0003800000 */\n"
	"        /*01f0*/                   BRA 0x1f0;                                      /* 0xfffffffc00fc7947 */\n"
	"                                                                                   /* 0x000fc0000383ffff */\n"
	"        /*0200*/                   NOP;                                            /* 0x0000000000007918 */\n"
	"                                                                                   /* 0x000fc00000000000 */\n"
	"\t\t..........\n\n";

static void test_listing(void)
{
	ins_sass s;
	strbuf l;
	sb_init(&l);
	ins_sass_parse(listing, &s, &l);
	ok(s.nfunc == 1 && !strcmp(s.function, "k"), "listing: one function, k");
	ok(s.count[INS_C_LDG][INS_W32] == 1 && s.count[INS_C_STG][INS_W128] == 1 &&
		   s.count[INS_C_STG][INS_W32] == 1 && s.count[INS_C_STS][INS_W128] == 1 &&
		   s.count[INS_C_LDS][INS_W128] == 1,
	   "listing: loads and stores by width");
	ok(ins_sass_count(&s, INS_C_BAR) == 1 && ins_sass_count(&s, INS_C_LDL) == 0, "listing: one barrier, no local memory");
	ok(s.mem == 5 && s.mem_pred == 2, "listing: 2 of 5 memory instructions predicated");
	ok(s.total == 8 && ins_sass_count(&s, INS_C_NOP) == 1, "listing: 8 instructions besides one NOP and the BRA to itself");
	ok(!strstr(sb_str(&l), "0x000fe8000c101d06") && strstr(sb_str(&l), " @!P0 STG.E.128 desc[UR6][R2.64], R4 ;\n") &&
		   strstr(sb_str(&l), "Function : k"),
	   "listing without encodings keeps headers and instructions");
	strbuf c;
	sb_init(&c);
	ins_class_counts(&s, INS_C_STG, &c);
	ok(!strcmp(sb_str(&c), "STG.E.128 x1  STG.E x1"), "class counts: widest first");
	sb_reset(&c);
	ins_class_counts(&s, INS_C_LDL, &c);
	ok(!strcmp(sb_str(&c), "none"), "class counts: none");
	sb_free(&c);
	sb_free(&l);
}

static void test_ptxas(void)
{
	static const char sm80[] =
		"ptxas info    : 0 bytes gmem\n"
		"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
		"ptxas info    : Function properties for k\n"
		"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
		"ptxas info    : Used 22 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]\n"
		"ptxas info    : Compile time = 30.296 ms\n";
	ins_res r;
	ok(ins_ptxas_parse(sm80, &r) == 0 && r.registers == 22 && r.barriers == 1 && r.smem_bytes == 4096 &&
		   r.cmem_bytes == 384 && r.have_cmem && r.stack_bytes == 0 && r.nfunc == 1 && !strcmp(r.function, "k"),
	   "ptxas -v for sm_80");
	static const char spill[] =
		"ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
		"ptxas info    : Function properties for a\n"
		"    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
		"ptxas info    : Used 255 registers, 0 bytes smem, 384 bytes cmem[0], 8 bytes cmem[2]\n"
		"ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
		"ptxas info    : Function properties for b\n"
		"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
		"ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem\n";
	ok(ins_ptxas_parse(spill, &r) == 0 && r.registers == 255 && r.stack_bytes == 16 && r.spill_store_bytes == 8 &&
		   r.spill_load_bytes == 12 && r.smem_bytes == 1024 && r.cmem_bytes == 392 && r.nfunc == 2 &&
		   !strcmp(r.function, "a"),
	   "ptxas -v with spills and two entries: the largest of each");
	ok(ins_ptxas_parse("ptxas info    : Used 22 registers, used 1 barriers, 4096 bytes smem\n", &r) == 0 &&
		   r.registers == 22 && !r.have_cmem,
	   "ptxas -v for sm_90: no cmem reported");
	ok(ins_ptxas_parse("ptxas fatal   : Ptx assembly aborted due to errors\n", &r) == -1,
	   "ptxas output without a register line is refused");
}

static void test_arch(void)
{
	const char *good[] = {"sm_80", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100f", "sm_120a"};
	const char *bad[] = {"sm9", "sm_9", "sm_", "90", "compute_90", "sm_90x", "sm_1000", "sm_09", "sm_90aa", ""};
	int all = 1;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		all &= ins_arch_valid(good[i]);
	ok(all, "valid --arch values");
	all = 1;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		all &= !ins_arch_valid(bad[i]);
	ok(all, "invalid --arch values");
}

int main(void)
{
	test_lines();
	test_listing();
	test_ptxas();
	test_arch();
	return done_testing();
}
