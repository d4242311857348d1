/* tp_flat: the flat batched family (internal to gen/tp_flat*.c): a block
 * moves a chunk of whole small matrices (gen/tp_flat.c says how). Two ways
 * through a packed chunk: the shared stage (tp_flat.c: the input span's
 * vectors into shared memory in output order, then the output span's out)
 * and, with `gather`, registers only (tp_flat_gather.c: each thread loads
 * its output vectors' elements from global memory and stores whole
 * vectors). Both share the prologue, the chunk walk, the magic division
 * and the path for matrices larger than a chunk. */
#ifndef GEN_TP_FLAT_H
#define GEN_TP_FLAT_H

#include "gen/tp_lib.h"

#define FL_MAX_SLOTS 16

/* The family's own parameters (in tp_params.own). */
typedef struct {
	unsigned slots; /* vectors a thread moves a chunk, each side */
	int gather;     /* registers only: no shared stage (tp_flat_gather.c) */
	unsigned unit;  /* bytes a vector: 16; with gather also 4 or 8 */
} tp_flat;

/* The kernel's registers and sizes, shared by the emitting steps. */
typedef struct {
	ptxb *b;
	int gather;
	unsigned es, lg, V, T, K, C, units, ub; /* ub: bytes a vector (unit) */
	const char *ut; /* the data registers' type: b32 (1 to 4 bytes), b64 (8 and 16) */
	const char *in, *out, *rows, *cols, *ldi, *ldo, *batch, *sin, *sout;
	const char *t, *rc, *nrc, *ncols, *nrows, *mrc, *mcols, *mrows;
	const char *c, *n, *lim, *m0, *inb, *outb, *hin, *hout, *smem, *sbh, *abase;
	const char *q, *qv, *e, *x2, *bm, *r, *i, *j, *sa, *t64, *u64, *tmp, *x;
	const char *w[FL_MAX_SLOTS][4];  /* slot s's vector: its units */
	const char *addr[FL_MAX_SLOTS];  /* slot s's global address (shared stage) */
	const char *full[FL_MAX_SLOTS];  /* slot s's vector lies inside the chunk (shared stage) */
	const char *pr;
	/* gather only (tp_flat_gather.c) */
	const char *colsb, *wrap_i, *wrap_j, *src, *ga, *pq, *xs[4], *prow, *prc, *mi, *mj;
} fl;

/* q = x / d through d's magic m (x, d < 2^15 + 16). */
void fl_magic_div(fl *f, const char *q, const char *x, const char *m);
/* One element's access: ld or st of register x (16-byte elements: slot
 * s's pair) at [addr+off] in space ("global", "global.nc", "shared"). */
void fl_elem_access(fl *f, const char *guard, int store, const char *space, const char *addr, unsigned off,
		    unsigned s, const char *x);
/* dst = base + (mat * stride) + (row * ld + col) * es, 64-bit. */
void fl_elem_addr(fl *f, const char *dst, const char *base, const char *mat, const char *stride, const char *row,
		  const char *ld, const char *col);
/* A loop of e over the chunk's elements t, t + T, ...: body, then e += T
 * and a branch back to head; done: past n. */
void fl_elem_loop(fl *f, const char *head, const char *done, void (*body)(fl *f));
/* Chunk element e in output order: matrix bm, output row j (the input
 * column), output column i (the input row). */
void fl_out_index(fl *f, const char *e);

/* The chunk's matrices m0 .. m0 + m - 1 (m = per), its n elements, its
 * bases and hout (the output's elements before it in its vector; 0 where
 * the output is not packed). */
void fl_chunk_bases(fl *f, const char *per, const char *vout);

/* The walks over chunks, from the magics to the label STORED (the emitter
 * steps on to the next chunk): through the shared stage (tp_flat_stage.c),
 * or registers only (tp_flat_gather.c, with its registers). */
void fl_stage_chunks(fl *f, const char *per, const char *vin, const char *vout);
void fl_gather_declare(fl *f);
void fl_gather_chunks(fl *f, const char *per, const char *vin, const char *vout);

#endif
