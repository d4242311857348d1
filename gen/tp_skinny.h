/* tp_skinny: the small-dimension family (internal to gen/tp_skinny*.c).
 *
 * A tile is L elements along the long side by KT along the short side (K,
 * a run-time value: rows of a wide K x N input, columns of a tall N x K
 * one). The long side is K lines of L elements (wide: the input rows; tall:
 * the output rows), moved as aligned 16-byte granules; the short side is
 * L runs of K elements (wide: the output rows; tall: the input rows), one
 * contiguous run of L*K elements when its leading dimension is K. Shared
 * memory holds the tile in run order, chunk by chunk: the V = 16/es long
 * positions of chunk q (one granule of a line) sit in region q, element
 * (c, i) at byte (c*Kt + i)*es, where Kt is the tile's short extent.
 * A tile's long side moves in F stages of L (the walk's tile is F*L long),
 * so that the per-tile set-up is paid once for F stages.
 * Regions are RG granules apart, RG from KT to KT + 15 as the bank model
 * finds cheapest (tp_skinny.c), so that lanes along the long side hit
 * distinct banks; lanes along K touch adjacent elements. Region -1 and
 * region CH are dummies that take what a realigned granule holds outside
 * the tile.
 * Packed (pack = true, 1- and 2-byte elements): a thread's lines come in
 * groups of G = 4/es neighbours along K (line G*rl + p%G + G*RW*(p/G)
 * instead of rl + RW*p), so that element e of a group's G granules is one
 * 4-byte word of the run, (c, r..r+G-1): prmt transposes the group's words
 * and the scatter (wide) or gather (tall) is one 32-bit shared access per
 * G elements. It needs Kt a multiple of G and every line equally
 * misaligned (ld*es a multiple of 16), tested per tile; otherwise the
 * element path runs, with the same lines. */
#ifndef GEN_TP_SKINNY_H
#define GEN_TP_SKINNY_H

#include "gen/tp_lib.h"

enum { SK_WIDE = 1, SK_TALL = 2 }; /* indices in the skinny parameter's values */

/* The skinny parameter's values, NULL-ended (tp_skinny.c; the register
 * family, tp_skinny_reg.c, takes the same parameter). */
extern const char *const sk_shape_names[];

/* The family's own parameters (in tp_params.own). */
typedef struct {
	int shape;       /* SK_WIDE (K x N in) or SK_TALL (N x K in): the Lua values "wide", "tall" */
	unsigned kw;     /* lanes along K in a warp; 0: 4, or the tile's K if fewer */
	unsigned stages; /* a tile's long side moves in this many stages (0: 1) */
	int pack;        /* 1- and 2-byte elements: 32-bit shared accesses where Kt and the lines allow */
	int study;       /* metadata study=1: no plan picks it; it runs when named (timed before it is ranked) */
} tp_skinny;

static inline const tp_skinny *tp_skinny_of(const tp_params *p)
{
	return (const tp_skinny *)(const void *)p->own.bytes;
}

#define SK_MAX_P 8   /* passes along K a thread makes */
#define SK_MAX_S 16  /* chunk slots a thread has (+1: the extra granule) */
#define SK_MAX_V 16  /* elements in a granule */

typedef struct {
	em e;              /* the walk's state (tp_walk.c); first, so hooks cast back */
	int tall;
	unsigned es, V, KT, L, F, T, W, RW, LW, CH, S, P, RG, RB;
	unsigned G;             /* lines a thread packs into a word: 4/es when packed, else 1 */
	const char *packed;     /* pred: this tile's scatter or gather is packed */
	const char *pk[4];      /* the packed path's words in flight */
	const char *lane, *warp, *rl, *chl;
	const char *head;       /* pred: lane of warp 0 with chunk 0 (the head and the extra granule) */
	const char *sbase;      /* shared base */
	const char *rbase;      /* region of this thread's chunk 0: sbase + (k0 + 1)*RB */
	const char *kfirst;     /* the tile's first short index (k0) */
	const char *kt, *ktb;   /* Kt, and Kt*es */
	const char *magic;      /* ceil(2^31 / Kt): mul.hi(2g, magic) = g / Kt for every g < 2^16 */
	const char *gap;        /* RB - 16*Kt: bytes between two regions' runs */
	const char *lfirst;     /* the stage's first long index */
	const char *tn;         /* long extent of the stage: min(L, long_total - lfirst) */
	const char *ltotal, *stotal; /* long and short extents of the matrix */
	const char *ld_line, *ld_run;
	const char *line_base, *run_base;  /* this matrix's line side and run side (global) */
	const char *run_fast;   /* pred: the run is contiguous and aligned (per matrix) */
	const char *realign;    /* pred: the tile's line granules may be read or written whole */
	const char *cached_k;   /* tall: the k0 the line set-up was made for */
	const char *line[SK_MAX_P];     /* b64: line p of this tile: start of its row, per tile row */
	const char *gb[SK_MAX_P];       /* b64: aligned granule of chunk k0 in line p, per tile */
	const char *m[SK_MAX_P];        /* line p's misalignment in elements */
	const char *rowok[SK_MAX_P];    /* pred: line p exists (r_p < Kt) */
	const char *addr[SK_MAX_P][SK_MAX_V]; /* shared address of element e of chunk k0, line p (packed: p % G == 0) */
	const char *alo[SK_MAX_P], *ahi[SK_MAX_P]; /* packed, p % G != 0: element e at e*Kt*es + (e < m ? hi : lo) */
	const char *ea, *eap;   /* such an element's address, computed where it is used; its predicate */
	const char *phys[SK_MAX_P * SK_MAX_S];  /* shared address of this thread's run granule j */
	const char *rok[SK_MAX_P * SK_MAX_S];   /* pred: run granule j is whole in the stage */
	const char *d[SK_MAX_P][SK_MAX_S + 1][4]; /* granule data: words (es <= 4) or b64 */
	const char *tmp[4], *tmp64, *pe;
	unsigned nd;            /* registers a granule: 4 (b32) or 2 (b64) */
} sk;

/* The thread's chunk slot `slot` is chunk k0 + LW*W*slot: its bytes in
 * shared memory are this far from slot 0's. */
static inline unsigned sk_slot_smem(const sk *s, unsigned slot) { return slot * s->LW * s->W * s->RB; }

/* Line p of a thread (tile relative) is G*rl + sk_line_off(s, p). */
static inline unsigned sk_line_off(const sk *s, unsigned p) { return p % s->G + s->G * s->RW * (p / s->G); }

/* tp_skinny_line.c */
void sk_line_setup(sk *s);        /* Kt, magic, rows, misalignment, addresses, run addresses */
void sk_line_tile(sk *s);         /* the tile's granule bases and the realign test */
void sk_line_load(sk *s);         /* wide: granules into registers (realigned or elements) */
void sk_scatter(sk *s);           /* wide: registers into shared memory */
void sk_gather_store(sk *s);      /* tall: shared memory into output granules */
const char *sk_elem_addr(sk *s, unsigned p, unsigned e); /* addr[p][e], or computed into ea */
void sk_elem_op(sk *s, int store, const char *space, const char *guard, const char *addr,
		const char *const *words, unsigned e);

/* tp_skinny_pack.c: the packed scatter (store) or gather (load) of every
 * slot and warp 0's extra granule under the packed predicate, then a
 * branch to `done`; the element path follows, at done_ELEMENTS. */
void sk_packed_path(sk *s, int store, const char *done);

/* tp_skinny_run.c */
void sk_run_load(sk *s);          /* tall: the run into shared memory */
void sk_run_store(sk *s);         /* wide: shared memory into the run */

#endif
