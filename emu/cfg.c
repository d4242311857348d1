/* cfg: where the lanes of a warp that a branch splits meet again, and
 * which registers a thread may read before it writes them. The
 * program's basic blocks, their post-dominator tree (Cooper, Harvey and
 * Kennedy's iterative algorithm on the reversed graph, rooted at a virtual
 * exit), and for every branch the first instruction of its block's
 * immediate post-dominator. A branch whose paths meet only at the exit, or
 * in a loop that never reaches it, gets EMU_NO_PC: its lanes run apart
 * until a barrier or their exit. The registers written on every path
 * before a read need no poison at a CTA's start (cta.c copies the others
 * only). Computed once, when the program loads. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

#define UNDEF UINT32_MAX

typedef struct {
	uint32_t nb;            /* blocks; node nb is the virtual exit */
	uint32_t *start;        /* first instruction of each block, [nb] = ncode */
	uint32_t *bof;          /* instruction -> block */
	uint32_t *succ;         /* up to 2 successors a block (UNDEF: none) */
	uint32_t *poff, *pred;  /* predecessors, CSR */
	uint32_t *po;           /* postorder number on the reversed graph */
	uint32_t *idom;
} cfg;

static int guarded(const emu_prog *p, const emu_ins *i) { return i->g != p->truth; }

static int blocks(cfg *G, const emu_prog *p)
{
	uint32_t n = (uint32_t)p->ncode;
	uint8_t *lead = calloc(n + 1, 1);
	G->bof = malloc(n * sizeof *G->bof);
	G->start = malloc((n + 1) * sizeof *G->start);
	if (!lead || !G->bof || !G->start) {
		free(lead);
		return -1;
	}
	lead[0] = 1;
	for (uint32_t k = 0; k < n; k++) {
		const emu_ins *i = &p->code[k];
		if (i->op == EMU_OP_BRA && (uint64_t)i->imm < n)
			lead[i->imm] = 1;
		if (i->op == EMU_OP_BRA || i->op == EMU_OP_EXIT)
			lead[k + 1] = 1;
	}
	G->nb = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (lead[k])
			G->start[G->nb++] = k;
		G->bof[k] = G->nb - 1;
	}
	G->start[G->nb] = n;
	free(lead);
	G->succ = malloc(2 * (size_t)G->nb * sizeof *G->succ);
	if (!G->succ)
		return -1;
	for (uint32_t b = 0; b < G->nb; b++) {
		uint32_t last = G->start[b + 1] - 1, *s = &G->succ[2 * b];
		const emu_ins *i = &p->code[last];
		uint32_t fall = last + 1 < n ? G->bof[last + 1] : G->nb;
		s[0] = s[1] = UNDEF;
		if (i->op == EMU_OP_BRA) {
			s[0] = (uint64_t)i->imm < n ? G->bof[i->imm] : G->nb;
			if (guarded(p, i))
				s[1] = fall;
		} else if (i->op == EMU_OP_EXIT) {
			s[0] = G->nb;
			if (guarded(p, i))
				s[1] = fall;
		} else {
			s[0] = fall;
		}
	}
	return 0;
}

static int preds(cfg *G)
{
	uint32_t nn = G->nb + 1;
	G->poff = calloc(nn + 1, sizeof *G->poff);
	G->pred = malloc((2 * (size_t)G->nb + 1) * sizeof *G->pred);
	if (!G->poff || !G->pred)
		return -1;
	for (uint32_t k = 0; k < 2 * G->nb; k++)
		if (G->succ[k] != UNDEF)
			G->poff[G->succ[k] + 1]++;
	for (uint32_t v = 0; v < nn; v++)
		G->poff[v + 1] += G->poff[v];
	uint32_t *fill = malloc(nn * sizeof *fill);
	if (!fill)
		return -1;
	for (uint32_t v = 0; v < nn; v++)
		fill[v] = G->poff[v];
	for (uint32_t k = 0; k < 2 * G->nb; k++)
		if (G->succ[k] != UNDEF)
			G->pred[fill[G->succ[k]]++] = k / 2;
	free(fill);
	return 0;
}

