/* tp_skinny: kernels for a small dimension: a wide K x N input
 * (K rows, long rows) to N x K, and a tall N x K input to K x N, K from 1
 * up, set at run time, every width. The layout is in gen/tp_skinny.h.
 *
 * Why this shape of kernel. A K x N -> N x K transpose with ld_out == K
 * writes one contiguous run of L*K elements per tile (and a tall one reads
 * one), so that side can move as whole 16-byte granules at any K if the
 * tile is staged in shared memory in the run's order. The long side moves
 * as 16-byte granules of its K lines; each element then takes one shared
 * access to or from its place in the run (one add per element would be
 * needed to compute c*K + i; the addresses are per-thread registers, one
 * per element of a granule, and the slots and passes are immediate
 * offsets). Lanes along K touch neighbouring elements (one word for
 * several lanes of bytes), and the chunk regions' stride, chosen by the
 * bank model, puts lanes along the long side in distinct banks (the
 * ptxpose-smem lines model K = kmax, and tests/t0630 holds the element
 * accesses to conflict-free). The generic tile kernels, by
 * contrast, move a K-row tile through their edge path (one element at a
 * time) whenever K is not a multiple of their tile, and write output rows
 * of K elements, too short for vectors. */
#include <stdio.h>
#include <string.h>

#include "common/fsio.h"
#include "gen/bank.h"
#include "gen/tp_skinny.h"

#define STATIC_SMEM_LIMIT 49152
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

static void model(const sk *s, bank_report *r);
static unsigned smem_bytes(const sk *s);

/* The region stride: of KT to KT + 15 granules, the one the bank model
 * finds cheapest for the element accesses, then for the run's granules,
 * then the smallest, within the static shared-memory limit. An odd stride
 * is not always enough: lanes along K may span several words, and 8- and
 * 16-byte accesses are served a half or a quarter warp at a time. */
static void pick_region(sk *s)
{
	unsigned best_rg = s->KT | 1, best_el = ~0u, best_run = ~0u;
	for (unsigned rg = s->KT; rg < s->KT + 16; rg++) {
		s->RG = rg, s->RB = rg * 16;
		if (smem_bytes(s) > STATIC_SMEM_LIMIT && rg > (s->KT | 1))
			break;
		bank_report r;
		model(s, &r);
		unsigned el = r.acc[s->tall].total, run = r.acc[!s->tall].total;
		if (el < best_el || (el == best_el && run < best_run))
			best_rg = rg, best_el = el, best_run = run;
	}
	s->RG = best_rg, s->RB = best_rg * 16;
}

/* The geometry of the parameters (validated or not: nothing divides by
 * zero, and the region stride is searched only for a sound geometry). */
static void geometry(sk *s, const tp_params *p)
{
	const tp_skinny *own = tp_skinny_of(p);
	s->tall = own->shape == SK_TALL;
	s->es = p->elem / 8 ? p->elem / 8 : 1;
	s->V = 16 / s->es ? 16 / s->es : 1;
	s->KT = s->tall ? p->tn : p->tm;
	s->F = own->stages ? own->stages : 1;
	s->L = (s->tall ? p->tm : p->tn) / s->F;
	s->T = p->tx;
	s->W = s->T / 32;
	s->RW = own->kw ? own->kw : s->KT < 4 ? s->KT : 4;
	s->LW = s->RW ? 32 / s->RW : 0;
	s->CH = s->L * s->es / 16;
	s->S = s->LW && s->W ? s->CH / (s->LW * s->W) : 0;
	s->P = s->RW ? s->KT / s->RW : 0;
	s->nd = s->es >= 8 ? 2 : 4;
	s->G = own->pack && s->es <= 2 ? 4 / s->es : 1;
	s->RG = s->KT | 1, s->RB = s->RG * 16;
	if (s->S && s->P && s->S <= SK_MAX_S && s->P <= SK_MAX_P && s->CH % (s->LW * s->W) == 0)
		pick_region(s);
}

