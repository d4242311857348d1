/* Unit tests of loader/abi.c: kernel ABI v3's batch records. The decode the
 * kernels do, q = (b * magic) >> shift in 64 bits, is b / extent exactly:
 * for every b below 2^16 and every extent to 300, and at the top of the
 * range (b up to 2^31-1, multiples of the extent and their neighbours) for
 * extents up to 2^31-1; abi_bdims_fill's records (order, neutral ones,
 * refusals); the parameter lists as PTX and as text. */
#include <stdlib.h>
#include <string.h>

#include "loader/abi.h"
#include "tests/unit/tap.h"

#define TOP ((UINT64_C(1) << 31) - 1)

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The kernel's decode of b by extent e: 0 when exact, else prints the first miss. */
static int decode_ok(uint32_t e, uint64_t b, uint64_t magic, uint32_t shift)
{
	uint64_t q = (b * magic) >> shift;
	if (q == b / e && b - q * e < e)
		return 1;
	printf("# extent %u, b %llu: q %llu, want %llu (magic %llu, shift %u)\n", e, (unsigned long long)b,
	       (unsigned long long)q, (unsigned long long)(b / e), (unsigned long long)magic, shift);
	return 0;
}

/* b near the top of the range and near multiples of e there. */
static int edges_ok(uint32_t e)
{
	uint64_t magic;
	uint32_t shift;
	abi_bdim_magic(e, &magic, &shift);
	if (shift > 63 || magic > (UINT64_C(1) << 32))
		return 0;
	for (uint64_t b = TOP - 256; b <= TOP; b++)
		if (!decode_ok(e, b, magic, shift))
			return 0;
	for (uint64_t m = TOP / e, k = 0; m > 0 && k < 64; m--, k++)
		for (uint64_t b = m * e - 1; b <= m * e + 1 && b <= TOP; b++)
			if (!decode_ok(e, b, magic, shift))
				return 0;
	return 1;
}

static void test_decode(void)
{
	int good = 1;
	for (uint32_t e = 1; e <= 300 && good; e++) {
		uint64_t magic;
		uint32_t shift;
		abi_bdim_magic(e, &magic, &shift);
		for (uint64_t b = 0; b < (1u << 16) && good; b++)
			good = decode_ok(e, b, magic, shift);
	}
	ok(good, "every b below 2^16, every extent 1 to 300: q = (b*magic) >> shift is b / extent");
	good = 1;
	for (uint32_t e = 1; e <= 4096 && good; e++)
		good = edges_ok(e);
	ok(good, "extents 1 to 4096: b at the top of the range (to 2^31-1) and around multiples of the extent there");
	static const uint32_t big[] = {65535, 65536, 65537, 1000003, (1u << 30) - 1, 1u << 30, (1u << 30) + 1,
				       (1u << 31) - 2, (1u << 31) - 1};
	good = 1;
	for (size_t i = 0; i < sizeof big / sizeof big[0] && good; i++)
		good = edges_ok(big[i]);
	uint64_t seed = 12345;
	for (int i = 0; i < 2000 && good; i++) { /* random extents, random b */
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t e = (uint32_t)(seed >> 33) % (uint32_t)TOP + 1;
		uint64_t magic;
		uint32_t shift;
		abi_bdim_magic(e, &magic, &shift);
		for (int k = 0; k < 64 && good; k++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			good = decode_ok(e, (seed >> 33) & TOP, magic, shift);
		}
	}
	ok(good, "extents to 2^31-1 (65536 +- 1, 2^30 +- 1, 2^31-1, random): exact at the edges and on random b");
	uint64_t magic;
	uint32_t shift;
	abi_bdim_magic(1, &magic, &shift);
	ok(magic == 1 && shift == 0, "extent 1: magic 1, shift 0");
	abi_bdim_magic(7, &magic, &shift);
	ok(magic == ((UINT64_C(1) << 34) + 6) / 7 && shift == 34, "extent 7: shift 31 + 3, magic ceil(2^34 / 7)");
}

