/* abi: kernel ABI v2 and v3, the parameter lists ptxpose kernels take,
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

/* The values of one launch, in the list's order and widths (v3's; a v2
 * kernel takes the first ABI_NPARAMS). */
typedef struct {
	uint64_t in, out;
	uint32_t rows, cols, ld_in, ld_out, batch;
	uint64_t stride_in, stride_out;
	_Alignas(8) uint8_t bdims[ABI_BDIMS_BYTES];
} abi_args;

#define ABI_COUNT_(name, ptx, bytes, what) +1
enum { ABI_NPARAMS = 0 ABI_PARAMS(ABI_COUNT_), ABI_NPARAMS_V3 = 0 ABI_PARAMS_V3(ABI_COUNT_) };

/* Each parameter's bytes, in order (v3's list; v2's is its first
 * ABI_NPARAMS). */
extern const unsigned abi_bytes[ABI_NPARAMS_V3];
/* Each parameter's name ("in", "ld_out"), in order (v3's list). */
extern const char *const abi_names[ABI_NPARAMS_V3];

/* The number of parameters of ABI `version` (2 or 3); 0 for another. */
int abi_nparams(int version);

/* cuLaunchKernel's kernelParams: pointers into *a, in order (v3's list; the
 * driver reads as many as the kernel has, so a v2 kernel takes the same). */
void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS_V3]);

/* The scalar values (v2's nine) as 64-bit numbers, in order (the emulator
 * writes each with its width; bdims are bytes). */
void abi_values(const abi_args *a, uint64_t vals[ABI_NPARAMS]);

/* The entry's parameter list of ABI `version` (2 or 3) as PTX (".param
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
