/* Kernel ABI v3 on a CUDA GPU, through the public API: each case is an
 * N-d desc (its batch dims, then rows and cols swapped, with the case's
 * strides), planned with every built-in abi=3 kernel by name
 * (ptxpose_plan_create reduces it and fills the batch records) and
 * executed; poisoned outputs read back and compared bit-exactly with the
 * reference computed by loops (tests/unit/nd_case.h); and the heuristic
 * plan of the same descs (the plan picks an abi=3 kernel for a batch of
 * several dims, a v2 one for one).
 * Without a driver or a device: `1..0 # SKIP no CUDA device`. With
 * --small, the small cases only (for the fake driver, tests/fakecuda). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/abi.h"
#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/nd_case.h"
#include "tests/unit/tap.h"

static const nd_case cases[] = {
	{2, {3, 2}, 5, 7, 0, 3, 0, NULL, 1, 1},
	{4, {2, 1, 3, 2}, 33, 9, 2, 0, 1, "1x1x2", 2, 1},
	{6, {2, 3, 1, 2, 1, 3}, 3, 4, 1, 1, 3, "1x1x5", 3, 1},
	{5, {3, 1, 5, 1, 2}, 2, 3, 0, 1, 1, "1x1x7", 6, 1},
	{2, {1, 3}, 130, 144, 0, 14, 0, "1x1x2", 5, 16},
};
/* larger: many tiles a matrix, 48 and 42 matrices, the loader's grid */
static const nd_case large[] = {
	{3, {4, 3, 4}, 1000, 1008, 0, 8, 0, NULL, 7, 16},
	{4, {2, 7, 1, 3}, 257, 129, 3, 1, 1, NULL, 8, 1},
};


/* The case as an N-d desc: input dims (batch..., rows, cols), output dims
 * (batch..., cols, rows). */
static void desc_of(const nd_case *c, const nd_data *d, unsigned es, ptxpose_desc *x)
{
	*x = (ptxpose_desc)PTXPOSE_DESC_INIT;
	x->elem_bytes = es;
	x->rank = c->nb + 2;
	for (unsigned k = 0; k < c->nb; k++) {
		x->extents[k] = c->ext[k], x->perm[k] = k;
		x->strides_in[k] = d->s_in[k], x->strides_out[k] = d->s_out[k];
	}
	x->extents[c->nb] = c->rows, x->extents[c->nb + 1] = c->cols;
	x->perm[c->nb] = c->nb + 1, x->perm[c->nb + 1] = c->nb;
	x->strides_in[c->nb] = d->ld_in, x->strides_in[c->nb + 1] = 1;
	x->strides_out[c->nb] = d->ld_out, x->strides_out[c->nb + 1] = 1;
}

/* One plan of case c (kernel: by name, or NULL: the heuristic's), executed:
 * 1, or 0 with why; `used` gets the plan's kernel. */
static int run_case(ptxpose_handle h, const char *kernel, unsigned es, const nd_case *c, char *used, size_t ulen,
		    char *why, size_t wlen)
{
	nd_data d;
	if (nd_prepare(c, es, &d, why, wlen))
		return 0;
	size_t mis = (size_t)c->misalign * es;
	CUdeviceptr bin = 0, bout = 0;
	ptxpose_plan p = NULL;
	int good = 0;
	ptxpose_desc x;
	desc_of(c, &d, es, &x);
	x.kernel = kernel;
	ptxpose_plan_info info;
	if (cu.alloc(&bin, d.in_bytes + mis) || cu.alloc(&bout, d.out_bytes + mis) ||
	    cu.htod(bin + mis, d.in, d.in_bytes) || cu.htod(bout + mis, d.out, d.out_bytes)) {
		snprintf(why, wlen, "a driver call failed");
		goto out;
	}
	if (ptxpose_plan_create(h, &p, &x) || ptxpose_plan_get(p, &info) ||
	    ptxpose_execute(p, (void *)(uintptr_t)(bin + mis), (void *)(uintptr_t)(bout + mis), NULL)) {
		snprintf(why, wlen, "%.400s", ptxpose_last_error());
		goto out;
	}
	snprintf(used, ulen, "%s", info.kernel);
	if (cu.sync() || cu.dtoh(d.out, bout + mis, d.out_bytes)) {
		snprintf(why, wlen, "synchronize or copy back failed");
		goto out;
	}
	good = nd_same(&d, es, why, wlen);
out:
	if (p)
		ptxpose_plan_destroy(p);
	if (bin)
		cu.free_(bin);
	if (bout)
		cu.free_(bout);
	nd_free(&d);
	return good;
}

static void run_kernel(ptxpose_handle h, const char *kernel, unsigned es, const nd_case *cs, size_t n, int small)
{
	size_t nl = small ? 0 : sizeof large / sizeof large[0];
	for (size_t i = 0; i < n + nl; i++) {
		const nd_case *c = i < n ? &cs[i] : &large[i - n];
		char why[512] = "", ext[64], used[64] = "?";
		int good = run_case(h, kernel, es, c, used, sizeof used, why, sizeof why);
		ok(good, "%s (%u-byte): batch %s of %ux%u, offset %u, grid %s%s%s", kernel ? kernel : used, es,
		   nd_extents(c, ext, sizeof ext), c->rows, c->cols, c->misalign, c->grid_max ? c->grid_max : "full",
		   why[0] ? ": " : "", why);
	}
}

int main(int argc, char **argv)
{
	int small = argc > 1 && !strcmp(argv[1], "--small");
	unsetenv("PTXPOSE_GRID_MAX");
	ptxpose_handle h;
	ptxpose_status st = ptxpose_create(&h, 0);
	if (st == PTXPOSE_ERR_NO_DRIVER || st == PTXPOSE_ERR_NO_DEVICE) {
		printf("1..0 # SKIP no CUDA device\n");
		return 0;
	}
	if (st || api_driver()) {
		ok(0, "ptxpose_create: %s", ptxpose_last_error());
		return tap_done();
	}
	int count = 0, n = 0;
	ptxpose_kernel_count(h, &count);
	for (int i = 0; i < count; i++) {
		ptxpose_kernel_info k;
		if (ptxpose_kernel_get(h, i, &k) || !strstr(k.meta, " abi=3") || strstr(k.meta, " op=copy"))
			continue; /* the transposes of ABI v3 (a row copy's tiled copies: t1016, t0511) */
		run_kernel(h, k.name, k.elem_bytes, cases, sizeof cases / sizeof cases[0], small);
		n++;
	}
	ok(n >= 10, "%d built-in kernels of ABI v3", n);
	/* the heuristic plan of each width: abi=3 kernels for several batch dims */
	static const unsigned widths[] = {1, 2, 4, 8, 16};
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
		run_kernel(h, NULL, widths[w], cases, sizeof cases / sizeof cases[0], 1);
	ptxpose_destroy(h);
	return tap_done();
}