static unsigned smem_bytes(const sk *s) { return (s->CH + 2) * s->RB; }

static int validate(const tp_params *p, char *err, size_t errlen)
{
	const tp_skinny *own = tp_skinny_of(p);
	if (p->foreign || p->group)
		FAIL("skinny: a skinny kernel takes no smem, major, coalesce, grid, group, swizzle_mask, wide_realign, shear, dyn_smem or hints"
		     " (it stages its runs in shared memory its own way)");
	unsigned es = p->elem / 8;
	if (p->vec != 1 && p->vec * es != 16)
		FAIL("vec: a skinny kernel moves 16-byte granules (vec %u for %u-bit elements, or leave it out)",
		     16 / es, p->elem);
	if (p->ty != 1 || !pow2(p->tx) || p->tx < 32 || p->tx > 1024)
		FAIL("threads: a skinny kernel takes {N, 1}, N a power of two from 32 to 1024");
	if (!pow2(p->tm) || !pow2(p->tn) || p->tm > 65536 || p->tn > 65536)
		FAIL("tile: %ux%u must be powers of two, at most 65536", p->tm, p->tn);
	if (own->stages && (!pow2(own->stages) || own->stages > (own->shape == SK_TALL ? p->tm : p->tn)))
		FAIL("stages: %u must be a power of two that divides the tile's long side", own->stages);
	sk s;
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	const char *ks = s.tall ? "columns" : "rows";
	if (s.KT > 256)
		FAIL("tile: %u %s (the small dimension a tile takes) is more than 256", s.KT, ks);
	if (!pow2(s.RW) || s.RW > 32 || s.RW > s.KT)
		FAIL("kw: %u lanes along K must be a power of two, at most 32 and at most the tile's %u %s", s.RW, s.KT,
		     ks);
	if (s.L * es < 16 || s.CH % (s.LW * s.W))
		FAIL("tile: %u elements along the long side are %u granules of 16 bytes, not a multiple of the %u"
		     " that %u threads with kw=%u cover", s.L, s.CH, s.LW * s.W, s.T, s.RW);
	if (own->pack && (es > 2 || s.P % s.G))
		FAIL("pack: 1- and 2-byte elements only, with %u passes along K (kmax/kw) a multiple of %u", s.P,
		     es <= 2 ? 4 / es : 1);
	if (s.S > SK_MAX_S || s.P > SK_MAX_P || s.P * s.V > 64 || s.P * (s.S + 1) * 16 > 256)
		FAIL("tile: %ux%u gives a thread %u granules in %u lines, too many for registers", p->tm, p->tn,
		     s.S * s.P, s.P);
	if (smem_bytes(&s) > STATIC_SMEM_LIMIT)
		FAIL("tile: %ux%u needs %u bytes of shared memory, over the %u-byte static limit", p->tm, p->tn,
		     smem_bytes(&s), STATIC_SMEM_LIMIT);
	return 0;
}

/* The bank model at K = kmax, lines aligned: the scatter (wide) or gather
 * (tall) per element (packed: per word of G elements), and the run's
 * granules. */
