/* tp_skinny_reg: the register kernels of the small-dimension family:
 * 1- and 2-byte elements, a wide K x N input to N x K or
 * a tall N x K input to K x N, K set at run time, up to kmax a tile (a
 * larger K takes more tiles), no shared memory.
 *
 * Why. The shared-memory skinny kernels (gen/tp_skinny.h) spend one shared
 * access per element (packed: per 4/es elements) between two sides that
 * move as 16-byte granules. Here the transposition stays in registers: a
 * G x G block of elements inside a word (G = 4/es) is transposed with
 * prmt, and a 4x4 block of words among the four lanes of a quad with two
 * butterflies of shfl.sync (wx_quad_xpose, gen/tp_warp.c), so that both
 * global sides still move as 16-byte granules.
 *
 * Layout. The long side is K lines of long positions (wide: the input rows;
 * tall: the output rows), the short side N runs of K elements (wide: the
 * output rows; tall: the input rows). Lane 4 x (q + QK x p) + j of a warp,
 * QK = kmax x es / 16 quads along K (q) and LL = 8 / QK lane positions along
 * the long side (p):
 *   - holds lines q x V + j x G .. + G - 1 of the tile (V = 16/es, so a
 *     quad covers 16 bytes of K), long positions col .. col + V - 1, col =
 *     (warp x LL + p) x V, and R repeats W x LL x V positions apart (the
 *     tile's long side L = R x W x LL x V): one 16-byte granule a line and
 *     repeat, lanes along the long side contiguous;
 *   - holds the runs col + 4m + j (m < V/4) of the same repeats, bytes
 *     16q .. 16q + 15 of each: one granule a run.
 * Wide: the G line granules load (v4); per word column, prmt turns G words
 * of lines into G words of runs (G elements of K each); a quad transpose of
 * each group of four runs leaves lane j with 16 contiguous bytes of run
 * col + 4m + j, stored as one v4 (or predicated words at K's end, or where
 * the run side is only word-aligned). Tall is the mirror: the runs load
 * (v4 or words), quad transposes, prmt, the line granules store (v4).
 *
 * The fast path runs on a tile whose long side is inside the matrix, for a
 * matrix whose line side (pointer and pitch) is 16-byte aligned, whose run
 * side is 4-byte aligned and K x es a multiple of 4 (so a lane's G lines
 * are all in K or all past it, and a run's words end where K does); its
 * run segments move as v4 where the run side is 16-byte aligned and the
 * segment whole in K, else as predicated 8-byte halves (an 8-byte aligned
 * run side, such as runs of 24 bytes) or words; a tile whose every
 * segment is whole (a uniform test) skips the words' instructions. Every
 * other tile (an edge of the long side, odd K, misaligned pointers or
 * pitches) moves element by element, predicated, in a loop every thread
 * of the block runs the same number of times. On the register path a lane whose lines are past K
 * (or whose run words are) leaves its loaded words as they were, undefined
 * at first: what it sends through the quad lands only on bytes past K,
 * which no lane stores. The metadata says study=1 when asked: no plan
 * picks such a kernel; it runs when named. Else its fast_k= says where a
 * plan ranks it (lib/pick.c).
 *
 * Not here: odd K x es. Its runs start off word alignment (row c of a
 * packed output at c x K bytes), so a segment would go out as predicated
 * bytes or halves (a shift and a test each), and at K = 17 a tile of kmax
 * 16 or 32 holds half-idle lanes: more instructions a byte than the shared
 * kernels' one access (lab/TUNING.md, the skinny 1- and 2-byte kernels). */
#include <stdio.h>
#include <string.h>

#include "gen/tp_skinny.h"
#include "gen/tp_warp.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
#define SR_MAX_R 4

/* The family's own parameters (in tp_params.own). */
typedef struct {
	int shape; /* SK_WIDE or SK_TALL: the skinny parameter, as the shared-memory family's */
	int study; /* metadata study=1 */
} tp_skinny_reg;

_Static_assert(sizeof(tp_skinny_reg) <= TP_OWN_MAX, "tp_skinny_reg fits in tp_params.own");

static const tp_skinny_reg *own_of(const tp_params *p) { return (const tp_skinny_reg *)(const void *)p->own.bytes; }

