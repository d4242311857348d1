/* abi: kernel ABI v2, the parameter list every ptxpose kernel takes, written
 * once (docs/DESIGN.md). gen/ emits it as the entry's .param list, lib/
 * passes it to cuLaunchKernel, emu/ checks a kernel against it and fills it,
 * and configure.py reads it for the Python benchmark. One line an entry:
 * X(name, PTX type, bytes, what it is). Keep the X( lines in this form:
 * configure.py parses them. */
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

/* The values of one launch, in the list's order and widths. */
typedef struct {
	uint64_t in, out;
	uint32_t rows, cols, ld_in, ld_out, batch;
	uint64_t stride_in, stride_out;
} abi_args;

#define ABI_COUNT_(name, ptx, bytes, what) +1
enum { ABI_NPARAMS = 0 ABI_PARAMS(ABI_COUNT_) };

/* Each parameter's bytes, in order. */
extern const unsigned abi_bytes[ABI_NPARAMS];
/* Each parameter's name ("in", "ld_out"), in order. */
extern const char *const abi_names[ABI_NPARAMS];

/* cuLaunchKernel's kernelParams: pointers into *a, in order. */
void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS]);

/* The values as 64-bit numbers, in order (the emulator writes each with
 * its width). */
void abi_values(const abi_args *a, uint64_t vals[ABI_NPARAMS]);

/* The entry's parameter list as PTX (".param .u64 param_in,\n..." with a
 * tab before each), into buf; returns buf, or NULL if n is too small. */
const char *abi_ptx_params(char *buf, size_t n);

/* "(.u64 in, .u64 out, ...)" for messages, into buf; returns buf. */
const char *abi_describe(char *buf, size_t n);

#endif