static void test_fill(void)
{
	uint8_t r[ABI_BDIMS_BYTES];
	uint64_t ext[7] = {3, 1, 5, 2, 7, 4, 2};
	int64_t sin[7] = {1000, 77, 100, 50, 7, 1, 3}, sout[7] = {-1, 99, 2000, 400, 30, 100000, 5};
	uint32_t batch = 0;
	ok(!abi_bdims_fill(4, ext, sin, sout, r, &batch) && batch == 30, "4 dims {3,1,5,2}: batch 30");
	int good = 1;
	for (int k = 0; k < ABI_BDIMS; k++) { /* record k: dim 3-k */
		const uint8_t *q = r + k * ABI_BDIM_BYTES;
		uint64_t e = k < 4 ? ext[3 - k] : 1;
		uint64_t magic;
		uint32_t shift;
		abi_bdim_magic((uint32_t)e, &magic, &shift);
		good &= get_le(q + ABI_BDIM_EXTENT, 4) == e && get_le(q + ABI_BDIM_MAGIC, 8) == magic &&
			get_le(q + ABI_BDIM_SHIFT, 4) == shift;
		good &= get_le(q + ABI_BDIM_STRIDE_IN, 8) == (k < 4 && e > 1 ? (uint64_t)sin[3 - k] : 0);
		good &= get_le(q + ABI_BDIM_STRIDE_OUT, 8) == (k < 4 && e > 1 ? (uint64_t)sout[3 - k] : 0);
	}
	ok(good, "records fastest first, little-endian; extent-1 and unused records neutral (magic 1, shift 0, strides 0)");
	/* decoding every b with the records gives the row-major offsets */
	good = 1;
	for (uint32_t b = 0; b < batch && good; b++) {
		uint64_t rest = b, oi = 0, oo = 0;
		for (int k = 0; k < ABI_BDIMS; k++) {
			const uint8_t *q = r + k * ABI_BDIM_BYTES;
			uint64_t quot = (rest * get_le(q, 8)) >> get_le(q + ABI_BDIM_SHIFT, 4);
			uint64_t dig = rest - quot * get_le(q + ABI_BDIM_EXTENT, 4);
			oi += dig * get_le(q + ABI_BDIM_STRIDE_IN, 8);
			oo += dig * get_le(q + ABI_BDIM_STRIDE_OUT, 8);
			rest = quot;
		}
		uint32_t i0 = b / 10, i2 = b / 2 % 5, i3 = b % 2; /* {3,1,5,2}, row-major */
		good = oi == i0 * 1000u + i2 * 100u + i3 * 50u && oo == (uint64_t)(-(int64_t)i0) + i2 * 2000u + i3 * 400u;
	}
	ok(good, "the records decode each matrix 0..29 to its row-major offsets (a negative stride wraps as it should)");
	memset(r, 0xee, sizeof r);
	ok(abi_bdims_fill(7, ext, sin, sout, r, &batch) == -1 && r[0] == 0xee, "7 dims: refused, nothing written");
	uint64_t zero[2] = {3, 0}, big[2] = {1u << 16, 1u << 15}, over[1] = {UINT64_C(1) << 31};
	ok(abi_bdims_fill(2, zero, sin, sout, r, NULL) == -1, "an extent of 0: refused");
	ok(abi_bdims_fill(2, big, sin, sout, r, NULL) == -1, "2^16 x 2^15 = 2^31 matrices: refused");
	ok(abi_bdims_fill(1, over, sin, sout, r, NULL) == -1, "an extent of 2^31: refused");
	uint64_t most[2] = {(1u << 16) - 1, 1u << 15};
	ok(!abi_bdims_fill(2, most, sin, sout, r, &batch) && batch == ((1u << 16) - 1) * (1u << 15),
	   "(2^16-1) x 2^15 matrices: taken");
	ok(!abi_bdims_fill(0, ext, sin, sout, r, &batch) && batch == 1 && get_le(r + ABI_BDIM_EXTENT, 4) == 1,
	   "no dims: one matrix, every record neutral");
	abi_args a = {.batch = 9, .stride_in = 123, .stride_out = 456};
	abi_bdims_v2(&a);
	ok(get_le(a.bdims + ABI_BDIM_EXTENT, 4) == 9 && get_le(a.bdims + ABI_BDIM_STRIDE_IN, 8) == 123 &&
	   get_le(a.bdims + ABI_BDIM_STRIDE_OUT, 8) == 456 &&
	   get_le(a.bdims + ABI_BDIM_BYTES + ABI_BDIM_EXTENT, 4) == 1, "abi_bdims_v2: v2's one dimension as record 0");
}