typedef struct {
	wx x; /* first: x.e is the walk's state; wx_quad_xpose's quad bits and words */
	int tall;
	unsigned es, G, V, KT, L, T, W, QK, LL, R;
	const char *ltot, *ktot, *ld_line, *ld_run; /* the matrix's extents and pitches, by side */
	const char *k0, *l0;                        /* the tile's first short and long index */
	const char *koff, *kqb, *kqe, *col, *colj;  /* the lane's place (see below) */
	const char *pline, *prun;                   /* b64: the pitches in bytes */
	const char *line_side, *run_side;           /* b64: this matrix's sides */
	const char *mfast, *run16, *nrun16, *run8, *nrun8; /* pred, per matrix */
	const char *fast, *rowok, *full, *nfull, *wok[4]; /* pred, per tile */
	const char *dok[2], *ndok[2], *r8, *nr8;    /* pred, per tile: a part segment's 8-byte halves */
	const char *allfull;                        /* pred: every run segment of the tile is whole (uniform) */
	const char *krem;                           /* bytes of K from the tile's first short index */
	const char *la[4];                          /* b64: line g's address (repeat 0) */
	const char *ra[SR_MAX_R][4];                /* b64: run 4m + j's address, repeat r */
	const char *t64, *tmp, *pk[4];
	const char *ln[SR_MAX_R][4][4];             /* repeat r, line g, word w */
	const char *rn[SR_MAX_R][4][4];             /* repeat r, run group m, word u */
} sr;

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

/* The geometry of (possibly unvalidated) parameters: nothing divides by 0. */
static void geometry(sr *s, const tp_params *p)
{
	s->tall = own_of(p)->shape == SK_TALL;
	s->es = p->elem == 16 ? 2 : 1;
	s->G = 4 / s->es;
	s->V = 16 / s->es;
	s->KT = s->tall ? p->tn : p->tm;
	s->L = s->tall ? p->tm : p->tn;
	s->T = p->tx;
	s->W = s->T / 32 ? s->T / 32 : 1;
	s->QK = s->KT * s->es / 16 ? s->KT * s->es / 16 : 1;
	s->LL = 8 / s->QK ? 8 / s->QK : 1;
	s->R = s->L / (s->W * s->LL * s->V);
}

