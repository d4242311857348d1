/* tp_flat: the flat batched family (issue 22, item 2): a block moves many
 * whole small matrices at once. For batches of tiny matrices (3x3 to 64x64)
 * a tile a matrix spends a block on a few elements; here a block takes a
 * chunk of M = floor(C / (rows*cols)) consecutive matrices (C = per_block
 * elements) and, where the batch is packed (ld_in == cols, ld_out == rows,
 * strides rows*cols, or one matrix), reads the chunk's input span as one
 * flat array of 16-byte vectors and writes its output span the same way:
 * both global sides are coalesced vector accesses, and only the shared
 * stage sees the permutation.
 *
 * The chunk. Thread t takes the 16-byte vectors t, t + T, ... (`slots` of
 * them) of the aligned span that covers the chunk's elements; a vector
 * wholly inside the chunk is one load, the partial ones at its ends
 * element by element, predicated. Each element e (b, i, j) = matrix b, row
 * i, column j of the chunk goes to shared index hout + b*rc + j*rows + i:
 * the chunk's output in order, shifted by hout, the output span's offset
 * into its first 16-byte vector, so that the stores read whole vectors of
 * shared memory at 16-byte boundaries and write them to 16-byte aligned
 * global addresses. Any element-aligned pointer takes this path: the
 * vectors are chosen by their addresses, not by the chunk's start. C is
 * (slots x T - 1) x V (V = 16 / element bytes), so that the chunk and its
 * head fit the slots.
 *
 * A side that is not packed moves element by element (a loop of the
 * block's threads over the chunk, each element's address from its matrix,
 * row and column), through the same shared stage; a matrix of more than C
 * elements is moved directly, element by element, a block per matrix (the
 * plan does not pick this family for those, nor for batches that are not
 * packed, nor where fewer than two matrices fill a chunk: lib/pick.h).
 *
 * Division. rows, cols and rows*cols are run-time values and ABI v2 has no
 * host part, so the block computes, once, the magic m = ceil(2^31 / d) of
 * each divisor d with one div.u32 (0x7fffffff / d + 1): x / d is then
 * mul.hi.u32(2x, m), exact for x * d < 2^31 (x and d are below C + 16 <=
 * 2^15 + 16: validate keeps slots x T x V <= 2^15).
 *
 * Banks. The shared stores scatter by the run-time shape; their conflicts
 * depend on it (none for the stores of 3x3 and other odd shapes, up to
 * 8-way for 32x32 words), so no `ptxpose-smem` line: the loads back are
 * whole 16-byte vectors, conflict-free.
 *
 * The grid (grid=flat, loader/meta.c): one block a chunk; a block steps by
 * nctaid.x chunks (or matrices, past C), so any grid covers any batch.
 *
 * `gather` (gen/tp_flat_gather.c) keeps the chunks, the packed test, the
 * magic division and the path past C, and drops the shared stage: each
 * thread gathers its output vectors' elements straight from global memory
 * into registers and stores whole vectors (no shared memory, no barrier). */
#include <stdio.h>
#include <string.h>

#include "gen/tp_flat.h"

#define FL_SMEM_MAX 49152 /* static shared memory */
#define FL_ELEMS_MAX 32768 /* slots x T x V: keeps the magic division exact */

static const tp_param params[] = {
	TP_INT("slots", 4, 1, FL_MAX_SLOTS, tp_flat, slots),
	TP_BOOL("gather", tp_flat, gather),
	TP_INT("unit", 16, 4, 16, tp_flat, unit),
	TP_END,
};

static const tp_flat *flat_of(const tp_params *p) { return (const tp_flat *)p->own.bytes; }

static unsigned es_of(const tp_params *p) { return p->elem / 8 ? p->elem / 8 : 1; }