static void test_lists(void)
{
	char buf[1024];
	ok(abi_nparams(2) == 9 && abi_nparams(3) == 10 && abi_nparams(4) == 11 && abi_nparams(5) == 0,
	   "v2 has 9 parameters, v3 10, v4 11");
	const char *v4 = abi_ptx_params(4, buf, sizeof buf);
	ok(v4 && strstr(v4, "param_bdims[192],\n\t.param .align 8 .b8 param_tdims[224]\n"),
	   "v4 as PTX: v3's list, then .param .align 8 .b8 param_tdims[224]");
	ok(strstr(abi_describe(4, buf, sizeof buf), ".b8 bdims[192], .b8 tdims[224])") != NULL, "v4 described");
	const char *v3 = abi_ptx_params(3, buf, sizeof buf);
	ok(v3 && strstr(v3, "\t.param .u64 param_stride_out,\n\t.param .align 8 .b8 param_bdims[192]\n") &&
	   !strstr(v3, "bdims[192],"), "v3 as PTX: v2's list, then .param .align 8 .b8 param_bdims[192]");
	const char *v2 = abi_ptx_params(2, buf, sizeof buf);
	ok(v2 && !strstr(v2, "bdims") && strstr(v2, "param_stride_out\n"), "v2 as PTX: no bdims, the last without a comma");
	ok(!abi_ptx_params(3, buf, 100) && !abi_ptx_params(1, buf, sizeof buf), "too small a buffer, or ABI 1: NULL");
	is_str(abi_describe(3, buf, sizeof buf),
	       "(.u64 in, .u64 out, .u32 rows, .u32 cols, .u32 ld_in, .u32 ld_out, .u32 batch, .u64 stride_in, "
	       ".u64 stride_out, .b8 bdims[192])", "v3 described");
	abi_args a;
	void *p[ABI_NPARAMS_V4];
	abi_pointers(&a, p);
	ok(p[9] == (void *)a.bdims && ((uintptr_t)a.bdims & 7) == 0, "the 10th pointer is bdims, 8-byte aligned");
	ok(p[10] == (void *)a.tdims && ((uintptr_t)a.tdims & 7) == 0, "the 11th pointer is tdims, 8-byte aligned");
}

/* One record of tdims: list 0 (in) or 1 (out), index k, field f. */
static uint32_t trec(const uint8_t *t, int list, unsigned k, unsigned f)
{
	return (uint32_t)get_le(t + (list ? ABI_TD_OUT : ABI_TD_IN) + k * ABI_TD_REC + f, 4);
}

