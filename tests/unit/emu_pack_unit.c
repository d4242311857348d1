/* Kernel ABI v4 in the emulator: every committed pack kernel (ptx/pack_*,
 * gen/tp_pack.c) on hand-worked N-d permutations, tiles filled with
 * abi_tdims_fill and batches with abi_bdims_fill as the plan does: 1 to 6
 * tile dims, 0, 1 and 2 split dims with partial last tiles, tiles below and
 * at the kernel's capacity, pointers one element off alignment, grids
 * capped (PTXPOSE_GRID_MAX) so that blocks walk several tiles. Random input;
 * the output poisoned and padded, compared bit-exactly with a reference by
 * loops over the whole buffer (a byte written where no element goes fails
 * too). Also: a v4 kernel without tdims, and a v3 kernel with them, are
 * refused. Prints TAP. */
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu.h"
#include "loader/abi.h"
#include "loader/pxfile.h"
#include "tests/unit/pack_case.h"
#include "tests/unit/tap.h"

/* One kernel on one case: 1, or 0 with why. misalign moves both of the
 * emulator's pointers off alignment by whole elements. */
static int run_case(const emu_prog *p, const px_meta *m, const pk_case *c, char *why, size_t wlen)
{
	unsigned es = m->elem_bits / 8;
	pk_data d;
	int good = 0;
	if (pk_prepare(c, es, &d, why, wlen)) {
		pk_release(&d);
		return 0;
	}
	if (d.vol > m->per_block) {
		snprintf(why, wlen, "the case's tile of %u is over the kernel's %llu", d.vol,
			 (unsigned long long)m->per_block);
		pk_release(&d);
		return 0;
	}
	strbuf diag;
	sb_init(&diag);
	emu_launch l = {.in = d.in, .in_bytes = d.in_bytes, .out = d.out, .out_bytes = d.out_bytes, .rows = 1,
			.cols = 1, .ld_in = 1, .ld_out = 1, .batch = d.batch, .bdims = d.bdims, .tdims = d.tdims,
			.misalign = c->misalign * es};
	if (emu_prog_launch(p, m, &l, &diag) != EMU_OK) {
		snprintf(why, wlen, "emulator: %s", sb_str(&diag));
	} else {
		good = pk_same(&d, es, why, wlen);
	}
	sb_free(&diag);
	pk_release(&d);
	return good;
}

static void run_kernel(const char *path, const char *ptx, const px_meta *m)
{
	emu_prog *p = NULL;
	strbuf d;
	sb_init(&d);
	if (emu_load(ptx, &p, &d) != EMU_OK) {
		ok(0, "%s: emu_load: %s", path, sb_str(&d));
		sb_free(&d);
		return;
	}
	size_t n = sizeof pk_cases / sizeof pk_cases[0];
	for (size_t k = 0; k <= n; k++) {
		pk_case full = pk_full_case((unsigned)m->per_block);
		const pk_case *c = k < n ? &pk_cases[k] : &full;
		if (pk_vol(c) > m->per_block) {
			ok(1, "%s: %s # SKIP its tile of %u is over the kernel's capacity", path, c->what, pk_vol(c));
			continue;
		}
		char why[512] = "";
		int good = run_case(p, m, c, why, sizeof why);
		ok(good, "%s: %s, offset %u, grid %s%s%s", path, c->what, c->misalign, c->grid_max ? c->grid_max : "full",
		   why[0] ? ": " : "", why);
	}
	emu_free(p);
	sb_free(&d);
}

static int load(const char *path, px_file *f)
{
	char err[512];
	if (!px_file_load(f, path, err, sizeof err))
		return 0;
	ok(0, "%s", err);
	return -1;
}

/* Every committed pack kernel, each width. */
static void test_committed(void)
{
	glob_t g;
	unsigned widths = 0, n = 0;
	if (glob("ptx/pack_*.ptx", 0, NULL, &g)) {
		ok(0, "ptx/pack_*.ptx: no files (run from the source tree)");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		px_file f;
		if (load(g.gl_pathv[i], &f))
			continue;
		const char *abi = meta_get(&f.meta, "abi");
		if (ok(abi && !strcmp(abi, "4") && f.meta.grid == META_GRID_PACK, "%s: abi=4 grid=pack", g.gl_pathv[i])) {
			run_kernel(g.gl_pathv[i], f.ptx, &f.meta);
			widths |= f.meta.elem_bits, n++;
		}
		px_file_free(&f);
	}
	globfree(&g);
	ok(n >= 6 && widths == (8 | 16 | 32 | 64 | 128), "%u pack kernels, every width", n);
}

/* A v4 kernel without tdims, a v3 kernel with them: refused, nothing run. */
static void test_refusals(void)
{
	px_file f;
	uint8_t in[64] = {0}, out[64], td[ABI_TDIMS_BYTES] = {0};
	strbuf d;
	if (load("ptx/pack_b32.ptx", &f))
		return;
	emu_launch l = {.in = in, .in_bytes = sizeof in, .out = out, .out_bytes = sizeof out, .rows = 1, .cols = 1,
			.ld_in = 1, .ld_out = 1, .batch = 1};
	sb_init(&d);
	int rc = emu_transpose_launch(f.ptx, &f.meta, &l, &d);
	ok(rc == EMU_UNSUPPORTED && strstr(sb_str(&d), "kernel pack_b32 is kernel ABI v4: the launch has no tile dims"),
	   "a v4 kernel without tdims: EMU_UNSUPPORTED, '%s'", sb_str(&d));
	sb_free(&d);
	px_file_free(&f);
	if (load("ptx/fast_nd_b32.ptx", &f))
		return;
	l.rows = l.cols = l.ld_in = l.ld_out = 2, l.tdims = td;
	sb_init(&d);
	rc = emu_transpose_launch(f.ptx, &f.meta, &l, &d);
	ok(rc == EMU_UNSUPPORTED && strstr(sb_str(&d), "is kernel ABI v3: it takes no tile dims"),
	   "a v3 kernel with tdims: EMU_UNSUPPORTED, '%s'", sb_str(&d));
	sb_free(&d);
	px_file_free(&f);
}

int main(void)
{
	unsetenv("PTXPOSE_GRID_MAX");
	test_committed();
	test_refusals();
	return tap_done();
}