static void model(const sk *s, bank_report *r)
{
	memset(r, 0, sizeof *r);
	bank_acc *el = &r->acc[0], *run = &r->acc[1];
	r->n = 2;
	/* the element accesses first when they are the stores (wide) */
	if (s->tall) {
		bank_acc t = *el;
		*el = *run, *run = t;
		el = &r->acc[1], run = &r->acc[0];
	}
	snprintf(el->id, sizeof el->id, "%s", s->tall ? "gather" : "scatter");
	el->store = !s->tall;
	el->bytes = s->es * s->G;
	el->ideal = el->bytes < 4 ? 1 : el->bytes / 4;
	snprintf(run->id, sizeof run->id, "run");
	run->store = s->tall;
	run->bytes = 16;
	run->ideal = 4;
	for (unsigned w = 0; w < s->W; w++)
		for (unsigned p = 0; p < s->P; p += s->G)
			for (unsigned k = 0; k < s->S; k++)
				for (unsigned e = 0; e < s->V; e++) {
					unsigned addr[32];
					for (unsigned l = 0; l < 32; l++) {
						unsigned rl = l % s->RW, ch = l / s->RW + s->LW * (w + s->W * k);
						addr[l] = (ch + 1) * s->RB + (e * s->KT + s->G * rl + sk_line_off(s, p)) * s->es;
					}
					unsigned wf = bank_wavefronts(addr, 32, el->bytes);
					el->requests++, el->total += wf;
					el->worst = wf > el->worst ? wf : el->worst;
				}
	unsigned n = s->L * s->KT * s->es / 16; /* run granules g, region g / KT */
	for (unsigned g0 = 0; g0 < n; g0 += 32) {
		unsigned addr[32];
		for (unsigned l = 0; l < 32; l++) {
			unsigned g = g0 + l < n ? g0 + l : g0;
			addr[l] = (g / s->KT + 1) * s->RB + g % s->KT * 16;
		}
		unsigned wf = bank_wavefronts(addr, 32, 16);
		run->requests++, run->total += wf;
		run->worst = wf > run->worst ? wf : run->worst;
	}
}

static void header(const tp_params *p, strbuf *h)
{
	sk s;
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. The small-dimension family, %s: a %s input, K (its %s)\n"
		     "// set at run time, up to %u a tile (a larger K takes more tiles). A tile of\n"
		     "// %ux%u moves in %u stages of %u along the long side: %u 16-byte granules of\n"
		     "// each of the K %s, staged in shared memory in the order of the run of\n"
		     "// %u x K elements that the %s holds when its leading dimension is K; the run\n"
		     "// moves as whole granules. %u threads, %u lanes along K. Design: gen/tp_skinny.c.\n",
		  p->elem, s.tall ? "tall" : "wide", s.tall ? "N x K" : "K x N", s.tall ? "columns" : "rows", s.KT,
		  p->tm, p->tn, s.F, s.L, s.CH, s.tall ? "output rows" : "input rows", s.L, s.tall ? "input" : "output",
		  s.T, s.RW);
	sb_printf(h, "// Kernel ABI v%u (docs/DESIGN.md): a block steps by the grid over tile columns,\n"
		     "// tile rows and matrices, so any grid covers any shape.\n", p->abi);
	sb_printf(h, "//\n// ptxpose kernel=%s abi=%u elem=%u grid=tile tile=%ux%u block=%ux1\n", p->name, p->abi,
		  p->elem, p->tm, p->tn, s.T);
	sb_printf(h, "// ptxpose skinny=%s kmax=%u kw=%u stages=%u vec=%u smem=runs smem_bytes=%u region=%u per_thread=%u",
		  s.tall ? "tall" : "wide", s.KT, s.RW, s.F, s.V, smem_bytes(&s), s.RB, s.P * s.S * s.V);
	if (s.G > 1)
		sb_printf(h, " pack=%u", s.G);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
	/* for the plan's cost model (lib/README.md): the run moves as 16-byte
	 * granules only when it is contiguous; the long lines are realigned;
	 * a tile with fewer than kmax of its K lines is still an interior tile */
	sb_printf(h, "// ptxpose family=skinny_%s%s fast_align=16 fast_needs=%s realign=%s edge=%s\n",
		  s.tall ? "tall" : "wide", tp_skinny_of(p)->study ? " study=1" : "", s.tall ? "packed_in" : "packed_out",
		  s.tall ? "st" : "ld", s.tall ? "rows" : "cols");
	bank_report br;
	model(&s, &br);
	for (int i = 0; i < br.n; i++)
		sb_printf(h, "// ptxpose-smem id=%s op=%s bytes=%u wavefronts=%u ideal=%u requests=%u total=%u\n",
			  br.acc[i].id, br.acc[i].store ? "st" : "ld", br.acc[i].bytes, br.acc[i].worst,
			  br.acc[i].ideal, br.acc[i].requests, br.acc[i].total);
}