/* Elements a vector and a chunk hold, and shared bytes. */
static unsigned vec_of(const tp_params *p) { return flat_of(p)->unit / es_of(p); }
static unsigned capacity(const tp_params *p) { return (flat_of(p)->slots * p->tx - 1) * vec_of(p); }
static unsigned smem_bytes(const tp_params *p) { return flat_of(p)->slots * p->tx * 16; }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int validate(const tp_params *p, char *err, size_t errlen)
{
	if (p->foreign)
		return tp_check_foreign(p, err, errlen);
	unsigned es = es_of(p);
	if (p->ty != 1)
		FAIL("threads: a flat kernel takes threads={T, 1}, not %ux%u", p->tx, p->ty);
	unsigned ub = flat_of(p)->unit;
	if (ub != 16 && !flat_of(p)->gather)
		FAIL("unit: %u bytes needs gather = true (the shared stage moves 16-byte vectors)", ub);
	if (ub & (ub - 1) || ub < es)
		FAIL("unit: %u bytes is not 4, 8 or 16 bytes, at least an element (%u bytes)", ub, es);
	if (p->vec != 1 && p->vec * es != ub)
		FAIL("vec: a flat kernel moves %u-byte vectors (vec %u, or leave it out)", ub, ub / es);
	if (!flat_of(p)->gather && smem_bytes(p) > FL_SMEM_MAX)
		FAIL("slots: %u x %u threads x 16 bytes is %u bytes of shared memory, over the %u-byte static limit",
		     flat_of(p)->slots, p->tx, smem_bytes(p), FL_SMEM_MAX);
	if (flat_of(p)->slots * p->tx * vec_of(p) > FL_ELEMS_MAX)
		FAIL("slots: %u x %u threads x %u elements is over %u elements a chunk (the division by magic numbers"
		     " is exact below it)", flat_of(p)->slots, p->tx, vec_of(p), FL_ELEMS_MAX);
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	unsigned es = es_of(p);
	if (flat_of(p)->gather)
		sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
			     "// in elements. The flat batched family, gathering (gen/tp_flat_gather.c): a\n"
			     "// block moves a chunk of whole matrices, %u elements at most; on packed\n"
			     "// batches each thread loads its %u-byte output vectors' elements from global\n"
			     "// memory into registers and stores whole vectors (no shared memory). Kernel\n"
			     "// ABI v2 (docs/DESIGN.md): a block steps by the grid over chunks, so any grid\n"
			     "// covers any batch. Matrices of more than %u elements move element by element.\n//\n",
			  p->elem, capacity(p), flat_of(p)->unit, capacity(p));
	else
		sb_printf(h, "// out[j][i] = in[i][j] for %u-bit elements, row-major, leading dimensions\n"
			     "// in elements. The flat batched family (gen/tp_flat.c): a block moves a chunk\n"
			     "// of whole matrices, %u elements at most; packed batches read and write the\n"
			     "// chunk's spans as 16-byte vectors and transpose in shared memory. Kernel ABI\n"
			     "// v2 (docs/DESIGN.md): a block steps by the grid over chunks, so any grid\n"
			     "// covers any batch. Matrices of more than %u elements move element by element.\n//\n",
			  p->elem, capacity(p), capacity(p));
	sb_printf(h, "// ptxpose kernel=%s abi=2 elem=%u grid=flat block=%ux1 per_block=%u\n", p->name, p->elem, p->tx,
		  capacity(p));
	if (flat_of(p)->gather)
		sb_printf(h, "// ptxpose vec=%u smem=none slots=%u gather=1 unit=%u", vec_of(p), flat_of(p)->slots,
			  flat_of(p)->unit);
	else
		sb_printf(h, "// ptxpose vec=%u smem=flat smem_bytes=%u slots=%u", 16 / es, smem_bytes(p),
			  flat_of(p)->slots);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
	/* for the plan (lib/README.md): vectors at any element alignment; only
	 * packed batches of matrices of at most per_block elements (lib/pick.c) */
	sb_printf(h, "// ptxpose family=flat fast_align=%u fast_needs=packed_in,packed_out realign=none edge=none\n", es);
}


