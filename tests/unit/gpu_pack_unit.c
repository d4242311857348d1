/* Kernel ABI v4 on a CUDA GPU, through the loader (no plan fills tdims
 * yet): every committed pack kernel (ptx/pack_*) JIT-loaded and launched
 * with launch_kernel on the cases of tests/unit/pack_case.h (1 to 6 tile
 * dims, 0 to 2 splits with partial last tiles, a tile at the kernel's
 * capacity, pointers off alignment, capped grids), the grid meta_grid_dims
 * gives; poisoned outputs read back and compared bit-exactly, the whole
 * buffer, with the reference computed by loops. With the fake driver
 * ($PTXPOSE_LIBCUDA, tests/fakecuda) it checks the fake's v4 launches.
 * Without a driver or a device: `1..0 # SKIP no CUDA device`. */
#include <cuda.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "loader/cu_api.h"
#include "loader/launch.h"
#include "loader/pxfile.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/pack_case.h"
#include "tests/unit/tap.h"

/* Case c on kernel k: 1, or 0 with why. Both pointers misalign elements
 * past the allocations' (256-byte aligned) starts. */
static int run_case(cu_ctx *ctx, jit_kernel *k, const px_meta *m, const pk_case *c, char *why, size_t wlen)
{
	unsigned es = m->elem_bits / 8;
	pk_data d;
	CUdeviceptr din = 0, dout = 0;
	int good = 0;
	size_t mis = (size_t)c->misalign * es;
	char call[256] = "cuCtxSynchronize after the launch";
	if (pk_prepare(c, es, &d, why, wlen))
		goto done;
	if (d.vol > m->per_block) {
		snprintf(why, wlen, "the case's tile of %u is over the kernel's %llu", d.vol, (unsigned long long)m->per_block);
		goto done;
	}
	abi_args a = {.rows = 1, .cols = 1, .ld_in = 1, .ld_out = 1, .batch = d.batch};
	memcpy(a.bdims, d.bdims, sizeof a.bdims);
	memcpy(a.tdims, d.tdims, sizeof a.tdims);
	unsigned grid[3];
	if (meta_grid_dims(m, 1, 1, d.batch, grid, why, wlen))
		goto done;
	if (cu.alloc(&din, d.in_bytes + mis) || cu.alloc(&dout, d.out_bytes + mis) ||
	    cu.htod(din + mis, d.in, d.in_bytes) || cu.htod(dout + mis, d.out, d.out_bytes)) {
		snprintf(why, wlen, "device memory: allocation or copy failed");
		goto done;
	}
	a.in = din + mis, a.out = dout + mis;
	CUresult rc = launch_kernel(ctx->f, jit_function(k), m->kernel, grid, m->block, m->dyn_smem, NULL, &a, call,
				    sizeof call);
	if (!rc)
		rc = cu.sync();
	if (!rc)
		rc = cu.dtoh(d.out, dout + mis, d.out_bytes);
	if (rc) {
		char text[160];
		snprintf(why, wlen, "%s: %s", call, cu_error_text(ctx, rc, text, sizeof text));
		goto done;
	}
	good = pk_same(&d, es, why, wlen);
done:
	if (din)
		cu.free_(din);
	if (dout)
		cu.free_(dout);
	pk_release(&d);
	return good;
}

static void run_file(cu_ctx *ctx, const char *path)
{
	px_file f;
	char err[1024];
	jit_kernel *k = NULL;
	strbuf log;
	sb_init(&log);
	if (px_file_load(&f, path, err, sizeof err) || jit_load(ctx, f.ptx, &f.meta, 0, &k, &log, err, sizeof err)) {
		ok(0, "%s: %s %s", path, err, sb_str(&log));
		sb_free(&log);
		return;
	}
	size_t n = sizeof pk_cases / sizeof pk_cases[0];
	for (size_t i = 0; i <= n; i++) {
		pk_case full = pk_full_case((unsigned)f.meta.per_block);
		const pk_case *c = i < n ? &pk_cases[i] : &full;
		if (pk_vol(c) > f.meta.per_block) {
			ok(1, "%s: %s # SKIP its tile of %u is over the kernel's capacity", path, c->what, pk_vol(c));
			continue;
		}
		char why[512] = "";
		int good = run_case(ctx, k, &f.meta, c, why, sizeof why);
		ok(good, "%s: %s, offset %u, grid %s%s%s", path, c->what, c->misalign, c->grid_max ? c->grid_max : "full",
		   why[0] ? ": " : "", why);
	}
	jit_free(k);
	sb_free(&log);
	px_file_free(&f);
}

int main(void)
{
	cu_ctx *ctx = NULL;
	char err[512];
	px_status st = cu_attach(&ctx, NULL, err, sizeof err);
	if (st == PX_ENODRIVER || st == PX_ENODEVICE) {
		printf("1..0 # SKIP no CUDA device\n");
		return 0;
	}
	if (st || api_driver()) {
		ok(0, "cu_attach: %s", st ? err : "the driver lacks cuMemAlloc_v2 and the like");
		return tap_done();
	}
	glob_t g;
	if (glob("ptx/pack_*.ptx", 0, NULL, &g)) {
		ok(0, "ptx/pack_*.ptx: no files (run from the source tree)");
	} else {
		for (size_t i = 0; i < g.gl_pathc; i++)
			run_file(ctx, g.gl_pathv[i]);
		ok(g.gl_pathc >= 6, "%zu pack kernels", g.gl_pathc);
		globfree(&g);
	}
	cu_close(ctx);
	return tap_done();
}
