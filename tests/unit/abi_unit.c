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
	ok(abi_nparams(2) == 9 && abi_nparams(3) == 10 && abi_nparams(4) == 0, "v2 has 9 parameters, v3 10");
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
	void *p[ABI_NPARAMS_V3];
	abi_pointers(&a, p);
	ok(p[9] == (void *)a.bdims && ((uintptr_t)a.bdims & 7) == 0, "the 10th pointer is bdims, 8-byte aligned");
}

int main(void)
{
	test_decode();
	test_fill();
	test_lists();
	return tap_done();
}