void fl_magic_div(fl *f, const char *q, const char *x, const char *m)
{
	ptxb_op(f->b, NULL, "shl.b32", "%s, %s, 1", f->x2, x);
	ptxb_op(f->b, NULL, "mul.hi.u32", "%s, %s, %s", q, f->x2, m);
}

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

void fl_elem_access(fl *f, const char *guard, int store, const char *space, const char *addr, unsigned off,
			unsigned s, const char *x)
{
	char op[40], a[64], v[80];
	tp_addr(a, sizeof a, addr, off);
	if (f->es == 16) {
		snprintf(op, sizeof op, "%s.%s.v2.b64", store ? "st" : "ld", space);
		snprintf(v, sizeof v, "{%s, %s}", f->w[s][0], f->w[s][1]);
	} else {
		snprintf(op, sizeof op, "%s.%s.b%u", store ? "st" : "ld", space, 8 * f->es);
		snprintf(v, sizeof v, "%s", x);
	}
	if (store)
		ptxb_op(f->b, guard, op, "%s, %s", a, v);
	else
		ptxb_op(f->b, guard, op, "%s, %s", v, a);
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

void fl_elem_addr(fl *f, const char *dst, const char *base, const char *mat, const char *stride,
		      const char *row, const char *ld, const char *col)
{
	ptxb *b = f->b;
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", dst, row, ld);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", f->u64, col);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, f->u64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, f->lg);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, base);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", f->u64, mat);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", dst, f->u64, stride, dst);
}

void fl_elem_loop(fl *f, const char *head, const char *done, void (*body)(fl *f))
{
	ptxb_op(f->b, NULL, "mov.u32", "%s, %s", f->e, f->t);
	ptxb_label(f->b, head);
	ptxb_op(f->b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->e, f->n);
	ptxb_op(f->b, f->pr, "bra", "%s", done);
	body(f);
	ptxb_op(f->b, NULL, "add.u32", "%s, %s, %u", f->e, f->e, f->T);
	ptxb_op(f->b, NULL, "bra", "%s", head);
}

void fl_out_index(fl *f, const char *e)
{
	ptxb *b = f->b;
	fl_magic_div(f, f->bm, e, f->mrc);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->r, f->bm, f->nrc, e);
	fl_magic_div(f, f->j, f->r, f->mrows);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", f->i, f->j, f->nrows, f->r);
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

/* Matrices of more than C elements: a block a matrix (stepping by the
 * grid), its threads over its elements, each read and written on its own
 * (64-bit indices: rows*cols reaches 2^62). */
static void big_matrices(fl *f, const char *rc64)
{
	ptxb *b = f->b;
	const char *mat64 = ptxb_reg(b, "b64", "big matrices: the matrix, 64-bit", "mat64");
	const char *idx = ptxb_reg(b, "b64", "big matrices: element i*cols + j", "idx");
	const char *i64 = ptxb_reg(b, "b64", "big matrices: its row", "i64");
	const char *j64 = ptxb_reg(b, "b64", "big matrices: its column", "j64");
	const char *c64 = ptxb_reg(b, "b64", "cols, 64-bit", "cols64");
	const char *src = ptxb_reg(b, "b64", "big matrices: the element's input address", "src");
	const char *dst = ptxb_reg(b, "b64", "big matrices: its output address", "dst");
	ptxb_label(b, "BIG");
	ptxb_group(b, "Matrices of more than %u elements: matrix ctaid.x, then steps of nctaid.x; element t,"
		      " then steps of %u.", f->C, f->T);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", c64, f->cols);
	ptxb_label(b, "BIG_MATRIX");
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, f->c, f->batch);
	ptxb_op(b, f->pr, "bra", "DONE");
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", mat64, f->c);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", f->inb, mat64, f->sin, f->in);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", f->outb, mat64, f->sout, f->out);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", idx, f->t);
	ptxb_label(b, "BIG_ELEM");
	ptxb_op(b, NULL, "setp.ge.u64", "%s, %s, %s", f->pr, idx, rc64);
	ptxb_op(b, f->pr, "bra", "BIG_NEXT");
	ptxb_op(b, NULL, "div.u64", "%s, %s, %s", i64, idx, c64);
	ptxb_op(b, NULL, "mul.lo.u64", "%s, %s, %s", j64, i64, c64);
	ptxb_op(b, NULL, "sub.u64", "%s, %s, %s", j64, idx, j64);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", f->u64, f->ldi);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", src, i64, f->u64, j64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", src, src, f->lg);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", src, src, f->inb);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", f->u64, f->ldo);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", dst, j64, f->u64, i64);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", dst, dst, f->lg);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", dst, dst, f->outb);
	fl_elem_access(f, NULL, 0, "global", src, 0, 0, f->x);
	fl_elem_access(f, NULL, 1, "global", dst, 0, 0, f->x);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %u", idx, idx, f->T);
	ptxb_op(b, NULL, "bra", "BIG_ELEM");
	ptxb_label(b, "BIG_NEXT");
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.x", f->tmp);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->c, f->c, f->tmp);
	ptxb_op(b, NULL, "bra", "BIG_MATRIX");
}