/* Postorder of a depth-first walk from the exit along predecessors; the
 * nodes in reverse postorder into *rpo (count returned). */
static uint32_t walk(cfg *G, uint32_t *rpo, uint32_t *stack, uint32_t *next)
{
	uint32_t nn = G->nb + 1, sp = 0, count = 0;
	for (uint32_t v = 0; v < nn; v++)
		G->po[v] = UNDEF, next[v] = G->poff[v];
	uint8_t *seen = calloc(nn, 1);
	if (!seen)
		return UNDEF;
	stack[sp++] = G->nb;
	seen[G->nb] = 1;
	while (sp) {
		uint32_t v = stack[sp - 1];
		if (next[v] < G->poff[v + 1]) {
			uint32_t u = G->pred[next[v]++];
			if (!seen[u]) {
				seen[u] = 1;
				stack[sp++] = u;
			}
			continue;
		}
		sp--;
		G->po[v] = count++;
	}
	free(seen);
	for (uint32_t v = 0; v < nn; v++)
		if (G->po[v] != UNDEF)
			rpo[count - 1 - G->po[v]] = v;
	return count;
}

static uint32_t meet(const cfg *G, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (G->po[a] < G->po[b])
			a = G->idom[a];
		while (G->po[b] < G->po[a])
			b = G->idom[b];
	}
	return a;
}

static void postdominators(cfg *G, const uint32_t *rpo, uint32_t count)
{
	for (uint32_t v = 0; v <= G->nb; v++)
		G->idom[v] = UNDEF;
	G->idom[G->nb] = G->nb;
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t k = 1; k < count; k++) {
			uint32_t b = rpo[k], nd = UNDEF;
			for (int j = 0; j < 2; j++) {
				uint32_t s = G->succ[2 * b + j];
				if (s != UNDEF && G->idom[s] != UNDEF)
					nd = nd == UNDEF ? s : meet(G, s, nd);
			}
			if (nd != G->idom[b]) {
				G->idom[b] = nd;
				changed = 1;
			}
		}
	}
}

/* Registers read (conservatively: every operand field, unused ones are
 * slot 0) and written for sure (unguarded) by an instruction. */
static int reads(const emu_ins *i, uint16_t *r)
{
	int n = 0;
	r[n++] = i->g, r[n++] = i->a, r[n++] = i->b, r[n++] = i->c, r[n++] = i->e;
	if (i->op == EMU_OP_ST_GLOBAL || i->op == EMU_OP_ST_SHARED || i->op == EMU_OP_PACK ||
	    i->op == EMU_OP_STMATRIX)
		for (int k = 0; k < 4; k++)
			r[n++] = i->v[k];
	return n;
}

static int writes(const emu_prog *p, const emu_ins *i, uint16_t *w)
{
	int n = 0;
	if (i->g != p->truth)
		return 0;
	switch (i->op) {
	case EMU_OP_ST_GLOBAL: case EMU_OP_ST_SHARED: case EMU_OP_BAR: case EMU_OP_BRA: case EMU_OP_EXIT:
	case EMU_OP_WARPSYNC: case EMU_OP_STMATRIX:
		return 0;
	case EMU_OP_LD_GLOBAL: case EMU_OP_LD_SHARED: case EMU_OP_LD_PARAM: case EMU_OP_UNPACK: case EMU_OP_LDMATRIX:
		for (int k = 0; k < i->sub && k < 4; k++)
			w[n++] = i->v[k];
		return n;
	case EMU_OP_SETP:
	case EMU_OP_SHFL:
		w[n++] = i->d;
		if (i->w2)
			w[n++] = i->d2;
		return n;
	default:
		w[n++] = i->d;
		return n;
	}
}

#define BIT(set, r) ((set)[(r) / 64] >> ((r) % 64) & 1)

/* Must-written sets per block (forward, intersection over predecessors),
 * then each read checked against the set where it happens. */
