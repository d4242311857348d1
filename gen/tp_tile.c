/* tp_tile: the tile family's row: its parameters, checks and header. A
 * block moves a tm x tn tile; each thread v x v blocks of it, transposed
 * in registers, straight to global memory or through shared memory. */
#include "gen/tp_tile.h"

#include <stdio.h>

#include "gen/bank.h"

#define STATIC_SMEM_LIMIT 49152
#define DYN_SMEM_LIMIT 232448 /* sm_90's opt-in limit a block */
#define MAX_BYTES_PER_THREAD 256

static const char *const major_names[] = {"out", "in", NULL};
static const char *const side_names[] = {"read", "write", NULL};

static const tp_param params[] = {
	TP_OPTION("smem", tp_smem_names, tp_tile, smem),
	TP_OPTION("major", major_names, tp_tile, major_in),
	TP_OPTION("coalesce", side_names, tp_tile, coalesce_write),
	TP_INT("swizzle_mask", 0, 0, 1024, tp_tile, swizzle_mask),
	TP_BOOL("ld_nc", tp_tile, ld_nc),
	TP_BOOL("st_cs", tp_tile, st_cs),
	TP_BOOL("wide_realign", tp_tile, wide_realign),
	TP_INT("shear", 0, 0, 1024, tp_tile, shear),
	TP_BOOL("dyn_smem", tp_tile, dyn_smem),
	TP_BOOL("study", tp_tile, study),
	TP_END,
};

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int validate(const tp_params *p, char *err, size_t errlen)
{
	const tp_tile *t = tp_tile_of(p);
	if (tp_check_foreign(p, err, errlen))
		return -1;
	unsigned es = p->elem / 8, nthr = p->tx * p->ty;
	if (es < 4 && p->vec * es < 4)
		FAIL("vec: %u-bit elements travel packed in 32-bit words, so vec must be at least %u",
		     p->elem, 4 / es);
	if (!pow2(p->tm) || !pow2(p->tn) || p->tm > 256 || p->tn > 256)
		FAIL("tile: %ux%u must be powers of two, at most 256", p->tm, p->tn);
	if (p->tm % p->vec || p->tn % p->vec)
		FAIL("vec: %u does not divide the tile %ux%u", p->vec, p->tm, p->tn);
	unsigned nbr = p->tm / p->vec, nbc = p->tn / p->vec, blocks = nbr * nbc;
	if (blocks < nthr)
		FAIL("tile: %ux%u has %u blocks of %ux%u, fewer than the %u threads",
		     p->tm, p->tn, blocks, p->vec, p->vec, nthr);
	unsigned per_thread = p->tm * p->tn / nthr * es;
	if (per_thread > MAX_BYTES_PER_THREAD)
		FAIL("tile: %ux%u over %u threads is %u bytes per thread; at most %u fit in registers",
		     p->tm, p->tn, nthr, per_thread, MAX_BYTES_PER_THREAD);
	if (p->group && (p->group > 65535))
		FAIL("group: %u tile columns is more than a grid holds", p->group);
	if (t->wide_realign && (es >= 4 || p->vec * es < 8 || t->smem == TP_SMEM_NONE || t->major_in))
		FAIL("wide_realign: applies to 1- and 2-byte elements in accesses of 8 or 16 bytes,"
		     " through shared memory laid out by output rows");
	if (t->shear && !t->wide_realign)
		FAIL("shear: needs wide_realign");
	if (t->shear && (!pow2(t->shear) || t->shear < p->vec * es || t->shear > 128))
		FAIL("shear: %u must be a power of two from the access's %u bytes to 128", t->shear, p->vec * es);
	if (t->shear && (p->tm * es % t->shear || 2 * (t->shear / es) > p->tm))
		FAIL("shear: %u bytes is %u rows; the tile's %u rows must hold twice as many, and a whole number",
		     t->shear, t->shear / es, p->tm);
	if (t->smem == TP_SMEM_NONE && t->major_in)
		FAIL("major: applies only to kernels with shared memory");
	if (t->smem != TP_SMEM_NONE && t->coalesce_write)
		FAIL("coalesce: applies only to smem=none (shared-memory kernels coalesce both sides)");
	if (t->dyn_smem && t->smem == TP_SMEM_NONE)
		FAIL("dyn_smem: applies only to kernels with shared memory");
	tp_geom g;
	tp_geom_init(&g, p);
	if (t->smem != TP_SMEM_NONE) {
		unsigned lim = t->dyn_smem ? DYN_SMEM_LIMIT : STATIC_SMEM_LIMIT;
		if (g.smem_bytes > lim)
			FAIL("tile: %ux%u needs %u bytes of shared memory, over the %u-byte %s limit", p->tm, p->tn,
			     g.smem_bytes, lim, t->dyn_smem ? "dynamic (sm_90 opt-in)" : "static");
		if (t->smem == TP_SMEM_SWIZZLE && g.sgran < 2)
			FAIL("smem: a swizzle needs at least 2 granules per shared row, the tile gives %u", g.sgran);
		if (t->swizzle_mask && (t->smem != TP_SMEM_SWIZZLE || !pow2(t->swizzle_mask + 1) ||
					t->swizzle_mask >= g.sgran))
			FAIL("swizzle_mask: %u must be 2^n-1 below %u, with smem=swizzle", t->swizzle_mask, g.sgran);
	} else if (t->swizzle_mask) {
		FAIL("swizzle_mask: needs smem=swizzle");
	}
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	const tp_tile *t = tp_tile_of(p);
	tp_geom gs, *g = &gs;
	bank_geom(p, g);
	bank_report br;
	bank_model(p, g, &br);
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. ", p->elem);
	sb_printf(h, "Each block moves a %ux%u tile; each thread %u blocks of %ux%u elements,\n",
		  p->tm, p->tn, g->k, g->v, g->v);
	if (t->smem == TP_SMEM_NONE)
		sb_printf(h, "// straight from registers to global memory (the %s side is coalesced).\n",
			  t->coalesce_write ? "write" : "read");
	else
		sb_printf(h, "// through %s shared memory laid out by %s rows.\n", tp_smem_names[t->smem],
			  t->major_in ? "input" : "output");
	sb_printf(h, "// Kernel ABI v%u (docs/DESIGN.md): a block steps by the grid over tile columns,\n"
		     "// tile rows and matrices, so any grid covers any shape.\n", p->abi);
	sb_printf(h, "//\n// ptxpose kernel=%s abi=%u elem=%u grid=tile tile=%ux%u block=%ux%u\n",
		  p->name, p->abi, p->elem, p->tm, p->tn, p->tx, p->ty);
	sb_printf(h, "// ptxpose vec=%u smem=%s", p->vec, tp_smem_names[t->smem]);
	if (t->smem == TP_SMEM_NONE)
		sb_printf(h, " coalesce=%s", t->coalesce_write ? "write" : "read");
	else
		sb_printf(h, " major=%s %s=%u pitch=%u swizzle=%u", t->major_in ? "in" : "out",
			  t->dyn_smem ? "dyn_smem" : "smem_bytes", g->smem_bytes, g->pitch * g->gbytes, g->swz);
	if (g->swz_shr || g->swz_shl)
		sb_printf(h, " swizzle_shr=%u swizzle_shl=%u", g->swz_shr, g->swz_shl);
	sb_printf(h, " per_thread=%u", g->k * g->v * g->v);
	if (p->group)
		sb_printf(h, " group=%u", p->group);
	if (t->ld_nc || t->st_cs)
		sb_printf(h, " hints=%s%s%s", t->ld_nc ? "ld.nc" : "", t->ld_nc && t->st_cs ? "," : "",
			  t->st_cs ? "st.cs" : "");
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	if (t->wide_realign)
		sb_printf(h, " wide_realign=1");
	if (t->shear)
		sb_printf(h, " shear=%u row_step=%u", t->shear, tp_row_step(p));
	if (t->study)
		sb_printf(h, " study=1");
	sb_addc(h, '\n');
	for (int i = 0; i < br.n; i++)
		sb_printf(h, "// ptxpose-smem id=%s op=%s bytes=%u wavefronts=%u ideal=%u requests=%u total=%u\n",
			  br.acc[i].id, br.acc[i].store ? "st" : "ld", br.acc[i].bytes,
			  br.acc[i].worst, br.acc[i].ideal, br.acc[i].requests, br.acc[i].total);
}

_Static_assert(sizeof(tp_tile) <= TP_OWN_MAX, "tp_tile fits in tp_params.own");

const tp_family tp_family_tile = {
	.name = "tile",
	.select_key = "family",
	.select_val = "tile",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = tp_tile_emit,
};
