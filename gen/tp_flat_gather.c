/* tp_flat_gather: the flat family's register-only chunk (`gather`). The
 * chunk, the packed test and the path past C are gen/tp_flat.c's; what
 * differs is how a packed chunk moves: no shared memory, no barrier.
 *
 * Thread t owns the vectors t + s*T (s < K = slots) of the aligned span
 * that covers the chunk's output, as the shared stage's stores do; a
 * vector is `unit` bytes, 16 as the stage's, or 8 or 4: a warp's loads of
 * its lanes' element k then span 256 or 128 bytes of input rather than
 * 512, fewer L1 lines a load, for a division every 8 or 4 bytes.
 * Vector q holds chunk output elements o = q*V - hout ... + V - 1 (hout:
 * the output's elements before the chunk in its first vector). Output
 * element o is matrix b = o / rc, output row j = r / rows (r = o - b*rc),
 * output column i = r - j*rows, i.e. input element b*rc + i*cols + j.
 *
 * A thread whose vectors all lie inside the chunk (every thread but those
 * at the chunk's two ends) divides once a vector (the magics of rc and
 * rows, as the shared stage does) and then steps: the next output element
 * is the next input row (+cols); past the last row, row 0 of the next
 * column ((1 - rc) more); past the last column, the next matrix
 * ((rc - cols) more). Which steps wrap is known from the vector's first
 * element: the wraps of a column fall every rows elements from
 * rows - 1 - i, those of a matrix every rc from rc - 1 - r, so the vector
 * takes two bit masks (a shift of the block's periodic bits 0, d, 2d, ...)
 * and each step tests one bit of each: an add and two predicated adds an
 * element (ptxas: two LOP3s into predicates), no counter, no division
 * (sm_90: 8.75 instructions an element for bytes, the load's 64-bit
 * address and prmt included, against 12.75 with row and column counters).
 * Each element is one load (ld.global.nc: the chunk's input span is a few
 * KB, so a warp's loads hit a few L1 lines), packed into 32-bit words with
 * prmt for 1- and 2-byte elements, and the vector is one store.
 * The others take every element of their vectors on its own, predicated
 * on lying in the chunk, its index divided, an element store. */
#include <stdio.h>

#include "gen/tp_flat.h"

void fl_gather_declare(fl *f)
{
	ptxb *b = f->b;
	f->colsb = ptxb_reg(b, "b32", "the steps of in_off: the next row (cols x es bytes)", "step_row");
	f->wrap_i = ptxb_reg(b, "b32", "... past the last row: row 0 of the next column, (1 - rc) x es more", "step_col");
	f->wrap_j = ptxb_reg(b, "b32", "... past the last column: the next matrix, (rc - cols) x es more", "step_mat");
	f->src = ptxb_reg(b, "b32", "the element's input offset from the chunk's input (bytes)", "in_off");
	f->ga = ptxb_reg(b, "b64", "the thread's first output vector (global); slot s: + unit x s T", "ga");
	f->pq = ptxb_reg(b, "pred", "the step passes the matrix's end; a part element lies in the chunk", "pq");
	if (f->V > 1) {
		f->prow = ptxb_reg(b, "b32", "bits 0, rows, 2 rows, ... (below 16)", "period_rows");
		f->prc = ptxb_reg(b, "b32", "bits 0, rc, 2 rc, ...", "period_rc");
		f->mi = ptxb_reg(b, "b32", "bit k: the step after the vector's element k passes a column's last row", "wrap_col");
		f->mj = ptxb_reg(b, "b32", "bit k: ... passes a matrix's last element", "wrap_mat");
	}
	for (unsigned k = 0; f->es < 4 && k < 4 / f->es; k++)
		f->xs[k] = ptxb_reg(b, "b32", k ? NULL : "elements before they are packed into a word", "xs%u", k);
}

/* in_off = the input offset (bytes) of element (bm, i, j). */
static void src_of_index(fl *f)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->src, f->i, f->cols, f->j);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->src, f->bm, f->rc, f->src);
	if (f->lg)
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->src, f->src, f->lg);
}

/* t64 = its address. */
static void src_addr(fl *f)
{
	ptxb_op(f->b, NULL, "mad.wide.u32", "%s, %s, 1, %s", f->t64, f->src, f->inb);
}

/* P = the bits at 0, d, 2d, ... (those below 16: P |= P << d, 2d, 4d,
 * 8d; a shift of 32 or more gives 0). */
static void period_bits(fl *f, const char *P, const char *d)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "mov.b32", "%s, 1", P);
	ptxb_op(b, NULL, "mov.b32", "%s, %s", f->x2, d);
	for (int n = 0; n < 4; n++) {
		if (n)
			ptxb_op(b, NULL, "shl.b32", "%s, %s, 1", f->x2, f->x2);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %s", f->tmp, P, f->x2);
		ptxb_op(b, NULL, "or.b32", "%s, %s, %s", P, P, f->tmp);
	}
}

