/* tp_flat_stage: the flat family's shared stage (gen/tp_flat.c says how a
 * chunk moves through it): a packed input's vectors, or an input's
 * elements, into shared memory in the chunk's output order; a barrier;
 * the stage's vectors, or elements, to the output; a barrier before the
 * next chunk reuses the stage. */
#include <stdio.h>

#include "gen/tp_flat.h"

/* Chunk element e in input order: matrix bm, row i, column j, and into sa
 * the shared address of its place in the output order. */
static void scatter_index(fl *f, const char *e)
{
	ptxb *b = f->b;
	fl_magic_div(f, f->bm, e, f->mrc);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->r, f->bm, f->nrc, e);
	fl_magic_div(f, f->i, f->r, f->mcols);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->j, f->i, f->ncols, f->r);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->sa, f->j, f->rows, f->i);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->sa, f->bm, f->rc, f->sa);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", f->sa, f->sa, f->es, f->sbh);
}

/* Slot s's whole 16-byte vector: ld or st at [addr] in space. */
static void vec_access(fl *f, unsigned s, int store, const char *space, const char *addr)
{
	char base[32], op[40], v[128];
	snprintf(base, sizeof base, "%s.%s", store ? "st" : "ld", space);
	tp_unit_op(op, sizeof op, base, f->units, f->ut);
	if (f->units == 2)
		snprintf(v, sizeof v, "{%s, %s}", f->w[s][0], f->w[s][1]);
	else
		snprintf(v, sizeof v, "{%s, %s, %s, %s}", f->w[s][0], f->w[s][1], f->w[s][2], f->w[s][3]);
	if (store)
		ptxb_op(f->b, f->full[s], op, "[%s], %s", addr, v);
	else
		ptxb_op(f->b, f->full[s], op, "%s, [%s]", v, addr);
}

/* Slot s: vector q = t + s*T, its first element qv = q*V; the global
 * address base + 16q into addr[s] (NULL: none); full[s]: the vector lies
 * inside [h, lim). */
static void slot(fl *f, unsigned s, const char *h, const char *base)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->q, f->t, s * f->T);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->qv, f->q, tp_lg2(f->V));
	if (base) {
		ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, 16", f->t64, f->q);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", f->addr[s], base, f->t64);
	}
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->tmp, f->qv, f->V);
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->full[s], f->qv, h);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", f->full[s], f->tmp, f->lim, f->full[s]);
}

/* The register that holds element k of slot s (its word, for packed narrow
 * elements), and the shift that brings it down. */
static const char *elem_reg(fl *f, unsigned s, unsigned k, unsigned *shift)
{
	unsigned epw = f->es < 4 ? 4 / f->es : 1;
	*shift = 8 * f->es * (k % epw);
	return f->w[s][f->es == 16 ? 0 : k / epw];
}

/* A packed input: the chunk's aligned vectors (the first holds hin
 * elements before the chunk), whole ones loaded first, then each slot's
 * elements stored to their places in the output order. */
static void load_vectors(fl *f)
{
	ptxb *b = f->b;
	ptxb_group(b, "Packed input: the vectors that cover the chunk; the first holds hin elements before it.");
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", f->hin, f->inb);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 15", f->hin, f->hin);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", f->hin, f->hin, f->lg);
	ptxb_op(b, NULL, "and.b64", "%s, %s, 0xfffffffffffffff0", f->abase, f->inb);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->lim, f->n, f->hin);
	ptxb_group(b, "Every whole vector's load first.");
	for (unsigned s = 0; s < f->K; s++) {
		slot(f, s, f->hin, f->abase);
		vec_access(f, s, 0, "global", f->addr[s]);
	}
	for (unsigned s = 0; s < f->K; s++) {
		char next[32], part[32], nfull[24];
		snprintf(next, sizeof next, "LD_NEXT_%u", s);
		snprintf(part, sizeof part, "LD_PART_%u", s);
		snprintf(nfull, sizeof nfull, "!%s", f->full[s]);
		ptxb_group(b, "Slot %u: each element to its place in the output order.", s);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->q, f->t, s * f->T);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->qv, f->q, tp_lg2(f->V));
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->qv, f->lim);
		ptxb_op(b, f->pr, "bra", "%s", next);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->qv, f->qv, f->hin);
		ptxb_op(b, nfull, "bra", "%s", part);
		for (unsigned k = 0; k < f->V; k++) {
			unsigned sh;
			const char *x = elem_reg(f, s, k, &sh);
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, k);
			scatter_index(f, f->e);
			if (sh) {
				ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", f->x, x, sh);
				x = f->x;
			}
			fl_elem_access(f, NULL, 1, "shared", f->sa, 0, s, x);
		}
		ptxb_op(b, NULL, "bra", "%s", next);
		ptxb_label(b, part);
		ptxb_note(b, "a partial vector (the chunk's ends): each element inside the chunk loaded on its own");
		for (unsigned k = 0; k < f->V; k++) {
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, k);
			scatter_index(f, f->e);
			ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->pr, f->e, f->n);
			fl_elem_access(f, f->pr, 0, "global", f->addr[s], k * f->es, s, f->x);
			fl_elem_access(f, f->pr, 1, "shared", f->sa, 0, s, f->x);
		}
		ptxb_label(b, next);
	}
}

