/* abi: kernel ABI v2, v3 and v4, the parameter lists ptxpose kernels take,
 * written once (docs/DESIGN.md). gen/ emits them as the entry's .param
 * list, lib/ passes them to cuLaunchKernel, emu/ checks a kernel against
 * them and fills them, and configure.py reads them for the Python benchmark.
 * One line an entry: X(name, PTX type, bytes, what it is); a b8 entry of
 * more than one byte is an 8-byte aligned byte array. Keep the X( lines in
 * this form: configure.py parses them. */
#ifndef LOADER_ABI_H
#define LOADER_ABI_H

#include <stddef.h>
#include <stdint.h>

#define ABI_VERSION 2
#define ABI_PARAMS(X) \
	X(in, u64, 8, "the input's address") \
	X(out, u64, 8, "the output's address") \
	X(rows, u32, 4, "rows of one input matrix") \
	X(cols, u32, 4, "columns of one input matrix") \
	X(ld_in, u32, 4, "elements between input rows") \
	X(ld_out, u32, 4, "elements between output rows") \
	X(batch, u32, 4, "matrices") \
	X(stride_in, u64, 8, "elements between input matrices") \
	X(stride_out, u64, 8, "elements between output matrices")

/* Kernel ABI v3: v2's nine, then the batch's dimensions (the matrices walk
 * up to ABI_BDIMS dimensions, each with its own strides; v2's stride_in and
 * stride_out are unused). */
#define ABI_VERSION_V3 3
#define ABI_PARAMS_V3(X) ABI_PARAMS(X) \
	X(bdims, b8, 192, "the batch's dimensions: 6 records of 32 bytes, the fastest first")

/* The records of bdims. Record k (bytes 32k to 32k+31), little-endian:
 *   u64 magic; u32 shift; u32 extent; u64 stride_in; u64 stride_out
 * (strides in elements, two's complement). Matrix b (b < batch, the
 * product of the extents) is decoded fastest dimension first:
 *   q = (b * magic) >> shift  (64 bits);  digit = b - q * extent;
 *   in += digit * stride_in;  out += digit * stride_out;  b = q
 * A record past the batch's dimensions is neutral: extent 1, magic 1,
 * shift 0, strides 0. abi_bdims_fill writes them. */
#define ABI_BDIMS 6
#define ABI_BDIM_BYTES 32
#define ABI_BDIMS_BYTES (ABI_BDIMS * ABI_BDIM_BYTES)
enum { ABI_BDIM_MAGIC = 0, ABI_BDIM_SHIFT = 8, ABI_BDIM_EXTENT = 12, ABI_BDIM_STRIDE_IN = 16,
       ABI_BDIM_STRIDE_OUT = 24 };

/* Kernel ABI v4: v3's ten, then the tile's dimensions (the "pack" family,
 * cuTT's packed method: a block moves one small sub-tensor, the tile, made
 * of whole or split dims of the reduced problem, through shared memory;
 * the batch records walk the tiles). v2's rows, cols, ld_in, ld_out,
 * stride_in and stride_out are unused; batch is the number of tiles. */
#define ABI_VERSION_V4 4
#define ABI_PARAMS_V4(X) ABI_PARAMS_V3(X) \
	X(tdims, b8, 224, "the tile's dimensions: a header, then 6 records in the input's order and 6 in the output's")

/* The bytes of tdims, little-endian:
 *   header (32 bytes): u32 vol (elements of a whole tile: the product of
 *     the tile extents); u32 n (tile dims, 1 to ABI_TDIMS); u32 nsplit (0 to
 *     2); u32 0; u32 split_full[2] (a split dim's whole extent E); u32
 *     split_ext[2] (its tile extent t, 1 to 65534).
 *   in-list (bytes 32 to 127): 6 records of 16 bytes, the input's fastest
 *     dim first: u32 ext (the tile extent); s32 stride (bytes between the
 *     dim's elements in the input); u32 smem (bytes between them in the
 *     tile's shared copy, which is in the output's order: elem bytes x the
 *     product of the tile extents of the dims faster in the output); u32
 *     split (0, or 1 + which split).
 *   out-list (bytes 128 to 223): 6 records, the output's fastest dim first:
 *     u32 ext; s32 stride (bytes, in the output); u32 0; u32 split.
 * Records past n are neutral: ext 1, the rest 0. Split k (k = 0, 1) is a
 * dim of extent E cut into tiles of t: its tile index is batch record k's
 * digit (abi_bdims_fill's records, the fastest first), so the plan puts the
 * splits' outer dims fastest in the batch, with extent ceil(E/t) and
 * strides t times the dim's; the tile holds min(t, E - digit*t) of it. Every
 * tile offset fits in 31 bits: sum (ext-1) x |stride| < 2^31 on each side.
 * A thread takes linear positions p = tid + k*threads of the tile (k <
 * the kernel's slots), decodes p in the input's order (load: global offset
 * and shared offset) and in the output's order (store: global offset; the
 * shared offset is p x elem bytes). */
#define ABI_TDIMS 6
#define ABI_TDIMS_BYTES 224
#define ABI_TSPLIT_MAX 65534u
/* A tile's vol at most: the kernels divide positions by extents with
 * magic numbers (x / d = mul.hi(2x, ceil(2^31 / d))), exact for x * d <
 * 2^31, which positions and extents of at most 2^15 keep. */
