/* Unit tests for the PTX builder, the generator's validation and the bank
 * model. Prints TAP. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen/bank.h"
#include "gen/ptxb.h"
#include "gen/tp.h"
#include "gen/tp_family.h"
#include "gen/tp_geom.h"
#include "tests/unit/tap.h"

static void builder(void)
{
	ptxb *b = ptxb_new();
	const char *r = ptxb_reg(b, "b32", "the role", "tile_%s", "row");
	ok(!strcmp(r, "%tile_row"), "register named by role: %s", r);
	ptxb_group(b, "Why this group.");
	ptxb_op(b, NULL, "add.u32", "%s, %s, 1", r, r);
	ptxb_op(b, "!%p", "bra.uni", "DONE");
	ptxb_op(b, NULL, "ret", " ");
	strbuf s;
	sb_init(&s);
	ok(ptxb_finish(b, &s, "// head\n", "sm_80", "k", "\t.param .u64 a\n", 64, 1) == 0, "finish");
	const char *t = sb_str(&s);
	ok(strstr(t, "\t.reg .b32 %tile_row;") != NULL, "declared in the block");
	ok(strstr(t, "// the role") != NULL, "declaration carries its comment");
	ok(strstr(t, "\n\t// Why this group.\n") != NULL, "group comment");
	ok(strstr(t, "\t            add.u32                     %tile_row, %tile_row, 1;\n") != NULL,
	   "opcode column aligned");
	ok(strstr(t, "\t@!%p        bra.uni                     DONE;\n") != NULL, "guard column aligned");
	ok(strstr(t, "ret;\n") != NULL, "no operands, no padding");
	ok(strstr(t, ".reqntid 64, 1, 1") != NULL, ".reqntid");
	ptxb_reg(b, "b32", NULL, "tile_row");
	ok(ptxb_error(b) && strstr(ptxb_error(b), "declared twice"), "duplicate register is an error");
	sb_free(&s);
	ptxb_free(b);
}

static void expect_refused(tp_params *p, const char *what, const char *needle)
{
	char err[256] = "";
	int rc = tp_validate(p, err, sizeof err);
	ok(rc == -1 && strstr(err, needle), "refused %s: %s", what, err);
}

static void validation(void)
{
	tp_params p;
	char err[256];
	tp_defaults(&p);
	ok(tp_validate(&p, err, sizeof err) == 0, "defaults are valid");
	tp_defaults(&p), p.elem = 48;
	expect_refused(&p, "elem 48", "elem:");
	tp_defaults(&p), p.tm = 48;
	expect_refused(&p, "tile 48", "tile:");
	tp_defaults(&p), p.elem = 64, p.vec = 4;
	expect_refused(&p, "32-byte vector", "widest is 16");
	tp_defaults(&p), p.tm = 2, p.tn = 2;
	expect_refused(&p, "tile smaller than the block", "fewer than");
	tp_defaults(&p), p.tm = 256, p.tn = 256, tp_set(&p, "smem", TP_SMEM_PADDED), p.tx = 32, p.ty = 32;
	expect_refused(&p, "too much shared memory", "static limit");
	tp_defaults(&p), p.tm = 256, p.tn = 128;
	expect_refused(&p, "too many elements per thread", "registers");
	tp_defaults(&p), tp_set(&p, "coalesce", 1), tp_set(&p, "smem", TP_SMEM_SWIZZLE);
	expect_refused(&p, "coalesce with shared memory", "coalesce:");
	tp_defaults(&p), snprintf(p.name, sizeof p.name, "9bad");
	expect_refused(&p, "bad name", "name:");
	tp_defaults(&p), tp_use(&p, tp_family_named("skinny")), tp_set(&p, "skinny", 1);
	p.tm = 4, p.tn = 32768, p.tx = 256, p.ty = 1, tp_set(&p, "kw", 4), tp_set(&p, "stages", 8), p.elem = 8;
	err[0] = '\0';
	ok(tp_validate(&p, err, sizeof err) == 0, "skinny wide kmax 4, 8 stages of 4096 bytes: valid (%s)", err);
	tp_set(&p, "kw", 8);
	expect_refused(&p, "skinny: kw 8 lanes along a kmax of 4", "kw:");
	tp_set(&p, "kw", 4), tp_set(&p, "smem", TP_SMEM_SWIZZLE);
	expect_refused(&p, "skinny with a swizzle", "skinny:");
	tp_use(&p, tp_family_named("skinny")), tp_set(&p, "skinny", 1), tp_set(&p, "kw", 4), tp_set(&p, "stages", 8);
	p.ty = 2, p.tx = 128;
	expect_refused(&p, "skinny with 2-D threads", "threads:");
	p.ty = 1, p.tx = 256, p.tn = 256, tp_set(&p, "stages", 1);
	expect_refused(&p, "skinny: 16 granules for 64 lane groups", "tile:");
	p.tn = 32768, tp_set(&p, "stages", 3);
	expect_refused(&p, "skinny: 3 stages", "stages:");
	tp_set(&p, "stages", 0), p.tm = 128, tp_set(&p, "kw", 4);
	expect_refused(&p, "skinny: kmax 128 with kw 4 (32 passes)", "registers");
	tp_defaults(&p), tp_set(&p, "stages", 2);
	expect_refused(&p, "stages on a tile kernel", "stages:");
	tp_defaults(&p), p.max_regs = 16;
	expect_refused(&p, "max_regs 16", "max_regs:");
	tp_defaults(&p), p.max_regs = 256;
	expect_refused(&p, "max_regs 256", "max_regs:");
}

static long v_none(void *ud, const tp_param *q) { return q->def; }

/* The values a test chooses with: key=index pairs, else the default. */
static long v_pairs(void *ud, const tp_param *q)
{
	for (const char *const *kv = ud; *kv; kv += 2)
		if (!strcmp(kv[0], q->key))
			for (int i = 0; q->names[i]; i++)
				if (!strcmp(q->names[i], kv[1]))
					return i;
	return q->def;
}

