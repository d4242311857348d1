/* The cost model (lib/model*.c): problem checks, parameter files, the
 * features of hand-made kernels on shapes whose tiles, paths and sectors
 * are counted by hand here, and the ranking. */
#include <math.h>
#include <stdlib.h>

#include "common/strbuf.h"
#include "lib/model.h"
#include "lib/pick.h"
#include "tests/unit/tap.h"

extern const char model_params_tsv[], model_params_h200_tsv[];

static model_device dev(void)
{
	model_device d;
	char err[256];
	if (model_device_builtin("h100", &d, err, sizeof err))
		abort();
	return d;
}

/* A kernel from metadata lines (and ptxas's registers, 0: estimated). */
static model_kernel kern(const char *meta, unsigned regs)
{
	px_meta m;
	model_kernel k;
	char err[256];
	if (meta_parse(meta, &m, err, sizeof err) || model_kernel_init(&k, &m, regs, err, sizeof err)) {
		printf("# %s\n", err);
		abort();
	}
	return k;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

static model_features feat(const model_kernel *k, model_problem p)
{
	char err[256];
	model_features f;
	model_device d = dev();
	if (model_problem_check(&p, err, sizeof err)) {
		printf("# %s\n", err);
		abort();
	}
	model_features_of(&d, k, &p, model_params_builtin(), &f);
	return f;
}

#define F32_VEC "// ptxpose kernel=v32 elem=32 grid=tile tile=64x64 block=32x8\n" \
		"// ptxpose vec=4 smem=swizzle major=out smem_bytes=16384\n"
#define U8_VEC  "// ptxpose kernel=v8 elem=8 grid=tile tile=64x64 block=32x8\n" \
		"// ptxpose vec=4 smem=swizzle major=out smem_bytes=4096\n"
#define LINEAR  "// ptxpose kernel=lin elem=32 grid=linear block=256x1 per_block=256 vec=1 smem=none\n"

static void problems(void)
{
	char err[256];
	struct {
		model_problem p;
		enum model_status st;
		const char *msg;
	} bad[] = {
		{{.es = 4, .rows = 0, .cols = 5}, MODEL_EINVAL, "rows 0 is out of range (1 to 2147483647)"},
		{{.es = 4, .rows = 5, .cols = 0}, MODEL_EINVAL, "cols 0 is out of range (1 to 2147483647)"},
		{{.es = 3, .rows = 5, .cols = 5}, MODEL_EINVAL, "elem_bytes 3 is not 1, 2, 4, 8 or 16"},
		{{.es = 4, .rows = 1ull << 31, .cols = 5}, MODEL_EINVAL, "rows 2147483648 is out of range (1 to 2147483647)"},
		{{.es = 4, .rows = 5, .cols = 10, .ld_in = 4}, MODEL_EINVAL, "ld_in 4 is less than cols 10"},
		{{.es = 4, .rows = 10, .cols = 5, .ld_out = 9}, MODEL_EINVAL, "ld_out 9 is less than rows 10"},
		{{.es = 4, .rows = 4, .cols = 4, .batch = 2, .stride_in = 15}, MODEL_EINVAL,
		 "stride_in 15 is less than the input matrix it must hold ((rows-1)*ld_in + cols = 16 elements)"},
		{{.es = 16, .rows = 0x7fffffff, .cols = 0x7fffffff, .batch = 0x7fffffff}, MODEL_EOVERFLOW,
		 "too large: the input needs 2147483647 x 2147483647 x 16 bytes, more than a buffer can hold"},
		{{.es = 16, .rows = 65536, .cols = 65536, .batch = 0x7fffffff}, MODEL_EOVERFLOW,
		 "too large: stride_in 4294967296: the input's 2147483647 matrices need more than a buffer can hold"},
		{{.es = 4, .rows = 5, .cols = 5, .align_in = 12}, MODEL_EINVAL, "align_in 12 is not a power of two"},
		{{.es = 8, .rows = 5, .cols = 5, .align_out = 4}, MODEL_EMISALIGNED,
		 "align_out 4: the pointer is misaligned for 8-byte elements"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		enum model_status st = model_problem_check(&bad[i].p, err, sizeof err);
		ok(st == bad[i].st, "problem %zu: status %d", i, (int)st);
		has_str(err, bad[i].msg, "... says what is wrong");
	}
	model_problem p = {.es = 2, .rows = 7, .cols = 9, .batch = 3};
	ok(model_problem_check(&p, err, sizeof err) == MODEL_OK && p.ld_in == 9 && p.ld_out == 7 &&
	   p.stride_in == 63 && p.stride_out == 63 && p.align_in == 256 && p.align_out == 256,
	   "defaults: packed pitches, dense strides, 256-byte pointers");
	ok(model_align_of_offset(0, 4) == 256 && model_align_of_offset(1, 4) == 4 &&
	   model_align_of_offset(3, 2) == 2 && model_align_of_offset(4, 4) == 16, "alignment of an offset");
}

/* The one conversion of the public desc: every field, and the defaults the
 * check fills written back to the desc. */
static void desc_problem(void)
{
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = 8, d.rows = 3, d.cols = 5, d.ld_in = 7, d.ld_out = 11, d.batch = 13;
	d.stride_in = 17, d.stride_out = 19, d.align_in = 32, d.align_out = 64;
	model_problem p;
	model_problem_of_desc(&p, &d);
	ok(p.es == 8 && p.rows == 3 && p.cols == 5 && p.ld_in == 7 && p.ld_out == 11 && p.batch == 13 &&
	   p.stride_in == 17 && p.stride_out == 19 && p.align_in == 32 && p.align_out == 64,
	   "model_problem_of_desc copies every field");
	char err[256] = "";
	ptxpose_desc e = PTXPOSE_DESC_INIT;
	e.rows = 7, e.cols = 9, e.batch = 3;
	ok(model_desc_check(&e, 1, err, sizeof err) == MODEL_OK && e.ld_in == 9 && e.ld_out == 7 &&
	   e.stride_in == 63 && e.stride_out == 63 && !e.align_in, "model_desc_check (shape only): defaults written back");
	e.elem_bytes = 3;
	ok(model_desc_check(&e, 0, err, sizeof err) == MODEL_EINVAL, "... the whole check refuses a 3-byte element");
	has_str(err, "elem_bytes 3 is not 1, 2, 4, 8 or 16", "... naming it");
	e.elem_bytes = 2;
	uint64_t in, out;
	model_desc_bytes(&e, &in, &out);
	ok(model_desc_check(&e, 0, err, sizeof err) == MODEL_OK && in == 3 * 63 * 2 && out == in,
	   "model_desc_bytes: 3 packed 7x9 matrices of 2 bytes");
	e.ld_in = 12, e.ld_out = 10, e.stride_in = 100, e.stride_out = 95;
	model_desc_bytes(&e, &in, &out);
	ok(in == (2 * 100 + 6 * 12 + 9) * 2 && out == (2 * 95 + 8 * 10 + 7) * 2,
	   "model_desc_bytes: padded and strided, up to the last matrix's last element (not its last row's padding)");
}

/* A whole table into t (emptied first): HEAD's lines (comments), every
 * constant, and a default theta of 1 for every feature. */
static void whole_table(strbuf *t, const char *head)
{
	sb_reset(t);
	sb_add(t, head);
	sb_add(t, "const l2_lo 0.5\nconst l2_hi 1\nconst inflight_need 1\nconst sm_share_cap 1\nconst unsure_margin 0.1\n");
	for (int f = 0; f < MF_N; f++)
		sb_printf(t, "theta * %s 1\n", model_feat_name(f));
}

static void params(void)
{
	model_params p;
	char err[256];
	ok(model_params_parse(model_params_tsv, &p, err, sizeof err) == 0, "the embedded lib/model_params.tsv parses");
	model_params_free(&p);
	ok(strncmp(model_params_builtin()->source, "(lib/model_params.tsv broken", 20) != 0,
	   "... and is the built-in table");
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"const l2_lo 1\n", "const l2_hi is missing"},
		{"const l2_lo x\n", "line 1: const l2_lo: 'x' is not a non-negative number"},
		{"const l2_lo -1\n", "is not a non-negative number"},
		{"const nope 1\n", "line 1: unknown const 'nope'"},
		{"const l2_lo 1\nconst l2_lo 1\n", "line 2: const l2_lo given twice"},
		{"theta * bogus 1\n", "line 1: unknown feature 'bogus'"},
		{"theta * launch 1\ntheta * launch 2\n", "line 2: theta * launch given twice"},
		{"thetas * launch 1\n", "expected 'const NAME VALUE' or 'theta WHO FEATURE VALUE'"},
		{"const l2_lo 0.5\nconst l2_hi 1\nconst inflight_need 1\nconst sm_share_cap 1\n"
		 "const unsure_margin 0\ntheta * launch 1\n", "theta * waves is missing"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		ok(model_params_parse(bad[i].text, &p, err, sizeof err) == -1, "bad parameters %zu refused", i);
		has_str(err, bad[i].msg, "... with the reason");
	}
	/* lookup: kernel row, then family, then "*" */
	strbuf t;
	sb_init(&t);
	whole_table(&t, "# fitted from: a test\n");
	sb_add(&t, "theta family:sk vec_dram 2\ntheta v32 vec_dram 3\ntheta v32 edge_l2 4\n");
	ok(model_params_parse(sb_str(&t), &p, err, sizeof err) == 0, "a table with kernel and family rows");
	is_str(p.source, "a test", "... its source line");
	model_kernel k = kern(F32_VEC, 0), fam = kern("// ptxpose kernel=x elem=8 grid=tile tile=8x8 block=32x1 family=sk\n", 0);
	const char *who;
	ok(model_theta(&p, &k, MF_VEC_DRAM, &who) == 3 && !strcmp(who, "v32"), "the kernel's own row first");
	ok(model_theta(&p, &k, MF_ELEM_DRAM, &who) == 1 && !strcmp(who, "*"), "... then the default");
	ok(model_theta(&p, &fam, MF_VEC_DRAM, &who) == 2 && !strcmp(who, "family:sk"), "... its family's in between");
	model_params_free(&p);
	/* a header comment may be longer than a line (fit_model lists every results file) */
	strbuf h;
	sb_init(&h);
	sb_add(&h, "# fitted from: ");
	for (int i = 0; i < 800; i++)
		sb_add(&h, "file; ");
	sb_add(&h, "\n# fitted cases: 7\n");
	whole_table(&t, sb_str(&h));
	sb_free(&h);
	ok(model_params_parse(sb_str(&t), &p, err, sizeof err) == 0 && p.cases == 7 && strlen(p.source) == sizeof p.source - 1 &&
		   !strncmp(p.source, "file; file; ", 12),
	   "a comment of 4800 bytes: read, its source cut to the buffer");
	model_params_free(&p);
	sb_free(&t);
	sb_init(&t);
	sb_add(&t, "const l2_lo 0.5");
	for (int i = 0; i < 1100; i++)
		sb_addc(&t, ' ');
	sb_add(&t, "\n");
	err[0] = '\0';
	ok(model_params_parse(sb_str(&t), &p, err, sizeof err) == -1, "a table line of 1115 bytes: refused");
	has_str(err, "line 1: longer than 1023 bytes", "... with the reason");
	sb_free(&t);
}

static void kernels(void)
{
	model_kernel k = kern(F32_VEC, 0);
	ok(k.fast_align == 16 && !k.realign_ld && !k.realign_st && k.edge_rows && k.edge_cols,
	   "a vec=4 32-bit kernel: a 16-byte vector path, no realigned words");
	k = kern(U8_VEC, 0);
	ok(k.fast_align == 4 && k.realign_ld && k.realign_st, "a vec=4 byte kernel: 4-byte vectors, realigned loads and stores");
	k = kern("// ptxpose kernel=a elem=8 grid=tile tile=64x64 block=32x8 vec=4 smem=plain major=in smem_bytes=4096\n", 0);
	ok(k.realign_ld && !k.realign_st, "... shared rows by input rows: realigned loads only");
	k = kern("// ptxpose kernel=s elem=16 grid=tile tile=8x256 block=256x1 vec=8 fast_align=4 "
		 "fast_needs=packed_out realign=none edge=cols inflight=9000 family=skinny\n", 0);
	ok(k.fast_align == 4 && k.fast_packed_out && !k.fast_packed_in && !k.realign_ld && !k.edge_rows &&
	   k.edge_cols && k.inflight == 9000 && !strcmp(k.family, "skinny"), "a family described by its keys");
	px_meta m;
	char err[256];
	meta_parse("// ptxpose kernel=b elem=32 grid=tile tile=8x8 block=32x1 fast_align=12\n", &m, err, sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "fast_align=12 refused");
	has_str(err, "b: fast_align=12 is not a power of two", "... naming the kernel and key");
	meta_parse("// ptxpose kernel=b elem=32 grid=tile tile=8x8 block=32x1 edge=diagonal\n", &m, err, sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "edge=diagonal refused");
	k = kern(F32_VEC, 0);
	ok(!k.study, "a kernel is not a study kernel unless it says so");
	k = kern("// ptxpose kernel=w elem=16 grid=tile tile=64x64 block=32x8 vec=8 family=movmatrix study=1\n", 0);
	ok(k.study && !strcmp(k.family, "movmatrix"), "study=1: a study kernel (plans leave it out)");
	meta_parse("// ptxpose kernel=b elem=32 grid=tile tile=8x8 block=32x1 study=2\n", &m, err, sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "study=2 refused");
	has_str(err, "b: study=2 is not 0 or 1", "... naming the kernel and key");
	k = kern("// ptxpose kernel=s elem=16 grid=tile tile=64x64 block=32x8 vec=8 target=sm_90\n", 0);
	model_device d80 = dev(), d90 = dev(), dnone = dev();
	d80.cc_major = 8, d80.cc_minor = 0, d90.cc_major = 9, d90.cc_minor = 0, dnone.cc_major = 0;
	ok(k.sm == 90 && !pick_runs_on(&k, &d80) && pick_runs_on(&k, &d90) && pick_runs_on(&k, &dnone),
	   "target=sm_90: not on an sm_80 device; on sm_90, and where the capability is unknown");
	k = kern(F32_VEC, 0);
	ok(k.sm == 0 && pick_runs_on(&k, &d80), "no target: any device");
	k = kern("// ptxpose kernel=r elem=8 grid=tile tile=16x1024 block=256x1 family=skinny_wide fast_k=8\n", 0);
	ok(k.fast_k == 8, "fast_k=8 on a skinny kernel");
	meta_parse("// ptxpose kernel=b elem=8 grid=tile tile=16x1024 block=256x1 family=skinny_wide fast_k=6\n", &m, err,
		   sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "fast_k=6 refused");
	has_str(err, "b: fast_k=6 is not a power of two", "... naming the kernel and key");
	meta_parse("// ptxpose kernel=b elem=8 grid=tile tile=16x16 block=256x1 fast_k=4\n", &m, err, sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "fast_k on a kernel of no skinny family refused");
	has_str(err, "b: fast_k=4 applies only to family=skinny_wide or skinny_tall", "... saying which families");
	meta_parse("// ptxpose kernel=b elem=32 grid=tile tile=8x8 block=32x1 target=compute_90\n", &m, err, sizeof err);
	ok(model_kernel_init(&k, &m, 0, err, sizeof err) == -1, "target=compute_90 refused");
	has_str(err, "b: target=compute_90 is not sm_NN", "... naming the kernel and key");
}

static void tiles_and_paths(void)
{
	model_kernel k = kern(F32_VEC, 0);
	model_features f = feat(&k, (model_problem){.es = 4, .rows = 128, .cols = 128});
	ok(f.tiles == 4 && f.interior == 4 && f.edge == 0 && f.fast_share == 1, "128x128: 4 interior tiles, vectors");
	ok(near(f.path_bytes[MODEL_VEC], 2.0 * 128 * 128 * 4) && f.requests == f.path_bytes[MODEL_VEC] &&
	   near(f.footprint, f.useful), "... every byte once: whole sectors, no waste");
	ok(f.grid[0] == 2 && f.grid[1] == 2 && f.grid[2] == 1 && f.blocks == 4, "... grid 2x2x1");
	f = feat(&k, (model_problem){.es = 4, .rows = 128, .cols = 128, .ld_in = 129});
	ok(f.fast_share == 0 && f.path_bytes[MODEL_VEC] == 0 && f.path_bytes[MODEL_REALIGN] == 0 &&
	   f.path_bytes[MODEL_ELEM] > 2.0 * 128 * 128 * 4, "ld_in 129: elements, and partial sectors cost more");
	f = feat(&k, (model_problem){.es = 4, .rows = 128, .cols = 128, .align_in = 8});
	ok(f.fast_share == 0, "an input pointer aligned to 8 bytes: no 16-byte vectors");
	f = feat(&k, (model_problem){.es = 4, .rows = 130, .cols = 130});
	ok(f.tiles == 9 && f.interior == 4 && f.edge == 5 && f.slots == 5.0 * 64 * 64,
	   "130x130: 4 interior tiles, 5 edge tiles, their slots");
	ok(f.path_bytes[MODEL_EDGE] > 0 && f.x[MF_TAIL] > 0, "... edge bytes and a tail");
	/* 8-byte segments of 3-element rows: a 12-byte row spans one or two sectors */
	f = feat(&k, (model_problem){.es = 4, .rows = 1000, .cols = 3});
	ok(f.requests > f.footprint && f.footprint <= 2.0 * 1000 * 3 * 4 + 64, "1000x3: sectors re-requested, footprint the data");
	ok(f.grid[0] == 1 && f.grid[1] == 16 && f.l2_hit == 1, "... a 1x16 grid; the L2 holds it");
	f = feat(&k, (model_problem){.es = 4, .rows = 65536 * 64 + 1, .cols = 64, .batch = 70000});
	ok(f.grid[1] == 65535 && f.grid[2] == 65535, "ABI 2 grid: y and z clamped to 65535");
	ok(f.l2_hit == 0 && f.waves > 1000, "... far past the L2, many waves");
}

static void realign_and_batches(void)
{
	model_kernel k = kern(U8_VEC, 0);
	/* 8 tile rows of 64; misaligned pitch: loads realign on tile rows 1..6, stores on all */
	model_features f = feat(&k, (model_problem){.es = 1, .rows = 512, .cols = 512, .ld_in = 513});
	double ld = 512.0 * 512, re = f.path_bytes[MODEL_REALIGN], el = f.path_bytes[MODEL_ELEM];
	ok(f.fast_share == 0 && re > 0 && el > 0, "bytes, ld_in 513: realigned words and elements");
	ok(re > el && el < ld, "... loads of the first and last tile rows by elements (2 of 8)");
	f = feat(&k, (model_problem){.es = 1, .rows = 512, .cols = 512});
	ok(f.fast_share == 1 && f.path_bytes[MODEL_REALIGN] == 0, "aligned: the vector path");
	/* batch strides: every other matrix is 4-byte aligned */
	f = feat(&k, (model_problem){.es = 1, .rows = 64, .cols = 64, .batch = 8, .stride_in = 4098, .stride_out = 4096});
	ok(near(f.fast_share, 0.5), "a stride of 4098 bytes: half the matrices take vectors");
	model_kernel s = kern("// ptxpose kernel=s elem=8 grid=tile tile=64x64 block=32x8 vec=4 fast_needs=packed_out\n", 0);
	f = feat(&s, (model_problem){.es = 1, .rows = 64, .cols = 64, .ld_out = 68});
	ok(f.fast_share == 0, "fast_needs=packed_out: a padded output takes the slow path");
	model_kernel e = kern("// ptxpose kernel=e elem=8 grid=tile tile=64x64 block=32x8 vec=4 edge=cols\n", 0);
	f = feat(&e, (model_problem){.es = 1, .rows = 3, .cols = 128});
	ok(f.edge == 0 && f.interior == 2, "edge=cols: a partial tile row is interior");
}

static void linear_and_occupancy(void)
{
	model_kernel k = kern(LINEAR, 0);
	model_features f = feat(&k, (model_problem){.es = 4, .rows = 1024, .cols = 1024});
	ok(near(f.path_bytes[MODEL_ELEM], 1024.0 * 1024 * 4 + 1024.0 * 1024 * 32), "linear: every write a sector of its own");
	ok(f.grid[0] == 4096 && f.occ == 8 && !strcmp(f.occ_by, "threads"), "... 4096 blocks, 8 per SM by threads");
	f = feat(&k, (model_problem){.es = 4, .rows = 1024, .cols = 2});
	ok(near(f.path_bytes[MODEL_ELEM], 1024.0 * 32 + 1024.0 * 2 * (4 + 28.0 / 16)),
	   "... 2 columns: a sector a row read, a warp writes runs of 16");
	model_kernel big = kern("// ptxpose kernel=b elem=32 grid=tile tile=64x64 block=32x8 vec=4 smem=padded smem_bytes=50000\n", 0);
	f = feat(&big, (model_problem){.es = 4, .rows = 64, .cols = 64});
	ok(f.occ == 4 && !strcmp(f.occ_by, "smem"), "50000 bytes of shared memory: 4 blocks per SM");
	model_kernel regs = kern(F32_VEC, 128);
	f = feat(&regs, (model_problem){.es = 4, .rows = 64, .cols = 64});
	ok(f.occ == 2 && !strcmp(f.occ_by, "regs") && regs.regs_known, "128 registers from ptxas: 2 blocks per SM");
	f = feat(&regs, (model_problem){.es = 4, .rows = 64, .cols = 64});
	ok(f.phi < 1 && f.waves < 1, "one block: under a wave, a fraction of the bandwidth");
}

static void ranking(void)
{
	double us[4] = {3, 1, 2, 1.05};
	int order[4];
	ok(model_rank(us, 4, 0.1, order) == 1 && order[0] == 1 && order[1] == 3 && order[2] == 2 && order[3] == 0,
	   "rank: fastest first; runner-up within 10%%: unsure");
	ok(model_rank(us, 4, 0.01, order) == 0, "... not within 1%%: sure");
	ok(model_rank(us, 1, 0.5, order) == 0 && order[0] == 0, "one candidate: sure");
	double tie[2] = {2, 2};
	model_rank(tie, 2, 0, order);
	ok(order[0] == 0 && order[1] == 1, "ties keep their order");
	model_kernel k = kern(F32_VEC, 0);
	model_features f = feat(&k, (model_problem){.es = 4, .rows = 4096, .cols = 4096});
	model_estimate e;
	model_estimate_of(model_params_builtin(), &k, &f, &e);
	double sum = 0;
	for (int i = 0; i < MF_N; i++)
		sum += e.contrib[i];
	ok(e.us > 0 && near(sum, e.us), "an estimate is the sum of its contributions");
}

/* Which problems are the identity on memory (planned as a copy), and which not. */
static void copies(void)
{
	char err[256], why[256];
	struct {
		model_problem p;
		int copy;
		const char *why;
	} cases[] = {
		{{.es = 4, .rows = 1, .cols = 1000}, 1, "one row and ld_out 1: out[k] = in[k] for all 1000 elements"},
		{{.es = 2, .rows = 1000, .cols = 1}, 1, "one column and ld_in 1"},
		{{.es = 16, .rows = 1, .cols = 1}, 1, "a single element: out[k] = in[k] for all 1 elements"},
		{{.es = 1, .rows = 1, .cols = 1, .ld_in = 5, .ld_out = 7}, 1, "a single element"},
		/* one row: its padding is never read, the output side is what strides */
		{{.es = 4, .rows = 1, .cols = 100, .ld_in = 128}, 1, "one row and ld_out 1"},
		{{.es = 4, .rows = 1, .cols = 100, .ld_out = 2}, 0, "one row, but ld_out 2 spreads it out"},
		{{.es = 4, .rows = 100, .cols = 1, .ld_in = 3}, 0, "one column, but ld_in 3 spreads it out"},
		{{.es = 4, .rows = 100, .cols = 1, .ld_out = 128}, 1, "one column and ld_in 1"},
		{{.es = 8, .rows = 2, .cols = 2}, 0, "2 rows and 2 columns"},
		{{.es = 4, .rows = 7, .cols = 1000}, 0, "7 rows and 1000 columns"},
		{{.es = 4, .rows = 1, .cols = 64, .batch = 5}, 1, "one row and ld_out 1, the batch packed: out[k] = in[k] for all 320"},
		{{.es = 4, .rows = 64, .cols = 1, .batch = 3, .stride_in = 64, .stride_out = 64}, 1, "the batch packed"},
		{{.es = 4, .rows = 1, .cols = 64, .batch = 5, .stride_in = 65}, 0,
		 "one row and ld_out 1, but the batch's strides (65, 64) leave gaps"},
		{{.es = 4, .rows = 64, .cols = 1, .batch = 2, .stride_out = 70}, 0, "strides (64, 70) leave gaps"},
		/* a padded row makes the dense default stride leave a gap */
		{{.es = 4, .rows = 1, .cols = 100, .ld_in = 128, .batch = 2}, 0, "strides (128, 100) leave gaps"},
		{{.es = 4, .rows = 1, .cols = 1, .batch = 4, .stride_in = 2}, 0, "a single element, but the batch's strides (2, 1)"},
		{{.es = 4, .rows = 1, .cols = 1, .batch = 4}, 1, "a single element, the batch packed"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (model_problem_check(&cases[i].p, err, sizeof err)) {
			ok(0, "copy case %zu: %s", i, err);
			continue;
		}
		why[0] = '\0';
		int c = model_problem_is_copy(&cases[i].p, why, sizeof why);
		ok(c == cases[i].copy, "copy case %zu (%llux%llu): %s", i, (unsigned long long)cases[i].p.rows,
		   (unsigned long long)cases[i].p.cols, c ? "a copy" : "no copy");
		has_str(why, cases[i].why, "... and why");
	}
}

/* Which table a device gets (lib/model_choice.c): by a word of its name and
 * its compute capability; anything else the H100's, said to be the fallback. */
static void choice(void)
{
	model_params p;
	char err[256];
	ok(model_params_parse(model_params_h200_tsv, &p, err, sizeof err) == 0 && p.cases > 0,
	   "the embedded lib/model_params_h200.tsv parses and says how many cases it was fitted on");
	model_params_free(&p);
	model_choice c;
	model_params_choose("NVIDIA H200", 9, 0, 132, &c);
	ok(!strcmp(c.id, "H200") && !c.fallback && !strcmp(c.params->name, "H200") &&
	   !strcmp(c.file, "lib/model_params_h200.tsv") && c.params != model_params_builtin(), "an H200: the H200's table");
	ok(strstr(c.label, "H200 (lib/model_params_h200.tsv, built in; fitted from ") == c.label &&
	   strstr(c.label, "132 SMs as fitted"), "... and its label says so: %s", c.label);
	model_params_choose("NVIDIA H200 NVL", 9, 0, 132, &c);
	ok(!strcmp(c.id, "H200"), "an H200 NVL: the H200's");
	model_params_choose("NVIDIA H100 80GB HBM3", 9, 0, 132, &c);
	ok(!strcmp(c.id, "H100") && !c.fallback && c.params == model_params_builtin(), "an H100: the H100's table");
	model_params_choose("NVIDIA H100 PCIe", 9, 0, 114, &c);
	ok(!strcmp(c.id, "H100") && !c.fallback && strstr(c.why, "114 SMs, fitted on 132"),
	   "an H100 PCIe: the H100's, its SM count said: %s", c.why);
	model_params_choose("NVIDIA A100-SXM4-80GB", 8, 0, 108, &c);
	ok(!strcmp(c.id, "H100") && c.fallback && strstr(c.why, "no model fitted for 'NVIDIA A100-SXM4-80GB' (cc 8.0)") &&
	   strstr(c.label, "the fallback"), "an unknown device: the H100's, the fallback, its name said: %s", c.why);
	model_params_choose("NVIDIA GH200 480GB", 9, 0, 132, &c);
	ok(c.fallback, "GH200 is not an H200 (a word of the name, not a part of one)");
	model_params_choose("NVIDIA H200", 10, 0, 132, &c);
	ok(c.fallback, "a name with H200 on another compute capability: the fallback");
	model_device d = dev();
	ok(model_params_for(&d) == model_params_builtin(), "model_params_for: the built-in h100's");
	char e2[256];
	ok(!model_device_builtin("h200", &d, e2, sizeof e2) && model_params_for(&d) != model_params_builtin() &&
	   !strcmp(model_params_for(&d)->name, "H200"), "... the built-in h200's: the H200's");
}

int main(void)
{
	problems();
	desc_problem();
	copies();
	params();
	choice();
	kernels();
	tiles_and_paths();
	realign_and_batches();
	linear_and_occupancy();
	ranking();
	return tap_done();
}
