/* tp_flat: the flat batched family: a block moves many
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
 * Here: the family's row, the prologue, the chunk's bases and the path past
 * C; the shared stage's walk is gen/tp_flat_stage.c. `gather`
 * (gen/tp_flat_gather.c) keeps the chunks, the packed test, the magic
 * division and the path past C, and drops the shared stage: each thread
 * gathers its output vectors' elements straight from global memory into
 * registers and stores whole vectors (no shared memory, no barrier). */
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

void fl_chunk_bases(fl *f, const char *per, const char *vout)
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
		fl_gather_chunks(f, per, vin, vout);
	else
		fl_stage_chunks(f, per, vin, vout);
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