static void declare(fl *f)
{
	ptxb *b = f->b;
	int sh = !f->gather; /* the shared stage's own registers */
	f->batch = ptxb_reg(b, "b32", "matrices", "batch");
	f->sin = ptxb_reg(b, "b64", "input stride (elements, then bytes)", "stride_in");
	f->sout = ptxb_reg(b, "b64", "output stride (elements, then bytes)", "stride_out");
	f->rc = ptxb_reg(b, "b32", "rows*cols: elements a matrix", "rc");
	f->nrc = ptxb_reg(b, "b32", sh ? "-rc, -cols, -rows (mod 2^32): remainders by mad" :
		"-rc, -rows (mod 2^32): remainders by mad", "neg_rc");
	if (sh)
		f->ncols = ptxb_reg(b, "b32", NULL, "neg_cols");
	f->nrows = ptxb_reg(b, "b32", NULL, "neg_rows");
	f->mrc = ptxb_reg(b, "b32", sh ? "ceil(2^31 / d) for d = rc, cols, rows: x / d = mul.hi(2x, magic)" :
		"ceil(2^31 / d) for d = rc, rows: x / d = mul.hi(2x, magic)", "magic_rc");
	if (sh)
		f->mcols = ptxb_reg(b, "b32", NULL, "magic_cols");
	f->mrows = ptxb_reg(b, "b32", NULL, "magic_rows");
	f->c = ptxb_reg(b, "b32", "the chunk (a matrix, past C elements)", "chunk");
	f->n = ptxb_reg(b, "b32", "elements of this chunk", "n");
	f->lim = ptxb_reg(b, "b32", "the chunk's end, in the vectors' element count", "lim");
	f->m0 = ptxb_reg(b, "b32", "the chunk's first matrix; then matrices a chunk", "m0");
	f->inb = ptxb_reg(b, "b64", "the chunk's input (global)", "chunk_in");
	f->outb = ptxb_reg(b, "b64", "the chunk's output (global)", "chunk_out");
	if (sh)
		f->hin = ptxb_reg(b, "b32", "elements of the first input vector before the chunk", "hin");
	f->hout = ptxb_reg(b, "b32", "... of the first output vector (0 if the output is not packed)", "hout");
	if (sh) {
		f->smem = ptxb_reg(b, "b32", "shared stage", "smem");
		f->sbh = ptxb_reg(b, "b32", "shared stage + hout elements: the chunk's output order", "smem_h");
	}
	f->abase = ptxb_reg(b, "b64", "the 16-byte vector that holds the chunk's first element", "abase");
	if (sh)
		f->q = ptxb_reg(b, "b32", "the slot's vector", "q");
	f->qv = ptxb_reg(b, "b32", sh ? "its first element" : "the thread's first vector's first element", "qv");
	f->e = ptxb_reg(b, "b32", "a chunk element", "e");
	f->x2 = ptxb_reg(b, "b32", "2x, for mul.hi", "x2");
	f->bm = ptxb_reg(b, "b32", "the element's matrix in the chunk", "bm");
	f->r = ptxb_reg(b, "b32", "its index in the matrix", "r");
	f->i = ptxb_reg(b, "b32", "its input row", "i");
	f->j = ptxb_reg(b, "b32", "its input column", "j");
	if (sh)
		f->sa = ptxb_reg(b, "b32", "shared address", "sa");
	f->t64 = ptxb_reg(b, "b64", "scratch (global addresses)", "t64");
	f->u64 = ptxb_reg(b, "b64", "scratch", "u64");
	f->tmp = ptxb_reg(b, "b32", "scratch", "tmp");
	f->x = ptxb_reg(b, f->ut, "an element", "x");
	for (unsigned s = 0; s < f->K; s++) {
		for (unsigned u = 0; u < f->units; u++)
			f->w[s][u] = ptxb_reg(b, f->ut, s + u ? NULL : "slot s's vector, unit u", "w%u_%u", s, u);
		if (sh) {
			f->addr[s] = ptxb_reg(b, "b64", s ? NULL : "slot s's global address", "ga%u", s);
			f->full[s] = ptxb_reg(b, "pred", s ? NULL : "slot s's vector lies inside the chunk", "full%u", s);
		}
	}
	f->pr = ptxb_reg(b, "pred", "scratch", "p");
	if (f->gather)
		fl_gather_declare(f);
}