/* ---- the kernel -------------------------------------------------------- */

/* Per matrix: which side is which, and whether the run is contiguous
 * (ld == K <= kmax) and aligned. */
/* The tile's first short and long index: the walk's tile row and column. */
static sk *tile_of(em *e)
{
	sk *s = (sk *)e;
	s->kfirst = s->tall ? e->c0 : e->r0;
	return s;
}

static void on_matrix(em *e)
{
	sk *s = tile_of(e);
	ptxb *b = e->b;
	const char *t = s->tmp[0];
	ptxb_note(b, "the line side and the run side of this matrix; is the run one aligned piece?");
	ptxb_op(b, NULL, "mov.b64", "%s, %s", s->line_base, s->tall ? e->out : e->in);
	ptxb_op(b, NULL, "mov.b64", "%s, %s", s->run_base, s->tall ? e->in : e->out);
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, %s", s->run_fast, s->ld_run, s->stotal);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %u, %s", s->run_fast, s->stotal, s->KT, s->run_fast);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", t, s->run_base);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 15", t, t);
	ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", s->run_fast, t, s->run_fast);
	if (s->tall)
		ptxb_op(b, NULL, "mov.u32", "%s, 0xffffffff", s->cached_k);
}

/* wide: the lines change with the tile row. */
static void on_row(em *e)
{
	sk *s = tile_of(e);
	if (!s->tall)
		sk_line_setup(s);
}

/* tall: the lines change with the tile column (the short side), which is
 * the same for every tile row when K <= kmax: set up again only then. */
static void on_tile(em *e)
{
	sk *s = tile_of(e);
	ptxb *b = e->b;
	if (s->tall) {
		ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, %s", s->pe, s->kfirst, s->cached_k);
		ptxb_op(b, s->pe, "bra.uni", "LINES_READY");
		sk_line_setup(s);
		ptxb_op(b, NULL, "mov.u32", "%s, %s", s->cached_k, s->kfirst);
		ptxb_label(b, "LINES_READY");
	}
}

