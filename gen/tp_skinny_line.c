/* tp_skinny_line: the long side of a skinny kernel (gen/tp_skinny.h): K
 * lines of the tile, each L elements, moved as aligned 16-byte granules.
 *
 * A line that starts m elements past a 16-byte boundary (an odd leading
 * dimension, a pointer off alignment) is still read or written in aligned
 * granules: granule k of the line holds the tile's long positions
 * k*V + e - m (e = 0..V-1), so element e belongs to chunk k - 1 + (e >= m)
 * at position (e - m) mod V. The misalignment goes into the thread's
 * shared-memory address registers once per line (addr[p][e]); the scatter
 * (wide) and the gather (tall) then cost one shared access per element and
 * no arithmetic. A tile takes CH + 1 granules of a misaligned line; the
 * first one's leading and the last one's trailing elements belong to the
 * neighbouring tiles: loaded, they go to dummy regions; stored, they are
 * left out. Loads of whole granules stay off the tiles where they could
 * read outside the matrix (its first and last line's ends); edge tiles
 * move one predicated element at a time. */
#include <stdio.h>

#include "gen/tp_skinny.h"

/* "[reg+off]" */
static const char *at(char *buf, size_t n, const char *reg, unsigned off)
{
	return tp_addr(buf, n, reg, off);
}

/* The thread's chunk slot s is chunk k0 + LW*W*s: its bytes in a line are
 * this far from slot 0's (in shared memory: sk_slot_smem). */
static unsigned slot_line(const sk *s, unsigned slot) { return slot * s->LW * s->W * 16; }

void sk_line_setup(sk *s)
{
	ptxb *b = s->e.b;
	const char *t = s->tmp[0], *lo = s->tmp[1], *hi = s->tmp[2], *base = s->tmp[3];
	ptxb_group(b, "The tile's short extent Kt, and per line this thread holds: whether it exists, its start,"
		      " its misalignment, and the shared address of each element of its chunk.");
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", s->kt, s->stotal, s->kfirst);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", s->kt, s->kt, s->KT);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", s->ktb, s->kt, tp_lg2(s->es));
	ptxb_op(b, NULL, "div.u32", "%s, 0x7fffffff, %s", s->magic, s->kt);
	ptxb_op(b, NULL, "add.u32", "%s, %s, 1", s->magic, s->magic);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, 0xfffffff0, %u", s->gap, s->kt, s->RB);
	if (s->G > 1) {
		ptxb_note(b, "packed when Kt is a multiple of %u and every line is equally misaligned", s->G);
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", t, s->kt, s->G - 1);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", lo, s->ld_line, tp_lg2(s->es));
		ptxb_op(b, NULL, "and.b32", "%s, %s, 15", lo, lo);
		ptxb_op(b, NULL, "or.b32", "%s, %s, %s", t, t, lo);
		ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, 0", s->packed, t);
	}
	for (unsigned p = 0; p < s->P; p++) {
		if (s->G > 1)
			ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %u", t, s->rl, s->G, sk_line_off(s, p));
		else
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s->rl, s->RW * p);
		ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s->rowok[p], t, s->kt);
		ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", base, t, s->es, s->rbase);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, t, s->kfirst);
		ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", s->line[p], t, s->ld_line);
		ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", s->line[p], s->line[p], tp_lg2(s->es));
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->line[p], s->line[p], s->line_base);
		if (s->V == 1) { /* 16-byte elements: every line is aligned */
			ptxb_op(b, NULL, "mov.u32", "%s, 0", s->m[p]);
			ptxb_op(b, NULL, "mov.u32", "%s, %s", s->addr[p][0], base);
			continue;
		}
		ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", s->m[p], s->line[p]);
		ptxb_op(b, NULL, "and.b32", "%s, %s, 15", s->m[p], s->m[p]);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", s->m[p], s->m[p], tp_lg2(s->es));
		/* element e: base + (e - m)*Kt*es, plus V*Kt*es - RB (the previous
		 * chunk's region) for e < m */
		ptxb_note(b, "element e: chunk k0 - 1 + (e >= m), position (e - m) mod %u", s->V);
		ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", lo, s->m[p], s->ktb);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", lo, base, lo);
		ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", hi, s->ktb, s->V, lo);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %u", hi, hi, s->RB);
		if (p % s->G) { /* packed kernels: computed where the element path needs it */
			ptxb_op(b, NULL, "mov.b32", "%s, %s", s->alo[p], lo);
			ptxb_op(b, NULL, "mov.b32", "%s, %s", s->ahi[p], hi);
			continue;
		}
		for (unsigned e = 0; e < s->V; e++) {
			ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, %u", s->pe, s->m[p], e);
			ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", t, hi, lo, s->pe);
			ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", s->addr[p][e], s->ktb, e, t);
		}
	}
	/* the run's granules this thread moves: granule t + T*j, region (t + T*j) / Kt */
	ptxb_note(b, "this thread's run granules t + %u*j: their shared addresses", s->T);
	for (unsigned j = 0; j < s->P * s->S; j++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s->e.t, s->T * j);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, 1", lo, t);
		ptxb_op(b, NULL, "mul.hi.u32", "%s, %s, %s", lo, lo, s->magic);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", t, t);
		ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", s->phys[j], lo, s->gap, t);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", s->phys[j], s->phys[j], ptxb_find(b, "run_smem"));
	}
}