static void test_tdims(void)
{
	uint8_t t[ABI_TDIMS_BYTES];
	char e[160];
	uint32_t vol = 0;
	/* a 3-d tile of 4-byte elements: dims {ext, full, s_in, s_out} in the given order */
	abi_tdim d[3] = {{5, 5, 1, 12}, {3, 7, 40, 1}, {4, 4, 5, 3}};
	ok(!abi_tdims_fill(3, d, 4, t, &vol, e, sizeof e) && vol == 60, "3 dims 5x3x4: vol 60");
	ok(get_le(t + ABI_TD_VOL, 4) == 60 && get_le(t + ABI_TD_N, 4) == 3 && get_le(t + ABI_TD_NSPLIT, 4) == 1 &&
		   get_le(t + ABI_TD_SPLIT_FULL, 4) == 7 && get_le(t + ABI_TD_SPLIT_EXT, 4) == 3 &&
		   get_le(t + ABI_TD_SPLIT_FULL + 4, 4) == 0 && get_le(t + ABI_TD_SPLIT_EXT + 4, 4) == 0,
	   "header: vol, n, one split of 3 of 7");
	/* in order by s_in: d0 (1), d2 (5), d1 (40); out order by s_out: d1 (1), d2 (3), d0 (12) */
	ok(trec(t, 0, 0, ABI_TR_EXT) == 5 && trec(t, 0, 1, ABI_TR_EXT) == 4 && trec(t, 0, 2, ABI_TR_EXT) == 3,
	   "in-list sorted by the input's strides");
	ok(trec(t, 0, 0, ABI_TR_STRIDE) == 4 && trec(t, 0, 1, ABI_TR_STRIDE) == 20 && trec(t, 0, 2, ABI_TR_STRIDE) == 160,
	   "... strides in bytes");
	ok(trec(t, 1, 0, ABI_TR_EXT) == 3 && trec(t, 1, 1, ABI_TR_EXT) == 4 && trec(t, 1, 2, ABI_TR_EXT) == 5 &&
		   trec(t, 1, 0, ABI_TR_STRIDE) == 4 && trec(t, 1, 1, ABI_TR_STRIDE) == 12 &&
		   trec(t, 1, 2, ABI_TR_STRIDE) == 48,
	   "out-list sorted by the output's strides, in bytes");
	/* shared copy in the output's order: d1 at 4, d2 at 4*3 = 12, d0 at 12*4 = 48 */
	ok(trec(t, 0, 0, ABI_TR_SMEM) == 48 && trec(t, 0, 1, ABI_TR_SMEM) == 12 && trec(t, 0, 2, ABI_TR_SMEM) == 4,
	   "smem offsets from the output's order");
	ok(trec(t, 1, 1, ABI_TR_SMEM) == 0, "... 0 in the out-list");
	ok(trec(t, 0, 2, ABI_TR_SPLIT) == 1 && trec(t, 1, 0, ABI_TR_SPLIT) == 1 && trec(t, 0, 0, ABI_TR_SPLIT) == 0 &&
		   trec(t, 1, 2, ABI_TR_SPLIT) == 0,
	   "the split dim is split 1+0 in both lists");
	int neutral = 1;
	for (unsigned k = 3; k < ABI_TDIMS; k++)
		for (int l = 0; l < 2; l++)
			neutral &= trec(t, l, k, ABI_TR_EXT) == 1 && !trec(t, l, k, ABI_TR_STRIDE) &&
				    !trec(t, l, k, ABI_TR_SMEM) && !trec(t, l, k, ABI_TR_SPLIT);
	ok(neutral, "records past n: ext 1, the rest 0");
	/* ties keep the given order; two splits numbered in the given order */
	abi_tdim s2[3] = {{2, 2, 0, 0}, {8, 9, 3, 5}, {6, 100, 3, 5}};
	ok(!abi_tdims_fill(3, s2, 1, t, NULL, e, sizeof e) && get_le(t + ABI_TD_NSPLIT, 4) == 2 &&
		   get_le(t + ABI_TD_SPLIT_FULL, 4) == 9 && get_le(t + ABI_TD_SPLIT_EXT, 4) == 8 &&
		   get_le(t + ABI_TD_SPLIT_FULL + 4, 4) == 100 && get_le(t + ABI_TD_SPLIT_EXT + 4, 4) == 6,
	   "two splits: 0 is the first given, 1 the second");
	ok(trec(t, 0, 1, ABI_TR_EXT) == 8 && trec(t, 0, 1, ABI_TR_SPLIT) == 1 && trec(t, 0, 2, ABI_TR_SPLIT) == 2 &&
		   trec(t, 1, 1, ABI_TR_SPLIT) == 1 && trec(t, 1, 2, ABI_TR_SPLIT) == 2,
	   "... equal strides keep the given order");
	abi_tdim one[1] = {{1, 1, 7, 9}};
	ok(!abi_tdims_fill(1, one, 16, t, &vol, e, sizeof e) && vol == 1 && trec(t, 0, 0, ABI_TR_STRIDE) == 0 &&
		   trec(t, 0, 0, ABI_TR_SMEM) == 16,
	   "one dim of extent 1: vol 1, strides 0, smem the element's bytes");
	/* refusals: t untouched, one line */
	memset(t, 0xee, sizeof t);
	ok(abi_tdims_fill(0, d, 4, t, NULL, e, sizeof e) == -1 && strstr(e, "0 tile dims"), "0 dims: refused ('%s')", e);
	abi_tdim seven[7] = {{1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0},
			     {1, 1, 0, 0}};
	ok(abi_tdims_fill(7, seven, 4, t, NULL, e, sizeof e) == -1, "7 dims: refused ('%s')", e);
	abi_tdim zero[1] = {{0, 0, 1, 1}}, over[1] = {{5, 4, 1, 1}};
	ok(abi_tdims_fill(1, zero, 4, t, NULL, e, sizeof e) == -1 && strstr(e, "tile extent 0"), "extent 0: refused ('%s')",
	   e);
	ok(abi_tdims_fill(1, over, 4, t, NULL, e, sizeof e) == -1, "tile extent over the full one: refused ('%s')", e);
	abi_tdim neg[2] = {{2, 2, 1, 2}, {2, 2, 2, -1}};
	ok(abi_tdims_fill(2, neg, 4, t, NULL, e, sizeof e) == -1 && strstr(e, "negative"), "a negative stride: refused ('%s')",
	   e);
	abi_tdim three[3] = {{2, 3, 1, 1}, {2, 3, 2, 2}, {2, 3, 4, 4}};
	ok(abi_tdims_fill(3, three, 4, t, NULL, e, sizeof e) == -1 && strstr(e, "more than 2"), "3 splits: refused ('%s')",
	   e);
	abi_tdim wide[1] = {{65535, 70000, 1, 1}}, widest[1] = {{32768, 70000, 1, 1}};
	ok(abi_tdims_fill(1, wide, 1, t, NULL, e, sizeof e) == -1 && strstr(e, "65535"), "a split of 65535: refused ('%s')",
	   e);
	abi_tdim span[2] = {{2, 2, 1, 1}, {2, 2, 1u << 29, 1}};
	ok(abi_tdims_fill(2, span, 4, t, NULL, e, sizeof e) == -1 && strstr(e, "2^31"), "2^31 input bytes: refused ('%s')",
	   e);
	abi_tdim span_out[1] = {{3, 3, 1, 1u << 29}};
	ok(abi_tdims_fill(1, span_out, 2, t, NULL, e, sizeof e) == -1, "2^31 output bytes: refused ('%s')", e);
	ok(t[0] == 0xee && t[ABI_TDIMS_BYTES - 1] == 0xee, "... nothing written");
	abi_tdim big[2] = {{256, 256, 1, 256}, {129, 129, 256, 1}};
	ok(abi_tdims_fill(2, big, 1, t, NULL, e, sizeof e) == -1 && strstr(e, "over 32768 elements"),
	   "a vol of 33024: refused ('%s')", e);
	ok(t[0] == 0xee, "... nothing written");
	ok(!abi_tdims_fill(1, widest, 1, t, NULL, e, sizeof e), "a split of 32768 (the largest vol): taken");
	abi_tdim huge[1] = {{17, 17, INT64_C(1) << 60, 1}};
	ok(abi_tdims_fill(1, huge, 16, t, NULL, e, sizeof e) == -1 && strstr(e, "2^31"),
	   "a stride of 2^60 elements (its span would wrap 64 bits): refused ('%s')", e);
	abi_tdim edge[2] = {{1, 1, 1, 1}, {2, 2, (1u << 29) - 1, 1}};
	ok(!abi_tdims_fill(2, edge, 4, t, NULL, e, sizeof e), "a span of 2^31-4 bytes: taken");
}

int main(void)
{
	test_decode();
	test_fill();
	test_tdims();
	test_lists();
	return tap_done();
}