static void declare(sk *s)
{
	ptxb *b = s->e.b;
	em *e = &s->e;
	s->lane = ptxb_reg(b, "b32", "lane", "lane");
	s->warp = ptxb_reg(b, "b32", "warp", "warp");
	s->rl = ptxb_reg(b, "b32", "this lane's line in a pass (lanes along K)", "line_lane");
	s->chl = ptxb_reg(b, "b32", "this lane's chunk in its warp (lanes along the long side)", "chunk_lane");
	s->head = ptxb_reg(b, "pred", "warp 0, chunk 0: the head and extra granules' lanes", "head");
	ptxb_reg(b, "pred", "not the head lanes", "not_head");
	ptxb_reg(b, "pred", "warp 0", "warp0");
	ptxb_reg(b, "pred", "the extra granule's elements are this lane's", "extra_ok");
	ptxb_reg(b, "b32", "16 x this thread's first chunk", "chunk_off");
	ptxb_reg(b, "b32", "V x this thread's first chunk", "chunk_elem");
	ptxb_reg(b, "b32", "a line's first long position in this thread's chunk", "xbase");
	s->sbase = ptxb_reg(b, "b32", "shared base", "smem");
	ptxb_reg(b, "b32", "region 0: shared base + one region", "run_smem");
	s->rbase = ptxb_reg(b, "b32", "the region of this thread's first chunk", "region");
	s->kt = ptxb_reg(b, "b32", "Kt: the tile's short extent", "kt");
	s->ktb = ptxb_reg(b, "b32", "Kt x element bytes", "kt_bytes");
	s->magic = ptxb_reg(b, "b32", "ceil(2^31 / Kt): mul.hi(2x, it) = x / Kt", "kt_magic");
	s->gap = ptxb_reg(b, "b32", "bytes between two chunks' runs in shared memory", "region_gap");
	s->tn = ptxb_reg(b, "b32", "the stage's long extent", "tn");
	s->lfirst = ptxb_reg(b, "b32", "the stage's first long index", "stage");
	ptxb_reg(b, "b32", "the tile's end along the long side", "tile_end");
	s->line_base = ptxb_reg(b, "b64", "this matrix's line side (wide: in; tall: out)", "line_side");
	s->run_base = ptxb_reg(b, "b64", "this matrix's run side (wide: out; tall: in)", "run_side");
	s->run_fast = ptxb_reg(b, "pred", "the run is contiguous and aligned", "run_fast");
	s->realign = ptxb_reg(b, "pred", "whole granules for the lines", "granules");
	if (s->G > 1) {
		s->packed = ptxb_reg(b, "pred", "the scatter or gather moves words of neighbouring lines", "packed");
		s->ea = ptxb_reg(b, "b32", "an element's shared address (the lines without address registers)", "ea");
		s->eap = ptxb_reg(b, "pred", NULL, "ea_hi");
		for (int i = 0; i < 4; i++)
			s->pk[i] = ptxb_reg(b, "b32", i ? NULL : "a packed word in flight", "pk%d", i);
	}
	if (s->tall)
		s->cached_k = ptxb_reg(b, "b32", "the short index the lines were set up for", "lines_for");
	ptxb_reg(b, "b32", "run byte", "run_i");
	ptxb_reg(b, "b32", "run bytes", "run_n");
	ptxb_reg(b, "b32", "shared address in the run", "run_addr");
	ptxb_reg(b, "b64", "the run's start in global memory", "run_start");
	for (int i = 0; i < 4; i++)
		s->tmp[i] = ptxb_reg(b, "b32", i ? NULL : "scratch", "t%d", i);
	s->tmp64 = ptxb_reg(b, "b64", NULL, "t64");
	s->pe = ptxb_reg(b, "pred", "scratch predicate", "p");
	for (unsigned j = 0; j < s->P * s->S; j++) {
		s->phys[j] = ptxb_reg(b, "b32", j ? NULL : "shared address of this thread's run granule j", "rg%u", j);
		s->rok[j] = ptxb_reg(b, "pred", j ? NULL : "run granule j is whole in the stage", "rg_ok%u", j);
	}
	for (unsigned p = 0; p < s->P; p++) {
		s->rowok[p] = ptxb_reg(b, "pred", p ? NULL : "line p of this thread exists", "line_ok%u", p);
		s->line[p] = ptxb_reg(b, "b64", p ? NULL : "line p's start (global)", "line%u", p);
		s->gb[p] = ptxb_reg(b, "b64", p ? NULL : "line p's granule of this thread's first chunk", "granule%u", p);
		s->m[p] = ptxb_reg(b, "b32", p ? NULL : "line p's misalignment in elements", "mis%u", p);
		if (p % s->G) {
			s->alo[p] = ptxb_reg(b, "b32", NULL, "alo%u", p);
			s->ahi[p] = ptxb_reg(b, "b32", NULL, "ahi%u", p);
		}
		for (unsigned v = 0; v < s->V && p % s->G == 0; v++)
			s->addr[p][v] = ptxb_reg(b, "b32", p + v ? NULL : "shared address of element e of line p's chunk",
						 "a%u_%u", p, v);
		for (unsigned k = 0; k <= s->S; k++)
			for (unsigned u = 0; u < s->nd; u++)
				s->d[p][k][u] = ptxb_reg(b, s->nd == 4 ? "b32" : "b64",
							 p + k + u ? NULL : "line p, slot k (S: the extra granule), word u",
							 "d%u_%u_%u", p, k, u);
	}
	(void)e;
}