void sk_line_tile(sk *s)
{
	ptxb *b = s->e.b;
	const char *t = s->tmp[0];
	ptxb_group(b, "The tile's long extent and this thread's granule in each line; whole granules only where"
		      " they stay inside the matrix.");
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", s->tn, s->ltotal, s->lfirst);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %u", s->tn, s->tn, s->L);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", t, s->lfirst, tp_lg2(s->es));
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", s->tmp64, t);
	for (unsigned p = 0; p < s->P; p++) {
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->gb[p], s->line[p], s->tmp64);
		ptxb_op(b, NULL, "and.b64", "%s, %s, 0xfffffffffffffff0", s->gb[p], s->gb[p]);
	}
	const char *choff = ptxb_find(b, "chunk_off");
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", s->tmp64, choff);
	for (unsigned p = 0; p < s->P; p++)
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", s->gb[p], s->gb[p], s->tmp64);
	/* interior along the long side */
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", t, s->lfirst, s->L);
	ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %s", s->realign, t, s->ltotal);
	if (s->tall)
		return; /* stores leave out what is not the tile's: no reads outside */
	/* wide: the first granule of the matrix's first line starts before it,
	 * the extra granule of its last line may end after it: realigned only
	 * where that granule ends within the line's elements (its padding is
	 * no part of the buffer when the line is the last one) */
	ptxb_op(b, NULL, "or.b32", "%s, %s, %s", t, s->kfirst, s->lfirst);
	ptxb_op(b, NULL, "setp.ne.and.u32", "%s, %s, 0, %s", s->realign, t, s->realign);
	const char *tail = s->tmp[1];
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->kfirst, s->kt);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s->pe, t, s->stotal);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", tail, s->lfirst, s->L + s->V);
	ptxb_op(b, NULL, "setp.le.or.u32", "%s, %s, %s, %s", s->pe, tail, s->ltotal, s->pe);
	ptxb_op(b, NULL, "and.pred", "%s, %s, %s", s->realign, s->realign, s->pe);
}

/* The shared address register of element e of line p's chunk k0: its own,
 * or (a packed kernel's line that is not first in its group) computed into
 * ea from the line's two bases. */
const char *sk_elem_addr(sk *s, unsigned p, unsigned e)
{
	ptxb *b = s->e.b;
	if (s->addr[p][e])
		return s->addr[p][e];
	ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, %u", s->eap, s->m[p], e);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", s->ea, s->ahi[p], s->alo[p], s->eap);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", s->ea, s->ktb, e, s->ea);
	return s->ea;
}

/* Element e of a granule held in `words` (4 b32 words for 1- to 4-byte
 * elements, 2 b64 for 8- and 16-byte ones), loaded from or stored to
 * `addr` in state space `space` ("global", "shared"), under `guard`. */