/* The vector's wraps from its first element (row i of its column, index r
 * of its matrix): bit k of mi says that the step after element k passes
 * the column's last row (k = rows - 1 - i, + rows, ...), of mj the
 * matrix's last element (k = rc - 1 - r, + rc, ...). */
static void wrap_bits(fl *f)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->tmp, f->rows, f->i);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, 1", f->tmp, f->tmp);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %s", f->mi, f->prow, f->tmp);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->tmp, f->rc, f->r);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, 1", f->tmp, f->tmp);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %s", f->mj, f->prc, f->tmp);
}

/* The step after element k: the next input row, and past the column's
 * last row row 0 of the next column, and past the matrix's last element
 * the next matrix. */
static void step(fl *f, unsigned k)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->src, f->src, f->colsb);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 0x%x", f->tmp, f->mi, 1u << k);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", f->pr, f->tmp);
	ptxb_op(b, f->pr, "add.u32", "%s, %s, %s", f->src, f->src, f->wrap_i);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 0x%x", f->tmp, f->mj, 1u << k);
	ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", f->pq, f->tmp);
	ptxb_op(b, f->pq, "add.u32", "%s, %s, %s", f->src, f->src, f->wrap_j);
}

/* Element k of slot s's vector from [t64], into its place: its own unit
 * (4 bytes and up), or xs until a word's elements are in, then prmt. */
static void load_packed(fl *f, unsigned s, unsigned k)
{
	ptxb *b = f->b;
	if (f->es >= 4) {
		fl_elem_access(f, NULL, 0, "global.nc", f->t64, 0, s, f->w[s][f->es == 16 ? 0 : k]);
		return;
	}
	unsigned epw = 4 / f->es, m = k % epw;
	fl_elem_access(f, NULL, 0, "global.nc", f->t64, 0, s, f->xs[m]);
	if (m + 1 < epw)
		return;
	const char *w = f->w[s][k / epw];
	if (f->es == 2) {
		ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", w, f->xs[0], f->xs[1]);
		return;
	}
	/* bytes: each xs's byte 0, in pairs, then the pairs' low halves */
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x3340", f->xs[0], f->xs[0], f->xs[1]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x3340", f->xs[2], f->xs[2], f->xs[3]);
	ptxb_op(b, NULL, "prmt.b32", "%s, %s, %s, 0x5410", w, f->xs[0], f->xs[2]);
}

/* e = chunk output element qv + off - hout. */
static void elem_of(fl *f, unsigned off)
{
	ptxb_op(f->b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, off);
	ptxb_op(f->b, NULL, "sub.u32", "%s, %s, %s", f->e, f->e, f->hout);
}

/* pr = slot s's vector lies wholly inside the chunk, its first element
 * (qv + s*T*V, in e) at or past hout (only slot 0's can be before it) and
 * its last before lim. */
static void slot_whole(fl *f, unsigned s)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, s * f->T * f->V);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->tmp, f->e, f->V);
	if (s) {
		ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %s", f->pr, f->tmp, f->lim);
		return;
	}
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->e, f->hout);
	ptxb_op(b, NULL, "setp.le.and.u32", "%s, %s, %s, %s", f->pr, f->tmp, f->lim, f->pr);
}

/* The whole vectors: a division each, steps between its elements, every
 * load before the stores; a vector not whole is left to part_vectors, and
 * past the chunk's last vector the later slots are empty too. */
static void whole_vectors(fl *f)
{
	ptxb *b = f->b;
	unsigned TV = f->T * f->V;
	char skip[32], nwhole[24];
	snprintf(nwhole, sizeof nwhole, "!%s", f->pr);
	ptxb_group(b, "The steps (bytes) and the periodic bits, for the whole vectors.");
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", f->colsb, f->cols, f->es);
	ptxb_op(b, NULL, "add.u32", "%s, %s, 1", f->wrap_i, f->nrc);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->wrap_j, f->rc, f->cols);
	if (f->lg) {
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->wrap_i, f->wrap_i, f->lg);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->wrap_j, f->wrap_j, f->lg);
	}
	if (f->V > 1) {
		period_bits(f, f->prow, f->rows);
		period_bits(f, f->prc, f->rc);
	}
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_group(b, "Slot %u: output elements qv + %u - hout ... + %u: the first divided, the wraps, then steps.", s,
			   s * TV, f->V - 1);
		snprintf(skip, sizeof skip, "G_SKIP_%u", s);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, s * TV);
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->e, f->lim);
		ptxb_op(b, f->pr, "bra", "G_STORES");
		slot_whole(f, s);
		ptxb_op(b, nwhole, "bra", "%s", skip);
		elem_of(f, s * TV);
		fl_out_index(f, f->e);
		src_of_index(f);
		if (f->V > 1)
			wrap_bits(f);
		for (unsigned k = 0; k < f->V; k++) {
			if (k)
				step(f, k - 1);
			src_addr(f);
			load_packed(f, s, k);
		}
		ptxb_label(b, skip);
	}
	ptxb_label(b, "G_STORES");
	ptxb_group(b, "The whole vectors' stores.");
	for (unsigned s = 0; s < f->K; s++) {
		char op[40], a[64], v[128];
		tp_unit_op(op, sizeof op, "st.global", f->units, f->ut);
		tp_addr(a, sizeof a, f->ga, f->ub * s * f->T);
		if (f->units == 1)
			snprintf(v, sizeof v, "%s", f->w[s][0]);
		else if (f->units == 2)
			snprintf(v, sizeof v, "{%s, %s}", f->w[s][0], f->w[s][1]);
		else
			snprintf(v, sizeof v, "{%s, %s, %s, %s}", f->w[s][0], f->w[s][1], f->w[s][2], f->w[s][3]);
		slot_whole(f, s);
		ptxb_op(b, f->pr, op, "%s, %s", a, v);
	}
}