/* The divisor d's magic and negation. */
static void magic(fl *f, const char *m, const char *neg, const char *d)
{
	ptxb_op(f->b, NULL, "div.u32", "%s, 0x7fffffff, %s", m, d);
	ptxb_op(f->b, NULL, "add.u32", "%s, %s, 1", m, m);
	ptxb_op(f->b, NULL, "mul.lo.u32", "%s, %s, 0xffffffff", neg, d);
}

/* The chunk's matrices m0 .. m0 + m - 1, its n elements, its bases and
 * hout (the output's elements before it in its 16-byte vector; 0 where the
 * output is not packed). */
static void chunk_bases(fl *f, const char *per, const char *vout)
{
	ptxb *b = f->b;
	ptxb_group(b, "The chunk's matrices m0 .. m0 + m - 1, its n elements and its bases.");
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->m0, f->c, per);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->n, f->batch, f->m0);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %s", f->n, f->n, per);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->n, f->n, f->rc);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", f->u64, f->m0);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", f->inb, f->u64, f->sin, f->in);
	ptxb_op(b, NULL, "mad.lo.u64", "%s, %s, %s, %s", f->outb, f->u64, f->sout, f->out);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", f->hout, f->outb);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", f->hout, f->hout, f->ub - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", f->hout, f->hout, f->lg);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, 0, %s", f->hout, f->hout, vout);
}

/* The gather kernel's walk: no chunk count (a division) and no barrier; a
 * block is done when its chunk's first matrix is past the batch (64-bit:
 * c x m passes 2^32 for batches past 2^31). m = C / rc through rc's magic
 * (C x rc < 2^31). */
static void gather_chunks(fl *f, const char *per, const char *vin, const char *vout)
{
	ptxb *b = f->b;
	const char *batch64 = ptxb_reg(b, "b64", "matrices, 64-bit", "batch64");
	ptxb_op(b, NULL, "mul.hi.u32", "%s, %s, %u", per, f->mrc, 2 * f->C);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", batch64, f->batch);
	ptxb_label(b, "CHUNK");
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", f->u64, f->c, per);
	ptxb_op(b, NULL, "setp.ge.u64", "%s, %s, %s", f->pr, f->u64, batch64);
	ptxb_op(b, f->pr, "bra", "DONE");
	chunk_bases(f, per, vout);
	fl_gather_chunk(f, vin, vout);
	ptxb_label(b, "STORED");
	ptxb_group(b, "The chunk nctaid.x on (nothing shared: no barrier).");
}

