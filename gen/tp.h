/* tp: the transpose generator. One generator with parameters, not a file per
 * variant: out[j][i] = in[i][j], row-major, leading dimensions in elements,
 * 64-bit addressing, kernel ABI as in docs/DESIGN.md. */
#ifndef GEN_TP_H
#define GEN_TP_H

#include <stddef.h>

#include "common/strbuf.h"
#include "loader/meta.h"

enum tp_smem { TP_SMEM_NONE, TP_SMEM_PLAIN, TP_SMEM_PADDED, TP_SMEM_SWIZZLE, TP_SMEM_RUNS /* skinny kernels */ };
enum tp_skinny { TP_SKINNY_NONE, TP_SKINNY_WIDE, TP_SKINNY_TALL };
/* The warp-collective study families (gen/tp_warp.c): the tile kernel's
 * transposition done by movmatrix, ldmatrix.trans, stmatrix.trans or shfl
 * (issue 20). */
enum tp_family {
	TP_FAMILY_TILE, TP_FAMILY_MOVMATRIX, TP_FAMILY_LDMATRIX, TP_FAMILY_STMATRIX, TP_FAMILY_SHFL,
	TP_FAMILY_N
};

typedef struct {
	char name[META_VAL_MAX + 1]; /* kernel entry name: a metadata value (loader/meta.h) */
	unsigned elem;        /* element width in bits */
	unsigned tm, tn;      /* tile: input rows × input columns per block */
	unsigned tx, ty;      /* threads per block */
	unsigned vec;         /* elements per global access (1, 2, 4) */
	enum tp_smem smem;
	int major_in;         /* shared rows are input rows (1) or output rows (0) */
	int coalesce_write;   /* smem=none: the write side is coalesced */
	int linear;           /* naive 1-D grid, one element per thread */
	unsigned swizzle_mask;/* 0 = derived; a test-only override otherwise */
	int ld_nc;            /* loads through the non-coherent path, no L1 allocation */
	int st_cs;            /* streaming stores (.cs: evict first) */
	int wide_realign;     /* 1- and 2-byte elements on rows off alignment: realign whole granules (gen/tp_realign.c) */
	unsigned shear;       /* 0, or bytes: with wide_realign, interior tiles off alignment write each output row
			       * in windows aligned to this many bytes, and tiles step by tm - shear/elem rows
			       * (gen/tp_shear.c) */
	int dyn_smem;         /* the shared tile in dynamic shared memory (up to 227 KB, opted in at launch) */
	unsigned group;       /* 0: tiles in launch order; G: G tile columns at a time, top to bottom */
	unsigned max_regs;    /* 0: ptxas decides; else .maxnreg (registers a thread) */
	enum tp_skinny skinny;/* the small-dimension family (gen/tp_skinny.c): K x N (wide) or N x K (tall) */
	unsigned kw;          /* skinny: lanes along K in a warp */
	unsigned stages;      /* skinny: a tile's long side moves in this many stages (0: 1) */
	enum tp_family family;/* the tile kernel, or a warp-collective study family */
	char script[128];     /* the script that asked, for the header */
} tp_params;

/* Defaults: 32-bit, 32x32 tile, 32x8 threads, vec 1, no shared memory. */
void tp_defaults(tp_params *p);

/* Check a parameter set. Returns 0, or -1 with "parameter: reason" in err. */
int tp_validate(const tp_params *p, char *err, size_t errlen);

/* Generate the PTX for p (validated first). Returns 0 or -1 with err. */
int tp_generate(const tp_params *p, strbuf *out, char *err, size_t errlen);

const char *tp_smem_name(enum tp_smem s);

/* "tile", "movmatrix", "ldmatrix", "stmatrix", "shfl": the Lua parameter's
 * values. */
const char *tp_family_name(enum tp_family f);

/* The .target of p's kernel: sm_80, or sm_90 where an instruction needs it
 * (stmatrix); the file's metadata then says target=sm_90. */
const char *tp_target(const tp_params *p);

/* Input rows between a tile row and the next: tm, or tm less the rows of
 * one shear window. */
unsigned tp_row_step(const tp_params *p);

#endif