static int validate(const tp_params *p, char *err, size_t errlen)
{
	const tp_skinny_reg *own = own_of(p);
	if (p->foreign || p->group)
		FAIL("family: a skinny_reg kernel takes no smem, major, coalesce, grid, group, swizzle_mask, hints,"
		     " wide_realign, shear, dyn_smem, kw, stages or pack (it moves its tile in registers)");
	if (own->shape != SK_WIDE && own->shape != SK_TALL)
		FAIL("skinny: a skinny_reg kernel is \"wide\" (K x N in) or \"tall\" (N x K in)");
	if (p->elem > 16) /* the common checks allow the widths; this family packs 1- and 2-byte ones */
		FAIL("elem: a skinny_reg kernel moves 8- or 16-bit elements, not %u", p->elem);
	if (p->vec != 1 && p->vec * p->elem != 128)
		FAIL("vec: a skinny_reg kernel moves 16-byte granules (vec %u, or leave it out)", 128 / p->elem);
	if (p->ty != 1 || !pow2(p->tx) || p->tx < 32 || p->tx > 1024)
		FAIL("threads: a skinny_reg kernel takes {N, 1}, N a power of two from 32 to 1024");
	sr s;
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	if (!pow2(p->tm) || !pow2(p->tn) || p->tm > 65536 || p->tn > 65536)
		FAIL("tile: %ux%u must be powers of two, at most 65536", p->tm, p->tn);
	if (s.KT * s.es < 16 || s.KT * s.es > 128)
		FAIL("tile: the small dimension of a tile (kmax %u) must be 16 to 128 bytes", s.KT);
	unsigned unit = s.W * s.LL * s.V;
	if (s.L % unit || s.R < 1 || s.R > SR_MAX_R)
		FAIL("tile: the long side %u must be 1 to %u times the %u positions that %u threads cover at kmax %u",
		     s.L, SR_MAX_R, unit, s.T, s.KT);
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	sr s;
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
		     "// in elements. The small-dimension family in registers, %s: a %s input,\n"
		     "// K (its %s) set at run time, up to %u a tile (a larger K takes more tiles).\n"
		     "// No shared memory: a thread holds %u lines' 16-byte granules (%u repeats),\n"
		     "// prmt transposes %ux%u elements a word, a quad's shfl.sync 4x4 words, and\n"
		     "// the runs of K move as 16-byte granules or words. Aligned interior tiles\n"
		     "// with K x %u a multiple of 4 take that path; every other tile moves\n"
		     "// element by element. %u threads. Design: gen/tp_skinny_reg.c.\n",
		  p->elem, s.tall ? "tall" : "wide", s.tall ? "N x K" : "K x N", s.tall ? "columns" : "rows", s.KT,
		  s.G, s.R, s.G, s.G, s.es, s.T);
	sb_printf(h, "// Kernel ABI v%u (docs/DESIGN.md): a block steps by the grid over tile columns,\n"
		     "// tile rows and matrices, so any grid covers any shape.\n", p->abi);
	sb_printf(h, "//\n// ptxpose kernel=%s abi=%u elem=%u grid=tile tile=%ux%u block=%ux1\n", p->name, p->abi,
		  p->elem, p->tm, p->tn, s.T);
	sb_printf(h, "// ptxpose skinny=%s kmax=%u vec=%u smem=none per_thread=%u", s.tall ? "tall" : "wide", s.KT,
		  s.V, s.R * s.G * s.V);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
	/* for the plan (lib/README.md): the fast path needs the line side
	 * 16-byte aligned (fast_align), K x es and the run side word-aligned,
	 * and, as the model counts it, a packed run (fast_needs); no realigned
	 * path; the long side's edge tiles take the element path. fast_k: the
	 * plan ranks the kernel only where K x es and the run side are
	 * multiples of it (and the line side fast_align-aligned): 8 for wide
	 * kernels, whose element path stores runs a scattered element at a
	 * time (7-18% of the copy on an H100) and whose runs stored a word at
	 * a time measured slower than the shared-memory kernels (u8 K = 12:
	 * 29% against 49%); 1 for tall ones, whose element path loads the
	 * runs and stores the lines along the long side, coalesced (f16
	 * K = 17: 91% of the copy, against 56% for the best other skinny
	 * kernel; lab/TUNING.md) */
	sb_printf(h, "// ptxpose family=skinny_%s%s fast_align=16 fast_needs=packed_%s fast_k=%u realign=none edge=%s\n",
		  s.tall ? "tall" : "wide", own_of(p)->study ? " study=1" : "", s.tall ? "in" : "out",
		  s.tall ? 1u : 8u, s.tall ? "rows" : "cols");
}

/* ---- the kernel -------------------------------------------------------- */