#define ABI_TVOL_MAX 32768u
enum { ABI_TD_VOL = 0, ABI_TD_N = 4, ABI_TD_NSPLIT = 8, ABI_TD_SPLIT_FULL = 16, ABI_TD_SPLIT_EXT = 24,
       ABI_TD_IN = 32, ABI_TD_OUT = 128, ABI_TD_REC = 16 };
enum { ABI_TR_EXT = 0, ABI_TR_STRIDE = 4, ABI_TR_SMEM = 8, ABI_TR_SPLIT = 12 };

/* One tile dim for abi_tdims_fill: its tile extent, its whole extent (==
 * ext unless split), its strides in elements (>= 0). */
typedef struct {
	uint32_t ext, full;
	int64_t s_in, s_out;
} abi_tdim;

/* tdims for n (1 to ABI_TDIMS) tile dims, in any order, of elements of es
 * bytes: the in-list sorted by s_in, the out-list by s_out (ties: the
 * given order), smem offsets from the out-list, splits numbered in the
 * given order (the first dim with full > ext is split 0); a dim of tile
 * extent 1 gets strides 0. 0, or -1 (out untouched, one line in err) when
 * n is out of range, an extent is 0 or over its full extent, a stride
 * negative, more than 2 dims split or a split's ext over ABI_TSPLIT_MAX,
 * the vol over ABI_TVOL_MAX, or a span (either side's, or the shared
 * copy's vol x es) reaches 2^31 bytes. *vol gets the product of the
 * extents, when vol is not NULL. */
int abi_tdims_fill(unsigned n, const abi_tdim *d, unsigned es, uint8_t out[ABI_TDIMS_BYTES], uint32_t *vol,
		   char *err, size_t errlen);

/* The values of one launch, in the list's order and widths (v4's; a v2
 * kernel takes the first ABI_NPARAMS, a v3 kernel the first
 * ABI_NPARAMS_V3). */
typedef struct {
	uint64_t in, out;
	uint32_t rows, cols, ld_in, ld_out, batch;
	uint64_t stride_in, stride_out;
	_Alignas(8) uint8_t bdims[ABI_BDIMS_BYTES];
	_Alignas(8) uint8_t tdims[ABI_TDIMS_BYTES];
} abi_args;

#define ABI_COUNT_(name, ptx, bytes, what) +1
enum { ABI_NPARAMS = 0 ABI_PARAMS(ABI_COUNT_), ABI_NPARAMS_V3 = 0 ABI_PARAMS_V3(ABI_COUNT_),
       ABI_NPARAMS_V4 = 0 ABI_PARAMS_V4(ABI_COUNT_) };

/* Each parameter's bytes, in order (v4's list; v2's is its first
 * ABI_NPARAMS, v3's its first ABI_NPARAMS_V3). */
extern const unsigned abi_bytes[ABI_NPARAMS_V4];
/* Each parameter's name ("in", "ld_out"), in order (v4's list). */
extern const char *const abi_names[ABI_NPARAMS_V4];

/* The number of parameters of ABI `version` (2, 3 or 4); 0 for another. */
int abi_nparams(int version);

/* cuLaunchKernel's kernelParams: pointers into *a, in order (v4's list; the
 * driver reads as many as the kernel has, so a v2 or v3 kernel takes the
 * same). */
void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS_V4]);

/* The scalar values (v2's nine) as 64-bit numbers, in order (the emulator
 * writes each with its width; bdims are bytes). */
void abi_values(const abi_args *a, uint64_t vals[ABI_NPARAMS]);

/* The entry's parameter list of ABI `version` (2, 3 or 4) as PTX (".param
 * .u64 param_in,\n..." with a tab before each), into buf; returns buf, or
 * NULL if n is too small or the version is neither. */
const char *abi_ptx_params(int version, char *buf, size_t n);

/* "(.u64 in, .u64 out, ...)" of ABI `version` for messages, into buf;
 * returns buf. */
const char *abi_describe(int version, char *buf, size_t n);

/* bdims for n batch dimensions given SLOWEST first (row-major order, as
 * lib/nd_reduce.h's nd_reduced.batch): extents 1 to 2^31-1 whose product is below
 * 2^31 (*batch gets it, if not NULL), strides in elements. Writes the
 * records fastest first, the rest neutral. 0, or -1 (out untouched) when n
 * is over ABI_BDIMS, an extent is 0 or the product reaches 2^31. */
int abi_bdims_fill(unsigned n, const uint64_t *ext, const int64_t *s_in, const int64_t *s_out,
		   uint8_t out[ABI_BDIMS_BYTES], uint32_t *batch);

/* a->bdims for a's one-dimensional batch (batch, stride_in, stride_out):
 * a v2 launch as v3's, so that a v3 kernel runs any v2 problem. a->batch
 * must be 1 to 2^31-1. */
void abi_bdims_v2(abi_args *a);

/* A record's magic and shift for its extent (1 to 2^31-1): shift = 31 +
 * ceil(log2 extent), magic = ceil(2^shift / extent); 1 and 0 for extent 1. */
void abi_bdim_magic(uint32_t extent, uint64_t *magic, uint32_t *shift);

#endif
