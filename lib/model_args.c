/* model_args: a problem's kernel arguments (loader/abi.h), written once for
 * the library's launches (lib/api_exec.c) and the tools' emulated ones. */
#include "lib/model.h"

#include <stdio.h>
#include <string.h>

#include "lib/nd_pack.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int records(unsigned n, const uint64_t *ext, const uint64_t *in, const uint64_t *out, uint8_t *bd)
{
	int64_t si[ABI_BDIMS], so[ABI_BDIMS];
	for (unsigned b = 0; b < n && b < ABI_BDIMS; b++)
		si[b] = (int64_t)in[b], so[b] = (int64_t)out[b];
	return abi_bdims_fill(n, ext, si, so, bd, NULL);
}

int model_args_of(const model_problem *p, int abi, abi_args *a, char *err, size_t errlen)
{
	*a = (abi_args){.rows = (uint32_t)p->rows, .cols = (uint32_t)p->cols, .ld_in = (uint32_t)p->ld_in,
			.ld_out = (uint32_t)p->ld_out, .batch = (uint32_t)p->batch, .stride_in = p->stride_in,
			.stride_out = p->stride_out};
	if (abi == ABI_VERSION_V4) { /* the pack tile and its tiles' batch */
		const ptxpose_tool_pack *pk = &p->pack;
		if (!pk->n)
			FAIL("the problem has no pack tile (kernel ABI v4)"); /* meta_takes says more, first */
		if (nd_pack_tdims(pk, p->es, a->tdims, err, errlen))
			return -1;
		if (records((unsigned)pk->nbatch, pk->b_ext, pk->b_in, pk->b_out, a->bdims))
			FAIL("pack: a batch of %llu dims the kernels cannot walk", (unsigned long long)pk->nbatch);
		a->batch = (uint32_t)pk->tiles;
		return 0;
	}
	if (p->nbd > 1) { /* an N-d batch of several dims: kernel ABI v3's records */
		if (abi != ABI_VERSION_V3)
			FAIL("the problem reduces to a batch of %u dims, which takes a kernel of ABI v3 (abi=3)", p->nbd);
		if (records(p->nbd, p->bd_ext, p->bd_in, p->bd_out, a->bdims))
			FAIL("a batch of %u dims the kernels cannot walk", p->nbd);
	} else {
		abi_bdims_v2(a); /* what a kernel of ABI v3 named for a v2 problem reads */
	}
	return 0;
}
