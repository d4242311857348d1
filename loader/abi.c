/* abi: kernel ABI v2's and v3's parameter lists (abi.h), as tables and as
 * text, and v3's batch records. */
#include "loader/abi.h"

#include <stdio.h>
#include <string.h>

#define ABI_BYTES_(name, ptx, bytes, what) bytes,
const unsigned abi_bytes[ABI_NPARAMS_V3] = {ABI_PARAMS_V3(ABI_BYTES_)};
#define ABI_NAME_(name, ptx, bytes, what) #name,
const char *const abi_names[ABI_NPARAMS_V3] = {ABI_PARAMS_V3(ABI_NAME_)};
#define ABI_PTX_(name, ptx, bytes, what) #ptx,
static const char *const abi_ptx[ABI_NPARAMS_V3] = {ABI_PARAMS_V3(ABI_PTX_)};

/* abi_args has a field of the right width for each entry */
#define ABI_CHECK_(name, ptx, bytes, what) _Static_assert(sizeof(((abi_args *)0)->name) == bytes, #name);
ABI_PARAMS_V3(ABI_CHECK_)
_Static_assert(ABI_BDIM_STRIDE_OUT + 8 == ABI_BDIM_BYTES, "a record is 32 bytes");

int abi_nparams(int version)
{
	return version == ABI_VERSION ? ABI_NPARAMS : version == ABI_VERSION_V3 ? ABI_NPARAMS_V3 : 0;
}

void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS_V3])
{
	int k = 0;
#define ABI_PTR_(name, ptx, bytes, what) ptrs[k++] = &a->name;
	ABI_PARAMS_V3(ABI_PTR_)
}

void abi_values(const abi_args *a, uint64_t vals[ABI_NPARAMS])
{
	int k = 0;
#define ABI_VAL_(name, ptx, bytes, what) vals[k++] = a->name;
	ABI_PARAMS(ABI_VAL_)
}

/* "b8" of more than one byte is an aligned byte array: ".align 8 .b8 NAME[N]". */
static int is_array(int k) { return abi_bytes[k] > 1 && !strcmp(abi_ptx[k], "b8"); }

const char *abi_ptx_params(int version, char *buf, size_t n)
{
	size_t used = 0;
	int np = abi_nparams(version);
	if (!np || !n)
		return NULL;
	buf[0] = '\0';
	for (int k = 0; k < np; k++) {
		char dim[16] = "";
		if (is_array(k))
			snprintf(dim, sizeof dim, "[%u]", abi_bytes[k]);
		int w = snprintf(buf + used, n - used, "\t.param %s.%s param_%s%s%s\n", is_array(k) ? ".align 8 " : "",
				 abi_ptx[k], abi_names[k], dim, k + 1 < np ? "," : "");
		if (w < 0 || (size_t)w >= n - used)
			return NULL;
		used += (size_t)w;
	}
	return buf;
}

const char *abi_describe(int version, char *buf, size_t n)
{
	size_t used = 0;
	int np = abi_nparams(version);
	buf[0] = '\0';
	for (int k = 0; k < np && used < n; k++) {
		char dim[16] = "";
		if (is_array(k))
			snprintf(dim, sizeof dim, "[%u]", abi_bytes[k]);
		int w = snprintf(buf + used, n - used, "%s.%s %s%s%s", k ? "" : "(", abi_ptx[k], abi_names[k], dim,
				 k + 1 < np ? ", " : ")");
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

/* Why the decode is exact (Granlund and Montgomery's bound, for N = 31).
 * Let d = extent >= 2, l = ceil(log2 d), s = 31 + l, m = ceil(2^s / d), so
 * m*d = 2^s + e with 0 <= e < d. For b < 2^31 write b = q*d + r, r <= d-1:
 *   b*m / 2^s = b/d + b*e / (d * 2^s),  and  b*e / (d * 2^s) < 2^31 * d /
 *   (d * 2^(31+l)) = 2^-l <= 1/d  (as d <= 2^l);
 * so q <= b*m / 2^s < q + (d-1)/d + 1/d = q + 1: the floor is q. The
 * product fits in 64 bits: m <= 2^s/d + 1 < 2^32 + 1 (2^l < 2d), so
 * b*m < 2^31 * 2^32 = 2^63. The shift is at most 62. Extent 1 takes
 * magic 1, shift 0 (q = b). tests/unit/abi_unit.c checks it on every b
 * for small extents and at the edges up to 2^31-1. */
void abi_bdim_magic(uint32_t extent, uint64_t *magic, uint32_t *shift)
{
	if (extent <= 1) {
		*magic = 1, *shift = 0;
		return;
	}
	uint32_t l = 0;
	while ((UINT64_C(1) << l) < extent)
		l++;
	*shift = 31 + l;
	*magic = ((UINT64_C(1) << *shift) + extent - 1) / extent;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_record(uint8_t *r, uint32_t extent, uint64_t s_in, uint64_t s_out)
{
	uint64_t magic;
	uint32_t shift;
	abi_bdim_magic(extent, &magic, &shift);
	put_le(r + ABI_BDIM_MAGIC, magic, 8);
	put_le(r + ABI_BDIM_SHIFT, shift, 4);
	put_le(r + ABI_BDIM_EXTENT, extent, 4);
	put_le(r + ABI_BDIM_STRIDE_IN, extent > 1 ? s_in : 0, 8);
	put_le(r + ABI_BDIM_STRIDE_OUT, extent > 1 ? s_out : 0, 8);
}

int abi_bdims_fill(unsigned n, const uint64_t *ext, const int64_t *s_in, const int64_t *s_out,
		   uint8_t out[ABI_BDIMS_BYTES], uint32_t *batch)
{
	uint64_t prod = 1;
	if (n > ABI_BDIMS)
		return -1;
	for (unsigned k = 0; k < n; k++) {
		if (!ext[k] || ext[k] >= (UINT64_C(1) << 31))
			return -1;
		prod *= ext[k]; /* both below 2^31: no wrap */
		if (prod >= (UINT64_C(1) << 31))
			return -1;
	}
	for (unsigned k = 0; k < ABI_BDIMS; k++) { /* record k: dimension n-1-k, the fastest first */
		uint8_t *r = out + (size_t)k * ABI_BDIM_BYTES;
		if (k < n)
			put_record(r, (uint32_t)ext[n - 1 - k], (uint64_t)s_in[n - 1 - k], (uint64_t)s_out[n - 1 - k]);
		else
			put_record(r, 1, 0, 0);
	}
	if (batch)
		*batch = (uint32_t)prod;
	return 0;
}

void abi_bdims_v2(abi_args *a)
{
	put_record(a->bdims, a->batch, a->stride_in, a->stride_out);
	for (unsigned k = 1; k < ABI_BDIMS; k++)
		put_record(a->bdims + (size_t)k * ABI_BDIM_BYTES, 1, 0, 0);
}