void sk_elem_op(sk *s, int store, const char *space, const char *guard, const char *addr,
		const char *const *words, unsigned e)
{
	ptxb *b = s->e.b;
	unsigned es = s->es;
	char op[48], regs[64];
	if (es == 16) {
		snprintf(op, sizeof op, "%s.%s.v2.b64", store ? "st" : "ld", space);
		snprintf(regs, sizeof regs, "{%s, %s}", words[0], words[1]);
	} else if (es >= 4) {
		snprintf(op, sizeof op, "%s.%s.b%u", store ? "st" : "ld", space, 8 * es);
		snprintf(regs, sizeof regs, "%s", words[e]);
	} else {
		unsigned epw = 4 / es, bit = (e % epw) * 8 * es;
		const char *w = words[e / epw];
		snprintf(op, sizeof op, "%s.%s.b%u", store ? "st" : "ld", space, 8 * es);
		if (store) {
			if (bit) {
				ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", s->tmp[3], w, bit);
				w = s->tmp[3];
			}
			ptxb_op(b, guard, op, "%s, %s", addr, w);
		} else {
			ptxb_op(b, guard, op, "%s, %s", s->tmp[3], addr);
			ptxb_op(b, NULL, "bfi.b32", "%s, %s, %s, %u, %u", w, s->tmp[3], w, bit, 8 * es);
		}
		return;
	}
	if (store)
		ptxb_op(b, guard, op, "%s, %s", addr, regs);
	else
		ptxb_op(b, guard, op, "%s, %s", regs, addr);
}

/* "{%a, %b, %c, %d}" or "{%a, %b}": the granule's registers. */
static const char *granule_regs(char *buf, size_t n, const sk *s, const char *const *w)
{
	if (s->nd == 4)
		snprintf(buf, n, "{%s, %s, %s, %s}", w[0], w[1], w[2], w[3]);
	else
		snprintf(buf, n, "{%s, %s}", w[0], w[1]);
	return buf;
}

static const char *granule_op(const sk *s, int store)
{
	if (s->nd == 4)
		return store ? "st.global.v4.b32" : "ld.global.v4.b32";
	return store ? "st.global.v2.b64" : "ld.global.v2.b64";
}

static void zero_slot(sk *s, unsigned p, unsigned slot)
{
	for (unsigned u = 0; u < s->nd; u++)
		ptxb_op(s->e.b, NULL, s->nd == 4 ? "mov.b32" : "mov.b64", "%s, 0", s->d[p][slot][u]);
}

/* Line element (p, slot, e) exists in the tile: its long position x (tile
 * relative: chunk*V + e - m) is below tn, and the line is below Kt. */
static void elem_guard(sk *s, unsigned p, unsigned slot, unsigned e, int extra)
{
	ptxb *b = s->e.b;
	const char *x = s->tmp[2];
	const char *xb = ptxb_find(b, "xbase");
	unsigned off = extra ? s->CH * s->V : slot * s->LW * s->W * s->V;
	/* xbase = k0*V - m for line p: recomputed per line p */
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", x, xb, off + e);
	ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", s->pe, x, s->tn, s->rowok[p]);
}

static void line_xbase(sk *s, unsigned p)
{
	ptxb *b = s->e.b;
	const char *xb = ptxb_find(b, "xbase"), *k0v = ptxb_find(b, "chunk_elem");
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", xb, k0v, s->m[p]);
}

/* The lines' element path: every element of every slot, and warp 0's
 * extra granule, under its guard; loads start from zeroed registers. */
static void line_elements(sk *s, int store)
{
	ptxb *b = s->e.b;
	char g[48], notw0[40], l[24];
	snprintf(notw0, sizeof notw0, "!%s", ptxb_find(b, "warp0"));
	for (unsigned p = 0; p < s->P; p++) {
		line_xbase(s, p);
		snprintf(l, sizeof l, "LINE_EXTRA_%u", p);
		for (unsigned k = 0; k <= s->S; k++) {
			if (k == s->S)
				ptxb_op(b, notw0, "bra.uni", "%s", l);
			if (!store)
				zero_slot(s, p, k);
			for (unsigned e = 0; e < s->V; e++) {
				elem_guard(s, p, k, e, k == s->S);
				snprintf(g, sizeof g, "[%s+%u]", s->gb[p], (k == s->S ? s->CH * 16 : slot_line(s, k)) + e * s->es);
				sk_elem_op(s, store, "global", s->pe, g, s->d[p][k], e);
			}
		}
		ptxb_label(b, l);
	}
}

/* Granules in: whole (realigned) or element by element. The extra granule
 * (chunk CH) of a misaligned line is warp 0's. */