static void declare(sr *s)
{
	ptxb *b = s->x.e.b;
	wx *x = &s->x;
	wx_quad_declare(x);
	s->tmp = x->e.tmp = ptxb_reg(b, "b32", "scratch", "t");
	s->t64 = ptxb_reg(b, "b64", NULL, "t64");
	s->koff = ptxb_reg(b, "b32", "the lane's first line in a tile: q x V + j x G", "line_off");
	s->kqb = ptxb_reg(b, "b32", "the lane's first byte of a run segment: 16q", "seg_byte");
	s->kqe = ptxb_reg(b, "b32", "... in elements: q x V", "seg_elem");
	s->col = ptxb_reg(b, "b32", "the lane's first long position in a tile", "col");
	s->colj = ptxb_reg(b, "b32", "... plus j: the lane's first run", "col_run");
	s->pline = ptxb_reg(b, "b64", "the line side's pitch in bytes", "line_pitch");
	s->prun = ptxb_reg(b, "b64", "the run side's pitch in bytes", "run_pitch");
	s->line_side = ptxb_reg(b, "b64", "this matrix's line side (wide: in; tall: out)", "line_side");
	s->run_side = ptxb_reg(b, "b64", "this matrix's run side (wide: out; tall: in)", "run_side");
	s->mfast = ptxb_reg(b, "pred", "the matrix's sides allow the register path", "matrix_fast");
	s->run16 = ptxb_reg(b, "pred", "the run side is 16-byte aligned", "run16");
	s->nrun16 = ptxb_reg(b, "pred", NULL, "not_run16");
	s->run8 = ptxb_reg(b, "pred", "the run side is 8-byte aligned", "run8");
	s->nrun8 = ptxb_reg(b, "pred", NULL, "not_run8");
	s->fast = ptxb_reg(b, "pred", "this tile takes the register path", "fast");
	s->rowok = ptxb_reg(b, "pred", "the lane's lines are in K", "lines_ok");
	s->full = ptxb_reg(b, "pred", "the lane's run segments are whole 16-byte granules", "seg_full");
	s->nfull = ptxb_reg(b, "pred", NULL, "seg_part");
	s->allfull = ptxb_reg(b, "pred", "every run segment of the tile is whole and 16-byte aligned", "segs_whole");
	for (unsigned w = 0; w < 4; w++)
		s->wok[w] = ptxb_reg(b, "pred", w ? NULL : "a part segment's word w is in K (and its half is not)", "word_ok%u", w);
	for (unsigned h = 0; h < 2; h++) {
		s->dok[h] = ptxb_reg(b, "pred", h ? NULL : "a part segment's half h: 8 bytes in K, 8-byte aligned", "half_ok%u", h);
		s->ndok[h] = ptxb_reg(b, "pred", NULL, "half_no%u", h);
	}
	s->r8 = ptxb_reg(b, "pred", "8-byte runs, segment not whole", "part8");
	s->nr8 = ptxb_reg(b, "pred", NULL, "part_no8");
	s->krem = ptxb_reg(b, "b32", "bytes of K from the tile's first short index", "k_bytes");
	for (unsigned g = 0; g < s->G; g++)
		s->la[g] = ptxb_reg(b, "b64", g ? NULL : "line g's granule address, repeat 0", "line_addr%u", g);
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned m = 0; m < s->V / 4; m++)
			s->ra[r][m] = ptxb_reg(b, "b64", r + m ? NULL : "run 4m + j's segment address, repeat r",
					       "run_addr%u_%u", r, m);
	for (unsigned i = 0; i < 4 && s->G == 4; i++)
		s->pk[i] = ptxb_reg(b, "b32", i ? NULL : "the prmt transpose's words in flight", "pk%u", i);
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned u = 0; u < 4; u++) {
			for (unsigned g = 0; g < s->G; g++)
				s->ln[r][g][u] = ptxb_reg(b, "b32", r + g + u ? NULL : "repeat r, line g, word w", "l%u_%u_%u",
							  r, g, u);
			for (unsigned m = 0; m < s->V / 4; m++)
				s->rn[r][m][u] = ptxb_reg(b, "b32", r + m + u ? NULL : "repeat r, runs 4m.., word u",
							  "r%u_%u_%u", r, m, u);
		}
}

/* What depends on the thread alone. */
static void setup_thread(sr *s)
{
	ptxb *b = s->x.e.b;
	wx *x = &s->x;
	const char *t = s->tmp;
	const char *j = ptxb_reg(b, "b32", "the lane's place in its quad", "quad_lane");
	const char *q = ptxb_reg(b, "b32", "the lane's quad along K", "quad_k");
	ptxb_group(b, "Lane %% 4: j; the next %u bit(s): the quad along K; the rest, with the warp: the long"
		      " position.", tp_lg2(s->QK));
	wx_quad_setup(x);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 3", j, x->lane);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, 2", q, x->lane);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", q, q, s->QK - 1);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", s->kqb, q);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", s->kqe, q, tp_lg2(s->V));
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", s->koff, j, s->G, s->kqe);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", t, x->lane, 2 + tp_lg2(s->QK));
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", t, x->warp, s->LL, t);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", s->col, t, tp_lg2(s->V));
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", s->colj, s->col, j);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", s->pline, s->ld_line, s->es);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", s->prun, s->ld_run, s->es);
}

/* Per matrix: the sides, and whether they allow the register path. */
static void on_matrix(em *e)
{
	sr *s = (sr *)e;
	ptxb *b = e->b;
	const char *t = s->tmp, *u = ptxb_find(b, "t_run");
	ptxb_note(b, "the line side and the run side; their alignment (line: 16 bytes; run: 4 or 16)");
	ptxb_op(b, NULL, "mov.b64", "%s, %s", s->line_side, s->tall ? e->out : e->in);
	ptxb_op(b, NULL, "mov.b64", "%s, %s", s->run_side, s->tall ? e->in : e->out);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", t, s->line_side);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", u, s->pline);
	ptxb_op(b, NULL, "or.b32", "%s, %s, %s", t, t, u);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 15", t, t);
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", s->mfast, t);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", t, s->run_side);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", u, s->prun);
	ptxb_op(b, NULL, "or.b32", "%s, %s, %s", t, t, u);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 15", u, t);
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", s->run16, u);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", s->nrun16, u);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 7", u, t);
	ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", s->run8, u);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", s->nrun8, u);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", u, s->ktot, s->es);
	ptxb_op(b, NULL, "or.b32", "%s, %s, %s", t, t, u);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 3", t, t);
	ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, 0, %s", s->mfast, t, s->mfast);
}

