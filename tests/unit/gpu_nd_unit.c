/* Kernel ABI v3 on a CUDA GPU, through the loader alone (the library's N-d
 * plan is not wired yet): every committed abi=3 kernel JIT-loaded and
 * launched with bdims (abi_bdims_fill, launch_kernel) on multi-dimensional
 * batches, poisoned outputs read back and compared bit-exactly with the
 * reference computed by loops (tests/unit/nd_case.h); and a v2 kernel
 * launched by the same call (ten kernelParams, of which it reads nine).
 * Without a driver or a device: `1..0 # SKIP no CUDA device`. With
 * --small, the small cases only (for the fake driver, tests/fakecuda). */
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/abi.h"
#include "loader/cu.h"
#include "loader/cu_api.h"
#include "loader/jit.h"
#include "loader/launch.h"
#include "loader/pxfile.h"
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

static char err[1024];

/* One launch of k on case c: 1, or 0 with why. A case of one batch dim
 * passes its strides as v2's too (a v2 kernel reads those). */
static int run_case(cu_ctx *cu, const cu_fns *f, jit_kernel *k, const nd_case *c, char *why, size_t wlen)
{
	const px_meta *m = jit_meta(k);
	unsigned es = m->elem_bits / 8;
	nd_data d;
	if (nd_prepare(c, es, &d, why, wlen))
		return 0;
	/* room for the last rows' ld padding too (the fake driver wants it) */
	size_t mis = (size_t)c->misalign * es, tin = (size_t)c->pad_in * es, tout = (size_t)c->pad_out * es;
	cu_buf bin = {0}, bout = {0};
	unsigned grid[3];
	int good = 0;
	if (cu_alloc(cu, &bin, d.in_bytes + mis + tin, err, sizeof err) ||
	    cu_alloc(cu, &bout, d.out_bytes + mis + tout, err, sizeof err) ||
	    cu_htod(cu, bin.ptr + mis, d.in, d.in_bytes, err, sizeof err) ||
	    cu_memset8(cu, bout.ptr, ND_POISON, d.out_bytes + mis + tout, err, sizeof err) ||
	    meta_grid_dims(m, c->rows, c->cols, d.batch, grid, err, sizeof err)) {
		snprintf(why, wlen, "%.400s", err);
		goto out;
	}
	abi_args a = {.in = bin.ptr + mis, .out = bout.ptr + mis, .rows = c->rows, .cols = c->cols, .ld_in = d.ld_in,
		      .ld_out = d.ld_out, .batch = d.batch, .stride_in = c->nb == 1 ? (uint64_t)d.s_in[0] : 0,
		      .stride_out = c->nb == 1 ? (uint64_t)d.s_out[0] : 0};
	memcpy(a.bdims, d.bdims, sizeof a.bdims);
	char call[320];
	CUresult rc = launch_kernel(f, jit_function(k), m->kernel, grid, m->block, m->dyn_smem, NULL, &a, call,
				    sizeof call);
	if (rc) {
		snprintf(why, wlen, "%s failed (%d)", call, (int)rc);
		goto out;
	}
	if (cu_sync(cu, m->kernel, err, sizeof err) || cu_dtoh(cu, d.out, bout.ptr + mis, d.out_bytes, err, sizeof err)) {
		snprintf(why, wlen, "%.400s", err);
		goto out;
	}
	good = nd_same(&d, es, why, wlen);
out:
	cu_free(cu, &bin);
	cu_free(cu, &bout);
	nd_free(&d);
	return good;
}

static void run_file(cu_ctx *cu, const cu_fns *f, const char *path, const nd_case *cs, size_t n, int small)
{
	px_file pf;
	jit_kernel *k = NULL;
	strbuf log;
	sb_init(&log);
	if (px_file_load(&pf, path, err, sizeof err) ||
	    jit_load(cu, pf.ptx, &pf.meta, 0, &k, &log, err, sizeof err)) {
		ok(0, "%s: %s", path, err);
		sb_free(&log);
		return;
	}
	size_t nl = small ? 0 : sizeof large / sizeof large[0];
	for (size_t i = 0; i < n + nl; i++) {
		const nd_case *c = i < n ? &cs[i] : &large[i - n];
		char why[512] = "", ext[64];
		int good = run_case(cu, f, k, c, why, sizeof why);
		ok(good, "%s: batch %s of %ux%u, offset %u, grid %s%s%s", path, nd_extents(c, ext, sizeof ext), c->rows,
		   c->cols, c->misalign, c->grid_max ? c->grid_max : "full", why[0] ? ": " : "", why);
	}
	jit_free(k);
	px_file_free(&pf);
	sb_free(&log);
}

int main(int argc, char **argv)
{
	int small = argc > 1 && !strcmp(argv[1], "--small");
	cu_ctx *cu;
	const cu_fns *f;
	unsetenv("PTXPOSE_GRID_MAX");
	px_status st = cu_open(&cu, 0, NULL, err, sizeof err);
	if (st == PX_ENODRIVER || st == PX_ENODEVICE) {
		printf("1..0 # SKIP no CUDA device\n");
		return 0;
	}
	if (st || cu_driver(&f, err, sizeof err)) {
		ok(0, "cu_open: %s", err);
		return tap_done();
	}
	glob_t g;
	int n = 0;
	if (glob("ptx/*.ptx", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			px_file pf;
			if (px_file_load(&pf, g.gl_pathv[i], err, sizeof err))
				continue;
			const char *abi = meta_get(&pf.meta, "abi");
			if (abi && !strcmp(abi, "3")) {
				run_file(cu, f, g.gl_pathv[i], cases, sizeof cases / sizeof cases[0], small);
				n++;
			}
			px_file_free(&pf);
		}
		globfree(&g);
	}
	ok(n >= 10, "%d committed kernels of ABI v3", n);
	/* a v2 kernel through the same call: one batch dimension */
	static const nd_case v2[] = {{1, {12}, 67, 129, 0, 0, 1, NULL, 9, 1}};
	run_file(cu, f, "ptx/fast_b32.ptx", v2, 1, 1);
	cu_close(cu);
	return tap_done();
}