void sk_line_load(sk *s)
{
	ptxb *b = s->e.b;
	char a[64], regs[160];
	const char *warp0 = ptxb_find(b, "warp0");
	char notw0[40], notre[40];
	snprintf(notw0, sizeof notw0, "!%s", warp0);
	snprintf(notre, sizeof notre, "!%s", s->realign);
	ptxb_group(b, "The lines' granules: every global load of the tile is issued before any is used.");
	ptxb_op(b, notre, "bra.uni", "LINE_ELEMENTS");
	for (unsigned p = 0; p < s->P; p++)
		for (unsigned k = 0; k < s->S; k++)
			ptxb_op(b, s->rowok[p], granule_op(s, 0), "%s, %s", granule_regs(regs, sizeof regs, s, s->d[p][k]),
				at(a, sizeof a, s->gb[p], slot_line(s, k)));
	ptxb_op(b, notw0, "bra.uni", "LINE_LOADED");
	ptxb_note(b, "warp 0: the granule past the tile's last chunk, which a misaligned line reaches into");
	for (unsigned p = 0; p < s->P; p++) {
		const char *x = ptxb_find(b, "extra_ok");
		zero_slot(s, p, s->S);
		ptxb_op(b, NULL, "setp.ne.and.u32", "%s, %s, 0, %s", x, s->m[p], s->head);
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", x, x, s->rowok[p]);
		ptxb_op(b, x, granule_op(s, 0), "%s, %s", granule_regs(regs, sizeof regs, s, s->d[p][s->S]),
			at(a, sizeof a, s->gb[p], s->CH * 16));
	}
	ptxb_op(b, NULL, "bra.uni", "LINE_LOADED");
	ptxb_label(b, "LINE_ELEMENTS");
	ptxb_note(b, "an edge tile, or one whose granules would reach outside the matrix: one element at a time");
	line_elements(s, 0);
	ptxb_label(b, "LINE_LOADED");
}

/* wide: every element to its place in the run; slot S (the extra granule)
 * in warp 0 only. */
void sk_scatter(sk *s)
{
	ptxb *b = s->e.b;
	char a[64];
	const char *warp0 = ptxb_find(b, "warp0"), *x = ptxb_find(b, "extra_ok");
	char notw0[40];
	snprintf(notw0, sizeof notw0, "!%s", warp0);
	ptxb_group(b, "Scatter into shared memory in the run's order: element (c, i) of a chunk at (c*Kt + i)*%u;"
		      " lanes along K write neighbouring elements.", s->es);
	if (s->G > 1)
		sk_packed_path(s, 1, "SCATTERED");
	for (unsigned p = 0; p < s->P; p++)
		for (unsigned k = 0; k < s->S; k++)
			for (unsigned e = 0; e < s->V; e++)
				sk_elem_op(s, 1, "shared", s->rowok[p], at(a, sizeof a, sk_elem_addr(s, p, e), sk_slot_smem(s, k)),
					   s->d[p][k], e);
	ptxb_op(b, notw0, "bra.uni", "SCATTERED");
	for (unsigned p = 0; p < s->P; p++) {
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", x, s->head, s->rowok[p]);
		for (unsigned e = 0; e < s->V; e++)
			sk_elem_op(s, 1, "shared", x, at(a, sizeof a, sk_elem_addr(s, p, e), s->CH * s->RB), s->d[p][s->S], e);
	}
	ptxb_label(b, "SCATTERED");
}

/* tall: gather slot k of line p from shared memory into its granule
 * registers (element by element), under `guard`. */
static void gather(sk *s, unsigned p, unsigned k, unsigned off, const char *guard)
{
	ptxb *b = s->e.b;
	char a[64], op[32];
	unsigned es = s->es;
	if (es >= 4) {
		for (unsigned e = 0; e < s->V; e++)
			sk_elem_op(s, 0, "shared", guard, at(a, sizeof a, sk_elem_addr(s, p, e), off), s->d[p][k], e);
		return;
	}
	/* packed: load the elements of a word, then put them together with prmt */
	unsigned epw = 4 / es;
	snprintf(op, sizeof op, "ld.shared.b%u", 8 * es);
	for (unsigned w = 0; w < 4; w++) {
		for (unsigned i = 0; i < epw; i++)
			ptxb_op(b, guard, op, "%s, %s", s->tmp[i], at(a, sizeof a, sk_elem_addr(s, p, w * epw + i), off));
		const char *dw = s->d[p][k][w];
		if (es == 2) {
			ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", dw, s->tmp[0], s->tmp[1]);
			continue;
		}
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x0040", s->tmp[0], s->tmp[0], s->tmp[1]);
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x0040", s->tmp[2], s->tmp[2], s->tmp[3]);
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", dw, s->tmp[0], s->tmp[2]);
	}
}