/* The tile's predicates and addresses on the register path. */
static void tile_setup(sr *s)
{
	ptxb *b = s->x.e.b;
	const char *t = s->tmp;
	ptxb_group(b, "The lane's lines in K? Its run segments whole, or which words? The addresses.");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->k0, s->koff);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s->rowok, t, s->ktot);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", s->t64, t);
	ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", s->la[0], s->t64, s->pline);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->l0, s->col);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", s->t64, t, s->es);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->la[0], s->la[0], s->t64);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->la[0], s->la[0], s->line_side);
	for (unsigned g = 1; g < s->G; g++)
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->la[g], s->la[g - 1], s->pline);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", s->krem, s->ktot, s->k0);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", s->krem, s->krem, s->es);
	ptxb_op(b, NULL, "setp.ge.and.u32", "%s, %s, %u, %s", s->allfull, s->krem, s->KT * s->es, s->run16);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->l0, s->colj);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", s->t64, t);
	ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", s->ra[0][0], s->t64, s->prun);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->k0, s->kqe);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", s->t64, t, s->es);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->ra[0][0], s->ra[0][0], s->t64);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->ra[0][0], s->ra[0][0], s->run_side);
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned m = 0; m < s->V / 4; m++)
			if (r + m)
				ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %u, %s", s->ra[r][m], s->prun,
					r * s->W * s->LL * s->V + 4 * m, s->ra[0][0]);
}

/* The line granules of every repeat: loads (wide) or stores (tall). */
static void line_access(sr *s, int store)
{
	ptxb *b = s->x.e.b;
	char a[64];
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned g = 0; g < s->G; g++) {
			const char *const *w = s->ln[r][g];
			tp_addr(a, sizeof a, s->la[g], r * s->W * s->LL * 16);
			if (store)
				ptxb_op(b, s->rowok, "st.global.v4.b32", "%s, {%s, %s, %s, %s}", a, w[0], w[1], w[2], w[3]);
			else
				ptxb_op(b, s->rowok, "ld.global.v4.b32", "{%s, %s, %s, %s}, %s", w[0], w[1], w[2], w[3], a);
		}
}

/* A tile with a part segment: which of the lane's segments are whole
 * granules, which 8-byte halves and which words are in K. */
static void part_predicates(sr *s)
{
	ptxb *b = s->x.e.b;
	const char *t = s->tmp;
	ptxb_op(b, NULL, "add.u32", "%s, %s, 16", t, s->kqb);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", s->full, t, s->krem, s->run16);
	ptxb_op(b, NULL, "setp.gt.or.u32", "%s, %s, %s, %s", s->nfull, t, s->krem, s->nrun16);
	ptxb_op(b, NULL, "and.pred", "%s, %s, %s", s->r8, s->run8, s->nfull);
	ptxb_op(b, NULL, "or.pred", "%s, %s, %s", s->nr8, s->nrun8, s->full);
	for (unsigned h = 0; h < 2; h++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s->kqb, 8 * h + 8);
		ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", s->dok[h], t, s->krem, s->r8);
		ptxb_op(b, NULL, "setp.gt.or.u32", "%s, %s, %s, %s", s->ndok[h], t, s->krem, s->nr8);
	}
	for (unsigned w = 0; w < 4; w++) {
		const char *a = s->kqb;
		if (w) {
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s->kqb, 4 * w);
			a = t;
		}
		ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", s->wok[w], a, s->krem, s->nfull);
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", s->wok[w], s->wok[w], s->ndok[w / 2]);
	}
}

/* The run segments of every repeat: loads (tall) or stores (wide), whole
 * granules where they can be, else 8-byte halves in K where the run side is
 * 8-byte aligned, else the words in K; where the tile's every segment is
 * whole (a uniform test), the granules alone. */
