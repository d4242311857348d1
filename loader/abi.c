/* abi: kernel ABI v2's, v3's and v4's parameter lists (abi.h), as tables
 * and as text, v3's batch records and v4's tile records. */
#include "loader/abi.h"

#include <stdio.h>
#include <string.h>

#define ABI_BYTES_(name, ptx, bytes, what) bytes,
const unsigned abi_bytes[ABI_NPARAMS_V4] = {ABI_PARAMS_V4(ABI_BYTES_)};
#define ABI_NAME_(name, ptx, bytes, what) #name,
const char *const abi_names[ABI_NPARAMS_V4] = {ABI_PARAMS_V4(ABI_NAME_)};
#define ABI_PTX_(name, ptx, bytes, what) #ptx,
static const char *const abi_ptx[ABI_NPARAMS_V4] = {ABI_PARAMS_V4(ABI_PTX_)};

/* abi_args has a field of the right width for each entry */
#define ABI_CHECK_(name, ptx, bytes, what) _Static_assert(sizeof(((abi_args *)0)->name) == bytes, #name);
ABI_PARAMS_V4(ABI_CHECK_)
_Static_assert(ABI_BDIM_STRIDE_OUT + 8 == ABI_BDIM_BYTES, "a record is 32 bytes");

int abi_nparams(int version)
{
	if (version == ABI_VERSION)
		return ABI_NPARAMS;
	if (version == ABI_VERSION_V3)
		return ABI_NPARAMS_V3;
	return version == ABI_VERSION_V4 ? ABI_NPARAMS_V4 : 0;
}