/* tall: out of shared memory into the output lines. Interior tiles store
 * whole aligned granules; the head granule of a misaligned line (chunk 0,
 * lane 0 of warp 0) and the extra one past the tile go out element by
 * element, leaving the neighbours' elements alone; edge tiles store
 * elements only. */
void sk_gather_store(sk *s)
{
	ptxb *b = s->e.b;
	char a[64], regs[160], g[48];
	const char *warp0 = ptxb_find(b, "warp0"), *x = ptxb_find(b, "extra_ok");
	char notw0[40], notre[40];
	snprintf(notw0, sizeof notw0, "!%s", warp0);
	snprintf(notre, sizeof notre, "!%s", s->realign);
	ptxb_group(b, "Gather each output granule from the run in shared memory: element e of chunk k at"
		      " (e*Kt + line)*%u.", s->es);
	if (s->G > 1)
		sk_packed_path(s, 0, "GATHERED");
	for (unsigned p = 0; p < s->P; p++)
		for (unsigned k = 0; k < s->S; k++)
			gather(s, p, k, sk_slot_smem(s, k), s->rowok[p]);
	ptxb_op(b, notw0, "bra.uni", "GATHERED");
	for (unsigned p = 0; p < s->P; p++) {
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", x, s->head, s->rowok[p]);
		gather(s, p, s->S, s->CH * s->RB, x);
	}
	ptxb_label(b, "GATHERED");
	ptxb_group(b, "The output lines: whole granules inside the tile, elements at its ends.");
	ptxb_op(b, notre, "bra.uni", "LINE_ELEMENTS");
	for (unsigned p = 0; p < s->P; p++) {
		const char *full = s->pe;
		for (unsigned k = 1; k < s->S; k++)
			ptxb_op(b, s->rowok[p], granule_op(s, 1), "%s, %s", at(a, sizeof a, s->gb[p], slot_line(s, k)),
				granule_regs(regs, sizeof regs, s, s->d[p][k]));
		/* slot 0: whole unless it is the head granule of a misaligned line */
		ptxb_op(b, NULL, "setp.eq.or.u32", "%s, %s, 0, %s", full, s->m[p], ptxb_find(b, "not_head"));
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", full, full, s->rowok[p]);
		ptxb_op(b, full, granule_op(s, 1), "[%s], %s", s->gb[p], granule_regs(regs, sizeof regs, s, s->d[p][0]));
		ptxb_op(b, notw0, "bra.uni", "HEAD_DONE_%u", p);
		ptxb_op(b, NULL, "setp.ne.and.u32", "%s, %s, 0, %s", x, s->m[p], s->head);
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", x, x, s->rowok[p]);
		ptxb_note(b, "warp 0: the head granule's own elements (e >= m), and the extra granule's (e < m)");
		for (unsigned e = 0; e < s->V; e++) {
			ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %u, %s", s->pe, s->m[p], e, x);
			snprintf(g, sizeof g, "[%s+%u]", s->gb[p], e * s->es);
			sk_elem_op(s, 1, "global", s->pe, g, s->d[p][0], e);
		}
		for (unsigned e = 0; e < s->V; e++) {
			ptxb_op(b, NULL, "setp.gt.and.u32", "%s, %s, %u, %s", s->pe, s->m[p], e, x);
			snprintf(g, sizeof g, "[%s+%u]", s->gb[p], s->CH * 16 + e * s->es);
			sk_elem_op(s, 1, "global", s->pe, g, s->d[p][s->S], e);
		}
		char l[24];
		snprintf(l, sizeof l, "HEAD_DONE_%u", p);
		ptxb_label(b, l);
	}
	ptxb_op(b, NULL, "bra.uni", "LINES_STORED");
	ptxb_label(b, "LINE_ELEMENTS");
	ptxb_note(b, "an edge tile: one element at a time");
	line_elements(s, 1);
	ptxb_label(b, "LINES_STORED");
}
