/* tp_int: the emitter's shared state and helpers (internal to gen/tp_*.c). */
#ifndef GEN_TP_INT_H
#define GEN_TP_INT_H

#include <stddef.h>

#include "gen/ptxb.h"
#include "gen/tp.h"
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
	/* hooks of the walk (tp_walk.c), for kernels that need more than the
	 * tile kernel's per-matrix, per-tile-row or per-tile set-up; NULL: none */
	void (*on_matrix)(struct em *e);
	void (*on_row)(struct em *e);
	void (*on_tile)(struct em *e);
	const char *xr[TP_MAX_K][TP_MAX_V][4];  /* block k, row i, unit u */
	const char *xc[TP_MAX_K][TP_MAX_V][4];  /* block k, column c, unit u */
} em;

/* One side of global memory: the input (load) or the output (store). */
typedef struct {
	int store;
	const tp_map *m;
	int write_map;
	const char *tag;                   /* "ld" or "st" */
	const char *roff, *coff, *pitch;   /* per thread: row and column offsets in the tile, pitch in bytes */
	const char *row[256];              /* address of the thread's row m */
	const char *rows_left, *cols_left; /* signed room below and right of it */
} gside;

/* How one side reaches global memory: whole vectors (aligned interior
 * tiles), unpredicated elements (misaligned interior tiles), predicated
 * elements (edge tiles), predicated whole vectors (edge tiles whose
 * pointers and pitches are aligned and whose matrix ends on a vector
 * boundary along the side's rows), or aligned words realigned with prmt
 * (misaligned interior tiles of 1- and 2-byte elements). */
enum { ACC_VECTOR, ACC_ELEMENT, ACC_EDGE, ACC_EDGE_VECTOR };

unsigned tp_lg2(unsigned x);
/* The parameters (in0/out0, rows, cols, ld_in, ld_out) and the thread's linear id. */
void tp_setup(em *e);
const char *tp_addr(char *buf, size_t n, const char *reg, unsigned off);
const char *tp_unit_list(char *buf, size_t n, const em *e, unsigned k, int row, unsigned j);
const char *tp_unit_op(char *buf, size_t n, const char *base, unsigned units, const char *ut);
void tp_block0(em *e, const tp_map *m, int write_map, const char *tag, const char **rb0, const char **gc0);
void tp_gaccess(const em *e, const gside *s, unsigned k, unsigned j, unsigned *mrow, unsigned *ncol);

/* Shared address of granule column b0 + db of shared row a0 + cr (a0 and b0
 * registers as tp_block0 left them) into dst, with the swizzle. */
void tp_smem_addr(em *e, const char *tag, const char *a0, const char *b0, unsigned cr,
		  unsigned db, const char *dst);

/* tp_walk.c: the walk over tiles and matrices of kernel ABI v2
 * (docs/DESIGN.md). tp_walk_begin emits the grid setup, the test that the
 * block has a tile at all, and the heads of the three loops (matrices, tile
 * rows, tile columns), leaving e->in/out on the matrix and e->r0/c0 on the
 * tile; the caller emits the tile's body, which ends at TILE_DONE;
 * tp_walk_end emits the steps and back edges (with a barrier before a
 * shared tile is reused) and the exit. */
void tp_walk_begin(em *e);
void tp_walk_end(em *e);

/* tp_packed.c: packed 1- and 2-byte elements: the prmt transpose of a
 * block, and realigned words on misaligned interior tiles. */
void tp_emit_xpose(em *e);
int tp_realign_loads(const em *e);
int tp_realign_stores(const em *e);
void tp_emit_realign_loads(em *e, const gside *s);
void tp_emit_realign_stores(em *e, const gside *s);
void tp_prmt_selector(ptxb *b, const char *sel, const char *off);
void tp_row_gap(ptxb *b, const char *d, const char *row, unsigned A);
void tp_next_granule(em *e, const char *tag, const char *a0, const char *rb0, const char *nb,
		     unsigned da, unsigned db, unsigned c, const char *sa);

/* tp_realign.c: the same with whole granules (wide_realign). A pair of
 * granules and what shifts it: tp_wide_declare names the registers (w: the
 * pair, off: the shift in bytes, 0 .. A-1); tp_wide_shift writes bytes off
 * .. off + A - 1 of the pair into dst[0 .. na). */
typedef struct {
	const char *w[8], *t[6], *s[5], *tmp, *off, *sel, *p4, *p8;
} tp_wregs;
int tp_wide_realign(const em *e);
void tp_wide_declare(em *e, tp_wregs *r, const char *tag);
void tp_wide_shift(em *e, const tp_wregs *r, const char *const *dst);
void tp_emit_wide_loads(em *e, const gside *s);
void tp_emit_wide_stores(em *e, const gside *s);

/* tp_shear.c: the stores of a sheared kernel (shear): windows aligned to
 * the shear, the head of a matrix's rows on its first tile row. */
void tp_emit_sheared_stores(em *e, const gside *s);

/* tp_emit.c: element (i, c) of block k as one access at address a (a load
 * into the input row i, or a store from output row c), under guard. */
void tp_elem_access(em *e, const gside *s, unsigned k, unsigned i, unsigned c, const char *a,
		    const char *guard);

#endif