void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS_V4])
{
	int k = 0;
#define ABI_PTR_(name, ptx, bytes, what) ptrs[k++] = &a->name;
	ABI_PARAMS_V4(ABI_PTR_)
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

/* order[] = the dims sorted by key (stable: ties keep the given order). */
static void tdims_sort(unsigned n, const abi_tdim *d, int by_out, unsigned order[ABI_TDIMS])
{
	for (unsigned i = 0; i < n; i++) {
		unsigned j = i;
		int64_t key = by_out ? d[i].s_out : d[i].s_in;
		for (; j > 0; j--) {
			const abi_tdim *o = &d[order[j - 1]];
			if ((by_out ? o->s_out : o->s_in) <= key)
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
}

/* The refusals of abi_tdims_fill, one line in err; 0 when d is a tile. */
static int tdims_check(unsigned n, const abi_tdim *d, unsigned es, char *err, size_t errlen)
{
	uint64_t span_in = 0, span_out = 0, vol = 1;
	unsigned nsplit = 0;
	if (n < 1 || n > ABI_TDIMS) {
		snprintf(err, errlen, "tdims: %u tile dims (1 to %d)", n, ABI_TDIMS);
		return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		if (!d[k].ext || d[k].full < d[k].ext) {
			snprintf(err, errlen, "tdims: dim %u has tile extent %u of %u", k, d[k].ext, d[k].full);
			return -1;
		}
		if (d[k].s_in < 0 || d[k].s_out < 0) {
			snprintf(err, errlen, "tdims: dim %u has strides %lld and %lld (negative)", k,
				 (long long)d[k].s_in, (long long)d[k].s_out);
			return -1;
		}
		if (d[k].full > d[k].ext && (++nsplit > 2 || d[k].ext > ABI_TSPLIT_MAX)) {
			snprintf(err, errlen, nsplit > 2 ? "tdims: more than 2 dims split"
							 : "tdims: split dim %u has tile extent %u (at most 65534)",
				 k, d[k].ext);
			return -1;
		}
		/* a dim of extent 2 or more: its stride times es below 2^31, so each term
		 * is below 2^32 * 2^31 * 16 and the sums stop at the first past 2^31 */
		uint64_t smax = ((UINT64_C(1) << 31) - 1) / (es ? es : 1); /* no product that can wrap */
		if (d[k].ext > 1 && ((uint64_t)d[k].s_in > smax || (uint64_t)d[k].s_out > smax)) {
			snprintf(err, errlen, "tdims: dim %u has strides %lld and %lld elements of %u bytes (a tile "
					      "offset stays below 2^31 bytes)", k, (long long)d[k].s_in, (long long)d[k].s_out, es);
			return -1;
		}
		span_in += (uint64_t)(d[k].ext - 1) * (uint64_t)d[k].s_in * es;
		span_out += (uint64_t)(d[k].ext - 1) * (uint64_t)d[k].s_out * es;
		vol *= d[k].ext;
		if (span_in >= (UINT64_C(1) << 31) || span_out >= (UINT64_C(1) << 31) ||
		    vol * es >= (UINT64_C(1) << 31)) {
			snprintf(err, errlen, "tdims: the tile spans 2^31 bytes or more");
			return -1;
		}
		if (vol > ABI_TVOL_MAX) {
			snprintf(err, errlen, "tdims: the tile has over %u elements", ABI_TVOL_MAX);
			return -1;
		}
	}
	return 0;
}

static void put_trec(uint8_t *r, uint32_t ext, uint64_t stride, uint32_t smem, uint32_t split)
{
	put_le(r + ABI_TR_EXT, ext, 4);
	put_le(r + ABI_TR_STRIDE, stride, 4);
	put_le(r + ABI_TR_SMEM, smem, 4);
	put_le(r + ABI_TR_SPLIT, split, 4);
}

int abi_tdims_fill(unsigned n, const abi_tdim *d, unsigned es, uint8_t out[ABI_TDIMS_BYTES], uint32_t *vol,
		   char *err, size_t errlen)
{
	if (tdims_check(n, d, es, err, errlen))
		return -1;
	unsigned oin[ABI_TDIMS], oout[ABI_TDIMS], split[ABI_TDIMS], nsplit = 0;
	uint32_t smem[ABI_TDIMS], v = es, full[2] = {0, 0}, ext[2] = {0, 0};
	tdims_sort(n, d, 0, oin);
	tdims_sort(n, d, 1, oout);
	for (unsigned k = 0; k < n; k++) {
		split[k] = 0;
		if (d[k].full > d[k].ext)
			full[nsplit] = d[k].full, ext[nsplit] = d[k].ext, split[k] = ++nsplit;
	}
	for (unsigned k = 0; k < n; k++) /* the shared copy is in the output's order */
		smem[oout[k]] = v, v *= d[oout[k]].ext;
	memset(out, 0, ABI_TDIMS_BYTES);
	put_le(out + ABI_TD_VOL, v / es, 4);
	put_le(out + ABI_TD_N, n, 4);
	put_le(out + ABI_TD_NSPLIT, nsplit, 4);
	for (unsigned k = 0; k < 2; k++) {
		put_le(out + ABI_TD_SPLIT_FULL + 4 * k, full[k], 4);
		put_le(out + ABI_TD_SPLIT_EXT + 4 * k, ext[k], 4);
	}
	for (unsigned k = 0; k < ABI_TDIMS; k++) {
		uint8_t *ri = out + ABI_TD_IN + k * ABI_TD_REC, *ro = out + ABI_TD_OUT + k * ABI_TD_REC;
		if (k >= n) {
			put_trec(ri, 1, 0, 0, 0);
			put_trec(ro, 1, 0, 0, 0);
			continue;
		}
		const abi_tdim *a = &d[oin[k]], *b = &d[oout[k]];
		put_trec(ri, a->ext, a->ext > 1 ? (uint64_t)a->s_in * es : 0, smem[oin[k]], split[oin[k]]);
		put_trec(ro, b->ext, b->ext > 1 ? (uint64_t)b->s_out * es : 0, 0, split[oout[k]]);
	}
	if (vol)
		*vol = v / es;
	return 0;
}