static void family_table(void)
{
	int n = 0, whole = 1;
	for (; tp_families[n]; n++) {
		const tp_family *f = tp_families[n];
		const tp_family *owner;
		whole &= f->name && f->validate && f->header && f->emit && f->target && tp_family_named(f->name) == f &&
			 (!tp_families[n + 1] || tp_param_find(f->select_key, &owner) != NULL);
	}
	ok(n == 11 && whole, "11 rows (flat, pack, skinny_reg and rowcopy included), each with its checks, header, emitter, target and a selector that exists");
	ok(tp_family_default() == tp_family_named("tile") && tp_family_choose(v_none, NULL) == tp_family_default(),
	   "the default is the tile family, chosen when nothing else is");
	const char *const shfl_wide[] = {"family", "shfl", "skinny", "wide", NULL};
	const char *const wide_linear[] = {"skinny", "wide", "grid", "linear", NULL};
	const char *const linear[] = {"grid", "linear", "family", "tile", NULL};
	ok(tp_family_choose(v_pairs, (void *)shfl_wide) == tp_family_named("shfl") &&
	   tp_family_choose(v_pairs, (void *)wide_linear) == tp_family_named("skinny") &&
	   tp_family_choose(v_pairs, (void *)linear) == tp_family_named("linear"),
	   "family= before skinny= before grid=");
	tp_params p;
	tp_defaults(&p);
	ok(tp_set(&p, "tiel", 1) == -1 && tp_set(&p, "smem", TP_SMEM_PADDED) == 0, "tp_set: unknown key -1");
	tp_defaults(&p), tp_use(&p, tp_family_named("movmatrix")), p.elem = 16, p.ty = 2;
	tp_set(&p, "smem", TP_SMEM_NONE), tp_set(&p, "kw", 0);
	char err[256] = "";
	ok(tp_validate(&p, err, sizeof err) == 0 && !p.foreign, "another family's parameter at its default is no error (%s)",
	   err);
	tp_set(&p, "dyn_smem", 1);
	expect_refused(&p, "movmatrix with dyn_smem", "family: a movmatrix kernel takes no");
	tp_defaults(&p), tp_use(&p, tp_family_named("linear")), p.ty = 1;
	tp_set(&p, "major", 1);
	ok(tp_validate(&p, err, sizeof err) == 0, "the linear kernel ignores major, as it always has (%s)", err);
	tp_set(&p, "ld_nc", 1), tp_set(&p, "stages", 2);
	expect_refused(&p, "linear with ld_nc", "grid: the linear");
	tp_use(&p, tp_family_named("linear")), tp_set(&p, "stages", 2), tp_set(&p, "ld_nc", 1);
	expect_refused(&p, "linear with stages", "stages: applies only to skinny kernels");
	/* the tiled copy: op="copy" chooses it, before skinny= */
	const char *const copy_wide[] = {"op", "copy", "skinny", "wide", NULL};
	ok(tp_family_choose(v_pairs, (void *)copy_wide) == tp_family_named("rowcopy"), "op=\"copy\" before skinny=");
	tp_defaults(&p), tp_use(&p, tp_family_named("rowcopy")), p.elem = 8, p.tn = 512, p.tm = 64;
	ok(tp_validate(&p, err, sizeof err) == 0, "a rowcopy kernel of bytes, 512-byte tile rows (%s)", err);
	strbuf t;
	sb_init(&t);
	ok(tp_generate(&p, &t, err, sizeof err) == 0 && strstr(sb_str(&t), " abi=2 op=copy elem=8 grid=tile tile=64x512 ") &&
	   strstr(sb_str(&t), "ld.global.v4.b32") && strstr(sb_str(&t), "ld.global.b8"),
	   "... says op=copy and has the 16-byte and the element paths");
	sb_free(&t);
	p.tn = 8;
	expect_refused(&p, "rowcopy with 8-byte tile rows", "tile: 64x8: rowcopy needs");
	p.tn = 512, p.vec = 4;
	expect_refused(&p, "rowcopy with vec=4", "vec: rowcopy kernels choose their vectors");
	p.vec = 1, tp_set(&p, "kw", 2);
	expect_refused(&p, "rowcopy with kw", "kw: applies only to skinny kernels");
}

