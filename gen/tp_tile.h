/* tp_tile: the tile family (internal to its files: tp_tile.c, the row, its
 * checks and header; tp_emit.c, the kernel; tp_access.c, its global
 * and shared accesses; tp_packed.c, tp_realign.c, tp_shear.c, narrow
 * elements; tp_geom.c and bank.c, its geometry and bank model). */
#ifndef GEN_TP_TILE_H
#define GEN_TP_TILE_H

#include <stddef.h>

#include "gen/tp_geom.h"
#include "gen/tp_lib.h"

/* The family's own parameters (in tp_params.own). */
typedef struct {
	int smem;              /* enum tp_smem */
	int major_in;          /* shared rows are input rows (1) or output rows (0) */
	int coalesce_write;    /* smem=none: the write side is coalesced */
	unsigned swizzle_mask; /* 0 = derived; a test-only override otherwise */
	int ld_nc;             /* loads through the non-coherent path, no L1 allocation */
	int st_cs;             /* streaming stores (.cs: evict first) */
	int wide_realign;      /* 1- and 2-byte elements on rows off alignment: realign whole granules (tp_realign.c) */
	unsigned shear;        /* 0, or bytes: with wide_realign, interior tiles off alignment write each output row
				* in windows aligned to this many bytes, and tiles step by tm - shear/elem rows
				* (tp_shear.c) */
	int dyn_smem;          /* the shared tile in dynamic shared memory (up to 227 KB, opted in at launch) */
	int study;             /* metadata study=1: no plan picks it; it runs when named (timed before it is ranked) */
} tp_tile;

static inline const tp_tile *tp_tile_of(const tp_params *p) { return (const tp_tile *)(const void *)p->own.bytes; }

/* tp_emit.c: the kernel (the row's emitter). */
int tp_tile_emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen);

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

/* tp_access.c: what the kernel's paths share. "{%a, %b, ...}" (or "%a")
 * of block k's row vector (row) or column vector j; the thread's first
 * block under mapping m; row and column offsets of access (k, j). */
const char *tp_unit_list(char *buf, size_t n, const em *e, unsigned k, int row, unsigned j);
void tp_block0(em *e, const tp_map *m, int write_map, const char *tag, const char **rb0, const char **gc0);
void tp_gaccess(const em *e, const gside *s, unsigned k, unsigned j, unsigned *mrow, unsigned *ncol);

/* Shared address of granule column b0 + db of shared row a0 + cr (a0 and b0
 * registers as tp_block0 left them) into dst, with the swizzle. */
void tp_smem_addr(em *e, const char *tag, const char *a0, const char *b0, unsigned cr,
		  unsigned db, const char *dst);

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

/* tp_access.c: element (i, c) of block k as one access at address a (a load
 * into the input row i, or a store from output row c), under guard. */
void tp_elem_access(em *e, const gside *s, unsigned k, unsigned i, unsigned c, const char *a,
		    const char *guard);

#endif
