/* tp: parameter defaults, validation, and the file header with metadata. */
#include "gen/tp.h"

#include <stdio.h>
#include <string.h>

#include "common/fsio.h"
#include "gen/bank.h"
#include "gen/tp_emit.h"
#include "gen/tp_geom.h"

#define STATIC_SMEM_LIMIT 49152
#define DYN_SMEM_LIMIT 232448 /* sm_90's opt-in limit a block */
#define MAX_BYTES_PER_THREAD 256

void tp_defaults(tp_params *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "transpose");
	p->elem = 32;
	p->tm = p->tn = 32;
	p->tx = 32;
	p->ty = 8;
	p->vec = 1;
	p->smem = TP_SMEM_NONE;
}

const char *tp_smem_name(enum tp_smem s)
{
	static const char *names[] = {"none", "plain", "padded", "swizzle", "runs"};
	return names[s];
}

const char *tp_family_name(enum tp_family f)
{
	static const char *names[TP_FAMILY_N] = {"tile", "movmatrix", "ldmatrix", "stmatrix", "shfl"};
	return names[f];
}

const char *tp_target(const tp_params *p) { return p->family == TP_FAMILY_STMATRIX ? "sm_90" : TP_TARGET; }

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

unsigned tp_row_step(const tp_params *p)
{
	return p->shear ? p->tm - p->shear / (p->elem / 8) : p->tm;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int valid_name(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int tp_validate(const tp_params *p, char *err, size_t errlen)
{
	if (!valid_name(p->name))
		FAIL("name: '%s' is not a PTX identifier (letters, digits, _; not starting with a digit)", p->name);
	if (p->elem != 8 && p->elem != 16 && p->elem != 32 && p->elem != 64 && p->elem != 128)
		FAIL("elem: %u is not an element width (8, 16, 32, 64 or 128 bits)", p->elem);
	unsigned es = p->elem / 8, nthr = p->tx * p->ty;
	if (!pow2(p->tx) || !pow2(p->ty) || nthr < 32 || nthr > 1024)
		FAIL("threads: %ux%u must be powers of two giving 32 to 1024 threads", p->tx, p->ty);
	if (p->vec != 8 && p->vec != 16 && (p->vec != 1 && p->vec != 2 && p->vec != 4))
		FAIL("vec: %u is not 1, 2, 4, 8 or 16", p->vec);
	if (p->vec * es > 16)
		FAIL("vec: %u x %u-bit elements is a %u-byte access; the widest is 16 bytes",
		     p->vec, p->elem, p->vec * es);
	if (p->max_regs && (p->max_regs < 24 || p->max_regs > 255))
		FAIL("max_regs: %u is not a register budget from 24 to 255", p->max_regs);
	if (p->family)
		return tp_warp_validate(p, err, errlen);
	if (p->skinny)
		return tp_skinny_validate(p, err, errlen);
	if (p->kw || p->stages)
		FAIL("%s: applies only to skinny kernels", p->kw ? "kw" : "stages");
	if (p->smem == TP_SMEM_RUNS)
		FAIL("smem: runs is the skinny kernels' own layout");
	if (p->linear) {
		if (p->vec != 1 || p->smem != TP_SMEM_NONE || p->ty != 1 || p->ld_nc || p->st_cs || p->wide_realign ||
		    p->shear || p->dyn_smem)
			FAIL("grid: the linear (1-D) kernel takes vec=1, smem=none, no hints and threads={N, 1}");
		return 0;
	}
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
	if (p->wide_realign && (es >= 4 || p->vec * es < 8 || p->smem == TP_SMEM_NONE || p->major_in))
		FAIL("wide_realign: applies to 1- and 2-byte elements in accesses of 8 or 16 bytes,"
		     " through shared memory laid out by output rows");
	if (p->shear && !p->wide_realign)
		FAIL("shear: needs wide_realign");
	if (p->shear && (!pow2(p->shear) || p->shear < p->vec * es || p->shear > 128))
		FAIL("shear: %u must be a power of two from the access's %u bytes to 128", p->shear, p->vec * es);
	if (p->shear && (p->tm * es % p->shear || 2 * (p->shear / es) > p->tm))
		FAIL("shear: %u bytes is %u rows; the tile's %u rows must hold twice as many, and a whole number",
		     p->shear, p->shear / es, p->tm);
	if (p->smem == TP_SMEM_NONE && p->major_in)
		FAIL("major: applies only to kernels with shared memory");
	if (p->smem != TP_SMEM_NONE && p->coalesce_write)
		FAIL("coalesce: applies only to smem=none (shared-memory kernels coalesce both sides)");
	if (p->dyn_smem && p->smem == TP_SMEM_NONE)
		FAIL("dyn_smem: applies only to kernels with shared memory");
	tp_geom g;
	tp_geom_init(&g, p);
	if (p->smem != TP_SMEM_NONE) {
		unsigned lim = p->dyn_smem ? DYN_SMEM_LIMIT : STATIC_SMEM_LIMIT;
		if (g.smem_bytes > lim)
			FAIL("tile: %ux%u needs %u bytes of shared memory, over the %u-byte %s limit", p->tm, p->tn,
			     g.smem_bytes, lim, p->dyn_smem ? "dynamic (sm_90 opt-in)" : "static");
		if (p->smem == TP_SMEM_SWIZZLE && g.sgran < 2)
			FAIL("smem: a swizzle needs at least 2 granules per shared row, the tile gives %u", g.sgran);
		if (p->swizzle_mask && (p->smem != TP_SMEM_SWIZZLE || !pow2(p->swizzle_mask + 1) ||
					p->swizzle_mask >= g.sgran))
			FAIL("swizzle_mask: %u must be 2^n-1 below %u, with smem=swizzle", p->swizzle_mask, g.sgran);
	} else if (p->swizzle_mask) {
		FAIL("swizzle_mask: needs smem=swizzle");
	}
	return 0;
}

static void header(const tp_params *p, const tp_geom *g, const bank_report *br, strbuf *h)
{
	sb_printf(h, "//\n// " FS_GENERATED_MARK " from %s. DO NOT EDIT.\n//\n",
		  p->script[0] ? p->script : "the Lua API");
	if (p->family) {
		tp_warp_header(p, h);
		return;
	}
	if (p->skinny) {
		tp_skinny_header(p, h);
		return;
	}
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. ", p->elem);
	if (p->linear) {
		sb_printf(h, "One element per thread over a 1-D grid: a coalesced read and a\n"
			     "// strided write. Kernel ABI v2 (docs/DESIGN.md): a thread steps by the grid\n"
			     "// over the elements, a block by nctaid.z over the matrices.\n//\n");
		sb_printf(h, "// ptxpose kernel=%s abi=2 elem=%u grid=linear block=%ux1 per_block=%u vec=1 smem=none",
			  p->name, p->elem, p->tx, p->tx);
		if (p->max_regs)
			sb_printf(h, " max_regs=%u", p->max_regs);
		sb_addc(h, '\n');
		return;
	}
	sb_printf(h, "Each block moves a %ux%u tile; each thread %u blocks of %ux%u elements,\n",
		  p->tm, p->tn, g->k, g->v, g->v);
	if (p->smem == TP_SMEM_NONE)
		sb_printf(h, "// straight from registers to global memory (the %s side is coalesced).\n",
			  p->coalesce_write ? "write" : "read");
	else
		sb_printf(h, "// through %s shared memory laid out by %s rows.\n", tp_smem_name(p->smem),
			  p->major_in ? "input" : "output");
	sb_printf(h, "// Kernel ABI v2 (docs/DESIGN.md): a block steps by the grid over tile columns,\n"
		     "// tile rows and matrices, so any grid covers any shape.\n");
	sb_printf(h, "//\n// ptxpose kernel=%s abi=2 elem=%u grid=tile tile=%ux%u block=%ux%u\n",
		  p->name, p->elem, p->tm, p->tn, p->tx, p->ty);
	sb_printf(h, "// ptxpose vec=%u smem=%s", p->vec, tp_smem_name(p->smem));
	if (p->smem == TP_SMEM_NONE)
		sb_printf(h, " coalesce=%s", p->coalesce_write ? "write" : "read");
	else
		sb_printf(h, " major=%s %s=%u pitch=%u swizzle=%u", p->major_in ? "in" : "out",
			  p->dyn_smem ? "dyn_smem" : "smem_bytes", g->smem_bytes, g->pitch * g->gbytes, g->swz);
	if (g->swz_shr || g->swz_shl)
		sb_printf(h, " swizzle_shr=%u swizzle_shl=%u", g->swz_shr, g->swz_shl);
	sb_printf(h, " per_thread=%u", g->k * g->v * g->v);
	if (p->group)
		sb_printf(h, " group=%u", p->group);
	if (p->ld_nc || p->st_cs)
		sb_printf(h, " hints=%s%s%s", p->ld_nc ? "ld.nc" : "", p->ld_nc && p->st_cs ? "," : "",
			  p->st_cs ? "st.cs" : "");
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	if (p->wide_realign)
		sb_printf(h, " wide_realign=1");
	if (p->shear)
		sb_printf(h, " shear=%u row_step=%u", p->shear, tp_row_step(p));
	sb_addc(h, '\n');
	for (int i = 0; i < br->n; i++)
		sb_printf(h, "// ptxpose-smem id=%s op=%s bytes=%u wavefronts=%u ideal=%u requests=%u total=%u\n",
			  br->acc[i].id, br->acc[i].store ? "st" : "ld", br->acc[i].bytes,
			  br->acc[i].worst, br->acc[i].ideal, br->acc[i].requests, br->acc[i].total);
}

int tp_generate(const tp_params *p, strbuf *out, char *err, size_t errlen)
{
	if (tp_validate(p, err, errlen))
		return -1;
	if (p->skinny || p->family) {
		strbuf sh;
		sb_init(&sh);
		header(p, NULL, NULL, &sh);
		int src = p->family ? tp_emit_warp(p, sb_str(&sh), out, err, errlen)
				    : tp_emit_skinny(p, sb_str(&sh), out, err, errlen);
		sb_free(&sh);
		return src;
	}
	tp_geom g;
	tp_geom_init(&g, p);
	bank_pick_swizzle(p, &g);
	bank_report br;
	bank_model(p, &g, &br);
	strbuf h;
	sb_init(&h);
	header(p, &g, &br, &h);
	int rc = p->linear ? tp_emit_linear(p, sb_str(&h), out, err, errlen)
			   : tp_emit_tile(p, &g, sb_str(&h), out, err, errlen);
	sb_free(&h);
	return rc;
}