static void generation_is_deterministic(void)
{
	tp_params p;
	tp_defaults(&p);
	tp_set(&p, "smem", TP_SMEM_SWIZZLE), p.vec = 4, p.tn = 128;
	strbuf a, b;
	sb_init(&a), sb_init(&b);
	char err[256];
	ok(tp_generate(&p, &a, err, sizeof err) == 0 && tp_generate(&p, &b, err, sizeof err) == 0 &&
	   a.len == b.len && !memcmp(a.data, b.data, a.len), "same parameters, same bytes");
	ok(strstr(sb_str(&a), "ld.global.v4.b32") && strstr(sb_str(&a), "st.global.v4.b32"),
	   "vec=4 emits 16-byte global loads and stores");
	ok(strstr(sb_str(&a), "bar.sync") != NULL, "shared variant has a barrier");
	ok(!strstr(sb_str(&a), ".maxnreg"), "no .maxnreg unless asked for");
	sb_reset(&a);
	p.max_regs = 64;
	ok(tp_generate(&p, &a, err, sizeof err) == 0 && strstr(sb_str(&a), ".reqntid 32, 8, 1\n.maxnreg 64\n{\n") &&
	   strstr(sb_str(&a), " max_regs=64"), "max_regs=64: .maxnreg 64 after .reqntid, and in the metadata");
	sb_free(&a), sb_free(&b);
	tp_defaults(&p);
	tp_use(&p, tp_family_named("skinny")), tp_set(&p, "skinny", 2), tp_set(&p, "kw", 4), tp_set(&p, "stages", 8);
	p.elem = 16, p.tm = 8192, p.tn = 4, p.tx = 256, p.ty = 1;
	sb_init(&a);
	err[0] = '\0';
	ok(tp_generate(&p, &a, err, sizeof err) == 0 && strstr(sb_str(&a), " skinny=tall kmax=4 kw=4 stages=8 vec=8 smem=runs") &&
	   strstr(sb_str(&a), "ptxpose-smem id=gather op=ld bytes=2 wavefronts=1 ideal=1"),
	   "skinny tall: metadata, and a conflict-free gather in the model (%s)", err);
	ok(strstr(sb_str(&a), "ld.global.v4.b32") && strstr(sb_str(&a), "st.global.v4.b32") &&
	   strstr(sb_str(&a), "ld.shared.b16"), "... 16-byte global loads and stores, 2-byte shared gathers");
	sb_free(&a);
}