static void setup_thread(sk *s)
{
	ptxb *b = s->e.b;
	em *e = &s->e;
	ptxb_group(b, "Lanes: %u along K, %u along the long side; this thread's first chunk and its region.", s->RW,
		   s->LW);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 31", s->lane, e->t);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, 5", s->warp, e->t);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", s->rl, s->lane, s->RW - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", s->chl, s->lane, tp_lg2(s->RW));
	const char *k0 = s->tmp[0];
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", k0, s->warp, s->LW, s->chl);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", ptxb_find(b, "chunk_off"), k0);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", ptxb_find(b, "chunk_elem"), k0, tp_lg2(s->V));
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", ptxb_find(b, "warp0"), s->warp);
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", s->head, k0);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", ptxb_find(b, "not_head"), k0);
	ptxb_op(b, NULL, "mov.u32", "%s, tile_smem", s->sbase);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", ptxb_find(b, "run_smem"), s->sbase, s->RB);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", s->rbase, k0, s->RB, ptxb_find(b, "run_smem"));
}

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	static sk s; /* large; the generator is single-threaded */
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	static tp_geom g;
	memset(&g, 0, sizeof g);
	g.es = s.es, g.v = 1, g.gbytes = s.es;
	em *e = &s.e;
	e->p = p, e->g = &g;
	e->shared = 1; /* the walk's barrier before the shared tile is reused */
	e->on_matrix = on_matrix, e->on_row = on_row, e->on_tile = on_tile;
	if (!(e->b = ptxb_new())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e->b;
	tp_setup(e);
	s.ltotal = s.tall ? e->rows : e->cols;
	s.stotal = s.tall ? e->cols : e->rows;
	s.ld_line = s.tall ? e->ld_out : e->ld_in;
	s.ld_run = s.tall ? e->ld_in : e->ld_out;
	declare(&s);
	ptxb_global(b, "// %u regions (a dummy each side) of %u 16-byte granules: chunk q's run at region q+1.",
		    s.CH + 2, s.RG);
	ptxb_global(b, ".shared .align 16 .b8 tile_smem[%u];", smem_bytes(&s));
	setup_thread(&s);
	tp_walk_begin(e);
	const char *tend = ptxb_find(b, "tile_end");
	ptxb_op(b, NULL, "mov.u32", "%s, %s", s.lfirst, s.tall ? e->r0 : e->c0);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", tend, s.lfirst, s.L * s.F);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %s", tend, tend, s.ltotal);
	ptxb_label(b, "STAGE");
	sk_line_tile(&s);
	if (s.tall) {
		sk_run_load(&s);
		ptxb_op(b, NULL, "bar.sync", "0");
		sk_gather_store(&s);
	} else {
		sk_line_load(&s);
		sk_scatter(&s);
		ptxb_op(b, NULL, "bar.sync", "0");
		sk_run_store(&s);
	}
	if (s.F > 1) {
		char notpe[40];
		snprintf(notpe, sizeof notpe, "!%s", s.pe);
		ptxb_group(b, "The next stage of the tile, after every thread is done with shared memory.");
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", s.lfirst, s.lfirst, s.L);
		ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s.pe, s.lfirst, tend);
		ptxb_op(b, notpe, "bra.uni", "STAGES_DONE");
		ptxb_op(b, NULL, "bar.sync", "0");
		ptxb_op(b, NULL, "bra.uni", "STAGE");
		ptxb_label(b, "STAGES_DONE");
	}
	tp_walk_end(e);
	return tp_finish(b, p, header, 1, out, err, errlen);
}

const char *const sk_shape_names[] = {[0] = "no", [SK_WIDE] = "wide", [SK_TALL] = "tall", NULL};

static const tp_param params[] = {
	TP_OPTION("skinny", sk_shape_names, tp_skinny, shape),
	TP_INT("kw", 0, 0, 32, tp_skinny, kw),
	TP_INT("stages", 0, 0, 64, tp_skinny, stages),
	TP_BOOL("pack", tp_skinny, pack),
	TP_BOOL("study", tp_skinny, study),
	TP_END,
};

_Static_assert(sizeof(tp_skinny) <= TP_OWN_MAX, "tp_skinny fits in tp_params.own");

const tp_family tp_family_skinny = {
	.name = "skinny",
	.select_key = "skinny",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