static int poison_set(const cfg *G, emu_prog *p)
{
	uint32_t nr = (uint32_t)p->nregs, words = (nr + 63) / 64, nb = G->nb;
	p->npoison = 0;
	p->poison = malloc((nr + 1) * sizeof *p->poison);
	if (!p->poison)
		return -1;
	uint64_t *in = NULL, *need = calloc(words + 1, sizeof *need), *run = calloc(words + 1, sizeof *run);
	if ((uint64_t)nb * words <= (1u << 22)) /* else: every register poisoned */
		in = malloc(((size_t)nb * words + 1) * sizeof *in);
	if (!need || !run || !in) {
		for (uint32_t r = 0; r < nr; r++)
			p->poison[p->npoison++] = (int)r;
		free(in);
		free(need);
		free(run);
		return need && run ? 0 : -1;
	}
	memset(in, 0xff, (size_t)nb * words * sizeof *in);
	memset(in, 0, words * sizeof *in); /* nothing written at the entry */
	uint16_t sl[16];
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t b = 0; b < nb; b++) {
			memcpy(run, in + (size_t)b * words, words * sizeof *run);
			for (uint32_t k = G->start[b]; k < G->start[b + 1]; k++)
				for (int n = writes(p, &p->code[k], sl), j = 0; j < n; j++)
					if (sl[j] < nr)
						run[sl[j] / 64] |= 1ull << (sl[j] % 64);
			for (int j = 0; j < 2; j++) {
				uint32_t s = G->succ[2 * b + j];
				if (s == UNDEF || s == nb)
					continue;
				uint64_t *t = in + (size_t)s * words;
				for (uint32_t w = 0; w < words; w++)
					if (t[w] & ~run[w]) {
						t[w] &= run[w];
						changed = 1;
					}
			}
		}
	}
	for (uint32_t b = 0; b < nb; b++) {
		memcpy(run, in + (size_t)b * words, words * sizeof *run);
		for (uint32_t k = G->start[b]; k < G->start[b + 1]; k++) {
			for (int n = reads(&p->code[k], sl), j = 0; j < n; j++)
				if (sl[j] < nr && !BIT(run, sl[j]))
					need[sl[j] / 64] |= 1ull << (sl[j] % 64);
			for (int n = writes(p, &p->code[k], sl), j = 0; j < n; j++)
				if (sl[j] < nr)
					run[sl[j] / 64] |= 1ull << (sl[j] % 64);
		}
	}
	for (uint32_t r = 0; r < nr; r++)
		if (BIT(need, r))
			p->poison[p->npoison++] = (int)r;
	free(in);
	free(need);
	free(run);
	return 0;
}

int emu_cfg(emu_prog *p)
{
	cfg G = {0};
	uint32_t *rpo = NULL, *stack = NULL, *next = NULL;
	int rc = -1;
	if (blocks(&G, p) || preds(&G))
		goto out;
	uint32_t nn = G.nb + 1;
	G.po = malloc(nn * sizeof *G.po);
	G.idom = malloc(nn * sizeof *G.idom);
	rpo = malloc(nn * sizeof *rpo);
	stack = malloc(nn * sizeof *stack);
	next = malloc(nn * sizeof *next);
	if (!G.po || !G.idom || !rpo || !stack || !next)
		goto out;
	uint32_t count = walk(&G, rpo, stack, next);
	if (count == UNDEF)
		goto out;
	postdominators(&G, rpo, count);
	for (uint32_t k = 0; k < (uint32_t)p->ncode; k++) {
		emu_ins *i = &p->code[k];
		if (i->op != EMU_OP_BRA)
			continue;
		uint32_t d = G.idom[G.bof[k]];
		i->rpc = d == UNDEF || d == G.nb ? EMU_NO_PC : G.start[d];
	}
	rc = poison_set(&G, p);
out:
	free(G.start);
	free(G.bof);
	free(G.succ);
	free(G.poff);
	free(G.pred);
	free(G.po);
	free(G.idom);
	free(rpo);
	free(stack);
	free(next);
	return rc;
}