/* The shared stage's walk: a chunk into shared memory in output order, a
 * barrier, out; a barrier before the next chunk reuses the stage. */
static void stage_chunks(fl *f, const char *per, const char *vin, const char *vout)
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
	chunk_bases(f, per, vout);
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

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	ptxb *b = ptxb_new();
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fl F, *f = &F;
	memset(f, 0, sizeof F);
	f->b = b;
	f->gather = flat_of(p)->gather;
	f->es = es_of(p), f->lg = tp_lg2(f->es), f->V = vec_of(p), f->T = p->tx, f->K = flat_of(p)->slots;
	f->C = capacity(p);
	f->ub = flat_of(p)->unit;
	f->ut = f->es >= 8 ? "b64" : "b32";
	f->units = f->ub / (f->es >= 8 ? 8 : 4);
	em e; /* the parameters every family reads, and the thread (gen/tp_lib.c) */
	memset(&e, 0, sizeof e);
	e.b = b, e.p = p;
	tp_setup(&e);
	f->in = e.in0, f->out = e.out0, f->rows = e.rows, f->cols = e.cols, f->ldi = e.ld_in, f->ldo = e.ld_out;
	f->t = e.t;
	declare(f);
	const char *rc64 = ptxb_reg(b, "b64", "rows*cols, 64-bit", "rc64");
	const char *vin = ptxb_reg(b, "pred", "the input is packed: ld_in == cols, stride_in == rc (or one matrix)", "vin");
	const char *vout = ptxb_reg(b, "pred", "the output is packed", "vout");
	if (!f->gather)
		ptxb_global(b, ".shared .align 16 .b8 flat_smem[%u];", smem_bytes(p));

	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_batch]", f->batch);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_in]", f->sin);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_stride_out]", f->sout);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", f->c);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", rc64, f->rows, f->cols);
	ptxb_group(b, "Which sides are packed (compared in elements), then the strides in bytes.");
	ptxb_op(b, NULL, "setp.eq.u64", "%s, %s, %s", vin, f->sin, rc64);
	ptxb_op(b, NULL, "setp.eq.or.u32", "%s, %s, 1, %s", vin, f->batch, vin);
	ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, %s, %s", vin, f->ldi, f->cols, vin);
	ptxb_op(b, NULL, "setp.eq.u64", "%s, %s, %s", vout, f->sout, rc64);
	ptxb_op(b, NULL, "setp.eq.or.u32", "%s, %s, 1, %s", vout, f->batch, vout);
	ptxb_op(b, NULL, "setp.eq.and.u32", "%s, %s, %s, %s", vout, f->ldo, f->rows, vout);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", f->sin, f->sin, f->lg);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", f->sout, f->sout, f->lg);
	ptxb_op(b, NULL, "setp.gt.u64", "%s, %s, %u", f->pr, rc64, f->C);
	ptxb_op(b, f->pr, "bra", "BIG");

	ptxb_group(b, "Matrices of at most %u elements: chunks of m = %u / rc of them; the magics, once a block.",
		   f->C, f->C);
	ptxb_op(b, NULL, "cvt.u32.u64", "%s, %s", f->rc, rc64);
	magic(f, f->mrc, f->nrc, f->rc);
	if (!f->gather)
		magic(f, f->mcols, f->ncols, f->cols);
	magic(f, f->mrows, f->nrows, f->rows);
	const char *per = ptxb_reg(b, "b32", "matrices a chunk", "per_chunk");
	if (f->gather)
		gather_chunks(f, per, vin, vout);
	else
		stage_chunks(f, per, vin, vout);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.x", f->tmp);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->c, f->c, f->tmp);
	ptxb_op(b, NULL, "bra", "CHUNK");
	big_matrices(f, rc64);
	ptxb_label(b, "DONE");
	ptxb_op(b, NULL, "ret", " ");
	return tp_finish(b, p, header, 1, out, err, errlen);
}

const tp_family tp_family_flat = {
	.name = "flat",
	.select_key = "family",
	.select_val = "flat",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
