/* tp_lib: the emitting library every family's emitter builds on (internal
 * to gen/tp_*.c): the emitter's state, the kernel's parameters and thread
 * id, the walk over tiles and matrices, and the kernel's assembly. It knows
 * no family: what a family tells it (the walk's row step, a shared tile to
 * guard) it says in `em`. */
#ifndef GEN_TP_LIB_H
#define GEN_TP_LIB_H

#include <stddef.h>

#include "gen/ptxb.h"
#include "gen/tp.h"
#include "gen/tp_family.h"
#include "gen/tp_geom.h"

#define TP_MAX_V 16

/* Data lives in units: a 32-bit word for 1- to 4-byte elements (narrow ones
 * packed), a 64-bit register for 8- and 16-byte ones. A row vector (v
 * elements along an input row) and a column vector (along an input column,
 * i.e. an output row) are each na units. For 4-, 8- and 16-byte elements the
 * two views name the same registers; packed elements need a prmt transpose. */
typedef struct em {
	ptxb *b;
	const tp_params *p;
	const tp_geom *g;
	const char *ut;                         /* unit type: b32 or b64 */
	unsigned ub, na, epw;                   /* unit bytes, units per access, elements per word (packed) */
	const char *ldop, *stop;                /* global load/store with cache hints */
	const char *in0, *out0;                 /* the parameters in and out (global) */
	const char *in, *out;                   /* the current matrix's bases (tp_walk.c) */
	const char *rows, *cols, *ld_in, *ld_out;
	const char *t, *r0, *c0, *fast, *interior, *pe, *tmp;
	const char *align;                      /* low bits of the matrix's pointers and the pitches (vector kernels) */
	const char *ld_bits;                    /* the pitches' part of align, per kernel */
	const char *sbase;                      /* shared tile base (smem kernels) */
	const char *not_last;                   /* the tile is not the last tile row (realigned loads may read 3 bytes past a row) */
	unsigned row_step;                      /* input rows between a tile row and the next (the walk); 0: tm */
	int shared;                             /* a shared tile: the walk puts a barrier before it is reused */
	/* hooks of the walk (tp_walk.c), for kernels that need more than the
	 * tile kernel's per-matrix, per-tile-row or per-tile set-up; NULL: none */
	void (*on_matrix)(struct em *e);
	void (*on_row)(struct em *e);
	void (*on_tile)(struct em *e);
	const char *xr[TP_MAX_K][TP_MAX_V][4];  /* block k, row i, unit u */
	const char *xc[TP_MAX_K][TP_MAX_V][4];  /* block k, column c, unit u */
} em;

unsigned tp_lg2(unsigned x);
/* The parameters (in0/out0, rows, cols, ld_in, ld_out) and the thread's linear id. */
void tp_setup(em *e);
/* "[%reg]" or "[%reg+off]" */
const char *tp_addr(char *buf, size_t n, const char *reg, unsigned off);
/* "ld.global.v4.b32" and the like: units of the unit type ut. */
const char *tp_unit_op(char *buf, size_t n, const char *base, unsigned units, const char *ut);

/* The G x G transpose of packed elements, G = 4/es (a 4x4 byte or 2x2
 * half-word block, its own inverse): in[j] holds G elements of line j;
 * out[i] gets element i of lines 0..G-1. out must not alias in; for G = 4
 * it goes through the scratch words t[0..3]. */
void tp_prmt_xpose(ptxb *b, unsigned es, const char *const *in, const char *const *out, const char *const *t);

/* tp_walk.c: the walk over tiles and matrices of kernel ABI v2 or v3
 * (docs/DESIGN.md; p->abi). tp_walk_begin emits the grid setup, the test that the
 * block has a tile at all, and the heads of the three loops (matrices, tile
 * rows, tile columns), leaving e->in/out on the matrix and e->r0/c0 on the
 * tile; the caller emits the tile's body, which ends at TILE_DONE;
 * tp_walk_end emits the steps and back edges (with a barrier before a
 * shared tile is reused) and the exit. */
void tp_walk_begin(em *e);
void tp_walk_end(em *e);

/* Kernel ABI v3's decode of the matrix (or tile) index in register `mat`
 * into the batch's records (param_bdims), for a walk of one's own:
 * tp_bdims_declare declares its registers (once), tp_bdims_decode sets in
 * = in0 + the input offset and out = out0 + the output's (bytes, elements
 * of es_bytes), and digit[k] (k < 2; digit NULL: none) to record k's digit. */
void tp_bdims_declare(ptxb *b);
void tp_bdims_decode(ptxb *b, const char *mat, unsigned es_bytes, const char *in0, const char *out0, const char *in,
		     const char *out, const char *const digit[2]);

/* Assemble the kernel p from builder b (its .maxnreg, the entry with the
 * ABI's parameters, .reqntid p->tx x ty, its family's .target) into out
 * and free b. 0, or -1 with err. */
int tp_finish(ptxb *b, const tp_params *p, const char *header, unsigned ty, strbuf *out, char *err,
	      size_t errlen);

/* A family's check of p->foreign (another family's parameter set), where
 * it has no message of its own: "key: applies only to F kernels", -1; 0
 * when there is none. */
int tp_check_foreign(const tp_params *p, char *err, size_t errlen);

#endif