static void run_access(sr *s, int store)
{
	ptxb *b = s->x.e.b;
	char a[64], notall[40];
	snprintf(notall, sizeof notall, "!%s", s->allfull);
	ptxb_op(b, notall, "bra.uni", "RUN_PARTS");
	for (int part = 0; part < 2; part++) {
		if (part) {
			ptxb_label(b, "RUN_PARTS");
			part_predicates(s);
		}
		for (unsigned r = 0; r < s->R; r++)
			for (unsigned m = 0; m < s->V / 4; m++) {
				const char *const *w = s->rn[r][m];
				const char *g = part ? s->full : NULL;
				tp_addr(a, sizeof a, s->ra[r][m], 0);
				if (store)
					ptxb_op(b, g, "st.global.v4.b32", "%s, {%s, %s, %s, %s}", a, w[0], w[1], w[2], w[3]);
				else
					ptxb_op(b, g, "ld.global.v4.b32", "{%s, %s, %s, %s}, %s", w[0], w[1], w[2], w[3], a);
				for (unsigned h = 0; h < 2 && part; h++) {
					tp_addr(a, sizeof a, s->ra[r][m], 8 * h);
					if (store)
						ptxb_op(b, s->dok[h], "st.global.v2.b32", "%s, {%s, %s}", a, w[2 * h], w[2 * h + 1]);
					else
						ptxb_op(b, s->dok[h], "ld.global.v2.b32", "{%s, %s}, %s", w[2 * h], w[2 * h + 1], a);
				}
				for (unsigned u = 0; u < 4 && part; u++) {
					tp_addr(a, sizeof a, s->ra[r][m], 4 * u);
					if (store)
						ptxb_op(b, s->wok[u], "st.global.b32", "%s, %s", a, w[u]);
					else
						ptxb_op(b, s->wok[u], "ld.global.b32", "%s, %s", w[u], a);
				}
			}
		if (!part)
			ptxb_op(b, NULL, "bra.uni", "RUN_READY");
	}
	ptxb_label(b, "RUN_READY");
}

/* prmt between the lines' words and the runs' (its own inverse): word
 * column u of the G lines of repeat r is the words of runs u x G .. u x G +
 * G - 1 (run c's word in group c / 4, place c % 4). */
static void prmt_all(sr *s, int to_runs)
{
	ptxb *b = s->x.e.b;
	ptxb_group(b, "prmt: %ux%u elements a word, between %u lines and %u runs.", s->G, s->G, s->G, s->G);
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned u = 0; u < 4; u++) {
			const char *lw[4], *rw[4];
			for (unsigned g = 0; g < s->G; g++) {
				unsigned c = u * s->G + g;
				lw[g] = s->ln[r][g][u];
				rw[g] = s->rn[r][c / 4][c % 4];
			}
			tp_prmt_xpose(b, s->es, to_runs ? lw : rw, to_runs ? rw : lw, s->pk);
		}
}

static void quads_all(sr *s)
{
	ptxb_group(s->x.e.b, "Quad transposes: four runs' words by lane become 16 bytes of one run a lane.");
	for (unsigned r = 0; r < s->R; r++)
		for (unsigned m = 0; m < s->V / 4; m++)
			wx_quad_xpose(&s->x, s->rn[r][m]);
}

/* dst = side + (a x ld + c) x es, 64-bit. */
static void elem_addr(sr *s, const char *dst, const char *side, const char *a, const char *ld, const char *c)
{
	ptxb *b = s->x.e.b;
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", dst, a, ld);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", s->t64, c);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, s->t64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, tp_lg2(s->es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, side);
}

/* Every other tile: element by element, thread t the elements t, t + T,
 * ... of the tile's rows in K (kmax at most) by L, the long index fastest;
 * the loop's bound is rounded up to T so every thread runs it as often. */