/* A vector not whole (the chunk's head or tail vector): each element
 * inside the chunk on its own; past the chunk's last vector, this and the
 * later slots are empty. */
static void part_vectors(fl *f)
{
	ptxb *b = f->b;
	unsigned TV = f->T * f->V;
	for (unsigned s = 0; s < f->K; s++) {
		char next[32];
		snprintf(next, sizeof next, "G_PART_%u", s);
		ptxb_group(b, "Slot %u, a vector not whole: each element inside the chunk on its own.", s);
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->e, f->qv, s * TV);
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->e, f->lim);
		ptxb_op(b, f->pr, "bra", "STORED");
		slot_whole(f, s);
		ptxb_op(b, f->pr, "bra", "%s", next);
		for (unsigned k = 0; k < f->V; k++) {
			elem_of(f, s * TV + k);
			ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->pq, f->e, f->n);
			fl_out_index(f, f->e);
			src_of_index(f);
			src_addr(f);
			fl_elem_access(f, f->pq, 0, "global.nc", f->t64, 0, s, f->x);
			fl_elem_access(f, f->pq, 1, "global", f->ga, f->ub * s * f->T + k * f->es, s, f->x);
		}
		ptxb_label(b, next);
	}
}

/* A side not packed: output element e = t, t + T, ... of the chunk, read
 * from its input place and written to its output place. */
static void element(fl *f)
{
	fl_out_index(f, f->e);
	fl_elem_addr(f, f->t64, f->inb, f->bm, f->sin, f->i, f->ldi, f->j);
	fl_elem_access(f, NULL, 0, "global.nc", f->t64, 0, 0, f->x);
	fl_elem_addr(f, f->t64, f->outb, f->bm, f->sout, f->j, f->ldo, f->i);
	fl_elem_access(f, NULL, 1, "global", f->t64, 0, 0, f->x);
}

/* A chunk, from its bases (inb, outb, n, hout) to a branch to STORED. */
static void gather_chunk(fl *f, const char *vin, const char *vout)
{
	ptxb *b = f->b;
	char npr[24];
	snprintf(npr, sizeof npr, "!%s", f->pr);
	ptxb_op(b, NULL, "and.pred", "%s, %s, %s", f->pr, vin, vout);
	ptxb_op(b, npr, "bra", "G_ELEMENTS");
	ptxb_group(b, "Packed: vectors t + s*T of the aligned output span; vector q's first element is chunk"
		      " output element qv - hout, qv = q*V.");
	ptxb_op(b, NULL, "and.b64", "%s, %s, 0x%llx", f->abase, f->outb, ~(unsigned long long)(f->ub - 1));
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->lim, f->n, f->hout);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %u", f->t64, f->t, f->ub);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", f->ga, f->abase, f->t64);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", f->qv, f->t, tp_lg2(f->V));
	whole_vectors(f);
	part_vectors(f);
	ptxb_op(b, NULL, "bra", "STORED");
	ptxb_label(b, "G_ELEMENTS");
	ptxb_group(b, "A side not packed: output element t, t + T, ... of the chunk, one by one.");
	fl_elem_loop(f, "G_ELEM", "STORED", element);
}

/* The gather kernel's walk: no chunk count (a division) and no barrier; a
 * block is done when its chunk's first matrix is past the batch (64-bit:
 * c x m passes 2^32 for batches past 2^31). m = C / rc through rc's magic
 * (C x rc < 2^31). */
void fl_gather_chunks(fl *f, const char *per, const char *vin, const char *vout)
{
	ptxb *b = f->b;
	const char *batch64 = ptxb_reg(b, "b64", "matrices, 64-bit", "batch64");
	ptxb_op(b, NULL, "mul.hi.u32", "%s, %s, %u", per, f->mrc, 2 * f->C);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", batch64, f->batch);
	ptxb_label(b, "CHUNK");
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", f->u64, f->c, per);
	ptxb_op(b, NULL, "setp.ge.u64", "%s, %s, %s", f->pr, f->u64, batch64);
	ptxb_op(b, f->pr, "bra", "DONE");
	fl_chunk_bases(f, per, vout);
	gather_chunk(f, vin, vout);
	ptxb_label(b, "STORED");
	ptxb_group(b, "The chunk nctaid.x on (nothing shared: no barrier).");
}