static unsigned wave(unsigned stride_bytes, unsigned bytes)
{
	unsigned addr[32];
	for (unsigned l = 0; l < 32; l++)
		addr[l] = l * stride_bytes;
	return bank_wavefronts(addr, 32, bytes);
}

static bank_report model(enum tp_smem smem, int major_in, unsigned elem, unsigned vec, unsigned mask)
{
	tp_params p;
	tp_defaults(&p);
	p.tm = 32, p.tn = vec == 4 ? 128 : 64, p.elem = elem, p.vec = vec, tp_set(&p, "smem", smem);
	tp_set(&p, "major", major_in), tp_set(&p, "swizzle_mask", mask);
	char err[256];
	if (tp_validate(&p, err, sizeof err))
		ok(0, "model parameters valid: %s", err);
	tp_geom g;
	bank_geom(&p, &g);
	bank_report r;
	bank_model(&p, &g, &r);
	return r;
}

static void banks(void)
{
	ok(wave(4, 4) == 1, "unit stride words: 1 wavefront");
	ok(wave(128, 4) == 32, "stride 32 words: 32-way");
	ok(wave(132, 4) == 1, "stride 33 words: conflict-free");
	ok(wave(0, 4) == 1, "one word for all lanes: broadcast");
	ok(wave(8, 8) == 2, "8-byte unit stride: 2 wavefronts (half-warps)");
	ok(wave(16, 16) == 4, "16-byte unit stride: 4 wavefronts (quarter-warps)");
	ok(wave(256, 16) == 32, "16-byte, stride 256 bytes: 8-way in each quarter");
	bank_report r = model(TP_SMEM_PLAIN, 0, 32, 1, 0);
	ok(r.acc[0].worst == 32 && r.acc[1].worst == 1, "plain by output rows: stores 32-way, loads free");
	r = model(TP_SMEM_PLAIN, 1, 32, 1, 0);
	ok(r.acc[0].worst == 1 && r.acc[1].worst == 32, "plain by input rows: loads 32-way, stores free");
	for (unsigned e = 32; e <= 64; e *= 2)
		for (unsigned v = 1; v * e <= 128; v *= 2) {
			r = model(TP_SMEM_PADDED, 0, e, v, 0);
			ok(r.acc[0].worst == r.acc[0].ideal && r.acc[1].worst == r.acc[1].ideal,
			   "padded b%u vec %u: conflict-free", e, v);
			r = model(TP_SMEM_SWIZZLE, 0, e, v, 0);
			ok(r.acc[0].worst == r.acc[0].ideal && r.acc[1].worst == r.acc[1].ideal,
			   "swizzled b%u vec %u: conflict-free", e, v);
		}
	r = model(TP_SMEM_SWIZZLE, 0, 32, 1, 1);
	ok(r.acc[0].worst > r.acc[0].ideal, "a broken swizzle (mask 1) is reported as conflicted: %u-way",
	   r.acc[0].worst);
}

int main(void)
{
	builder();
	validation();
	family_table();
	generation_is_deterministic();
	banks();
	return tap_done();
}