static void element_path(sr *s)
{
	ptxb *b = s->x.e.b;
	em *e = &s->x.e;
	const char *idx = ptxb_reg(b, "b32", "element path: element of the tile", "el_i");
	const char *n = ptxb_reg(b, "b32", "element path: the loop's bound", "el_n");
	const char *kr = ptxb_reg(b, "b32", "element path: the tile's lines in K", "el_k");
	const char *lr = ptxb_reg(b, "b32", "element path: long positions left in the matrix", "el_l");
	const char *k = ptxb_reg(b, "b32", "element path: the element's short index", "el_ki");
	const char *l = ptxb_reg(b, "b32", "element path: ... and long index", "el_li");
	const char *la = ptxb_reg(b, "b64", "element path: its line-side address", "el_la");
	const char *rua = ptxb_reg(b, "b64", "element path: its run-side address", "el_ra");
	const char *v = ptxb_reg(b, "b32", "element path: the element", "el_v");
	const char *in = ptxb_reg(b, "pred", "element path: the element is in the matrix", "el_in");
	const char *more = ptxb_reg(b, "pred", "element path: more elements", "el_more");
	char ld[32], st[32];
	snprintf(ld, sizeof ld, "ld.global.b%u", 8 * s->es);
	snprintf(st, sizeof st, "st.global.b%u", 8 * s->es);
	ptxb_label(b, "ELEMENTS");
	ptxb_note(b, "an edge of the long side, odd K x es, or sides off alignment: one element at a time");
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", kr, s->ktot, s->k0);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", kr, kr, s->KT);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", lr, s->ltot, s->l0);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", n, kr, tp_lg2(s->L));
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", n, n, s->T - 1);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 0x%08x", n, n, ~(s->T - 1));
	ptxb_op(b, NULL, "mov.u32", "%s, %s", idx, e->t);
	ptxb_label(b, "ELEMENT");
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", k, idx, tp_lg2(s->L));
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", l, idx, s->L - 1);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", in, k, kr);
	ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", in, l, lr, in);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", k, k, s->k0);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", l, l, s->l0);
	elem_addr(s, la, s->line_side, k, s->ld_line, l);
	elem_addr(s, rua, s->run_side, l, s->ld_run, k);
	ptxb_op(b, in, ld, "%s, [%s]", v, s->tall ? rua : la);
	ptxb_op(b, in, st, "[%s], %s", s->tall ? la : rua, v);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", idx, idx, s->T);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", more, idx, n);
	ptxb_op(b, more, "bra.uni", "ELEMENT");
}

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	static sr s; /* large; the generator is single-threaded */
	memset(&s, 0, sizeof s);
	geometry(&s, p);
	static tp_geom g;
	memset(&g, 0, sizeof g);
	g.es = s.es, g.v = 1, g.gbytes = s.es; /* the walk's own alignment test is not wanted */
	em *e = &s.x.e;
	e->p = p, e->g = &g;
	e->on_matrix = on_matrix;
	if (!(e->b = ptxb_new())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptxb *b = e->b;
	tp_setup(e);
	s.ltot = s.tall ? e->rows : e->cols;
	s.ktot = s.tall ? e->cols : e->rows;
	s.ld_line = s.tall ? e->ld_out : e->ld_in;
	s.ld_run = s.tall ? e->ld_in : e->ld_out;
	declare(&s);
	ptxb_reg(b, "b32", "scratch for the matrix's alignment", "t_run");
	setup_thread(&s);
	tp_walk_begin(e);
	s.k0 = s.tall ? e->c0 : e->r0;
	s.l0 = s.tall ? e->r0 : e->c0;
	const char *t = s.tmp;
	ptxb_group(b, "The register path on a tile inside the long side of a matrix that allows it; else the"
		      " element path.");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s.l0, s.L);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", s.fast, t, s.ltot, s.mfast);
	char notfast[40];
	snprintf(notfast, sizeof notfast, "!%s", s.fast);
	ptxb_op(b, notfast, "bra.uni", "ELEMENTS");
	tile_setup(&s);
	if (s.tall) {
		ptxb_group(b, "The runs' segments: one granule (or its words in K) a run.");
		run_access(&s, 0);
		quads_all(&s);
		prmt_all(&s, 0);
		ptxb_group(b, "The lines' granules.");
		line_access(&s, 1);
	} else {
		ptxb_group(b, "The lines' granules: %u a repeat.", s.G);
		line_access(&s, 0);
		prmt_all(&s, 1);
		quads_all(&s);
		ptxb_group(b, "The runs' segments: one granule (or its words in K) a run.");
		run_access(&s, 1);
	}
	ptxb_op(b, NULL, "bra.uni", "TILE_DONE");
	element_path(&s);
	tp_walk_end(e);
	return tp_finish(b, p, header, 1, out, err, errlen);
}

static const tp_param params[] = {
	TP_OPTION("skinny", sk_shape_names, tp_skinny_reg, shape),
	TP_BOOL("study", tp_skinny_reg, study),
	TP_END,
};

const tp_family tp_family_skinny_reg = {
	.name = "skinny_reg",
	.select_key = "family",
	.select_val = "skinny_reg",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