static void load_element(fl *f)
{
	scatter_index(f, f->e);
	fl_elem_addr(f, f->t64, f->inb, f->bm, f->sin, f->i, f->ldi, f->j);
	fl_elem_access(f, NULL, 0, "global", f->t64, 0, 0, f->x);
	fl_elem_access(f, NULL, 1, "shared", f->sa, 0, 0, f->x);
}

/* An input that is not packed: the block's threads over the chunk's
 * elements, each loaded from its matrix, row and column. */
static void load_elements(fl *f)
{
	ptxb_group(f->b, "Input not packed: element e = t, t + T, ... of the chunk, one by one.");
	fl_elem_loop(f, "LD_ELEM", "LOADED", load_element);
}

/* A packed output: the shared stage's vectors (the output order shifted by
 * hout) to 16-byte aligned addresses; partial vectors element by element. */
static void store_vectors(fl *f)
{
	ptxb *b = f->b;
	ptxb_group(b, "Packed output: shared vectors to the aligned vectors that cover the chunk's output.");
	ptxb_op(b, NULL, "and.b64", "%s, %s, 0xfffffffffffffff0", f->abase, f->outb);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->lim, f->n, f->hout);
	for (unsigned s = 0; s < f->K; s++) {
		slot(f, s, f->hout, f->abase);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", f->sa, f->q);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->sa, f->sa, f->smem);
		vec_access(f, s, 0, "shared", f->sa);
	}
	ptxb_group(b, "Every whole vector's store.");
	for (unsigned s = 0; s < f->K; s++)
		vec_access(f, s, 1, "global", f->addr[s]);
	for (unsigned s = 0; s < f->K; s++) {
		char lbl[32];
		snprintf(lbl, sizeof lbl, "ST_NEXT_%u", s);
		ptxb_group(b, "Slot %u, a partial vector: each element inside the chunk on its own.", s);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->q, f->t, s * f->T);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->qv, f->q, tp_lg2(f->V));
		ptxb_op(b, NULL, "setp.ge.or.u32", "%s, %s, %s, %s", f->pr, f->qv, f->lim, f->full[s]);
		ptxb_op(b, f->pr, "bra", "%s", lbl);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", f->sa, f->q);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->sa, f->sa, f->smem);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->qv, f->qv, f->hout);
		for (unsigned k = 0; k < f->V; k++) {
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, k);
			ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->pr, f->e, f->n);
			fl_elem_access(f, f->pr, 0, "shared", f->sa, k * f->es, s, f->x);
			fl_elem_access(f, f->pr, 1, "global", f->addr[s], k * f->es, s, f->x);
		}
		ptxb_label(b, lbl);
	}
}

/* An output that is not packed: element f = t, t + T, ... of the chunk's
 * output order from shared memory to its matrix, row and column. */
static void store_element(fl *f)
{
	fl_out_index(f, f->e);
	ptxb_op(f->b, NULL, "mad.lo.u32", "%s, %s, %u, %s", f->sa, f->e, f->es, f->smem);
	fl_elem_access(f, NULL, 0, "shared", f->sa, 0, 0, f->x);
	fl_elem_addr(f, f->t64, f->outb, f->bm, f->sout, f->j, f->ldo, f->i);
	fl_elem_access(f, NULL, 1, "global", f->t64, 0, 0, f->x);
}

static void store_elements(fl *f)
{
	ptxb_group(f->b, "Output not packed: output element t, t + T, ... of the chunk, one by one.");
	fl_elem_loop(f, "ST_ELEM", "STORED", store_element);
}

/* The shared stage's walk: a chunk into shared memory in output order, a
 * barrier, out; a barrier before the next chunk reuses the stage. */
void fl_stage_chunks(fl *f, const char *per, const char *vin, const char *vout)
{
	ptxb *b = f->b;
	const char *nch = ptxb_reg(b, "b32", "chunks", "chunks");
	ptxb_op(b, NULL, "div.u32", "%s, %u, %s", per, f->C, f->rc);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", nch, f->batch, per);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, 1", nch, nch);
	ptxb_op(b, NULL, "div.u32", "%s, %s, %s", nch, nch, per);
	ptxb_op(b, NULL, "mov.u32", "%s, flat_smem", f->smem);

	ptxb_label(b, "CHUNK");
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->c, nch);
	ptxb_op(b, f->pr, "bra", "DONE");
	fl_chunk_bases(f, per, vout);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", f->sbh, f->hout, f->es, f->smem);
	ptxb_op(b, vin, "bra", "LD_VEC");
	load_elements(f);
	ptxb_label(b, "LD_VEC");
	load_vectors(f);
	ptxb_label(b, "LOADED");
	ptxb_group(b, "The chunk is in shared memory in its output order.");
	ptxb_op(b, NULL, "bar.sync", "0");
	char not_vout[16];
	snprintf(not_vout, sizeof not_vout, "!%s", vout);
	ptxb_op(b, not_vout, "bra", "ST_ELEMENTS");
	store_vectors(f);
	ptxb_op(b, NULL, "bra", "STORED");
	ptxb_label(b, "ST_ELEMENTS");
	store_elements(f);
	ptxb_label(b, "STORED");
	ptxb_group(b, "Before the next chunk reuses the stage; then the chunk nctaid.x on.");
	ptxb_op(b, NULL, "bar.sync", "0");
}
