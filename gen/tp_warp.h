/* tp_warp: the warp-collective study families (internal to gen/tp_warp*.c,
 * tp_movmatrix.c, tp_ldmatrix.c, tp_stmatrix.c, tp_shfl.c).
 *
 * A tile of TM x TN elements is cut into units of UR x UC that one warp
 * moves together; warp w takes units w, w + W, w + 2W, ... in row-major
 * order of the tile's units (UPT a warp). On an interior tile whose
 * pointers and pitches are 16-byte aligned every lane loads and stores
 * whole 16-byte granules, and the transposition in between is the family's:
 *
 *   movmatrix (16-bit, 16x16 units): a lane loads one 8-half row of one of
 *     the unit's four 8x8 blocks; a 4x4 word transpose among the four lanes
 *     of a quad (shfl) makes the four fragments movmatrix takes, four
 *     movmatrix transpose the blocks, a second quad transpose turns the
 *     fragments back into 8-half output rows;
 *   ldmatrix (16-bit, 16x16 units): the tile goes to shared memory by input
 *     rows (16-byte granules, swizzled), ldmatrix.x4.trans reads a unit's
 *     four blocks back transposed, as fragments, and the quad transpose
 *     makes output rows of them;
 *   stmatrix (16-bit, 16x16 units; sm_90): loads and the first quad
 *     transpose as movmatrix, then stmatrix.x4.trans writes each block
 *     transposed into shared memory by output rows, and the stores read
 *     whole granules of output rows back (consecutive threads along a row);
 *   shfl (32-bit, 8x32 units): a quad's lanes hold a 4x4 block of words by
 *     input rows, and the quad transpose alone makes output rows of it.
 *
 * Every other tile (the matrix's edges, pointers or pitches off 16-byte
 * alignment) moves element by element, predicated, in a loop over the tile
 * that every thread runs the same number of times. */
#ifndef GEN_TP_WARP_H
#define GEN_TP_WARP_H

#include "gen/tp_lib.h"

#define WX_STATIC_SMEM_LIMIT 49152
#define WX_MAX_UPT 8  /* units a warp moves per tile */
#define WX_MAX_NLD 2  /* 16-byte granules a lane loads (and stores) per unit */

typedef struct {
	unsigned n, rows[WX_MAX_UPT * WX_MAX_NLD];
	const char *reg[WX_MAX_UPT * WX_MAX_NLD];
} wx_rows;

typedef struct {
	em e;                   /* the walk's state (tp_walk.c) */
	unsigned es, T, W;      /* element bytes, threads, warps */
	unsigned UR, UC, NC;    /* a unit's rows and columns; units across the tile */
	unsigned U, UPT, NLD;   /* units a tile, units a warp, granules a lane per unit */
	const char *lane, *warp;
	const char *bit0, *bit1; /* pred: lane bit 0, bit 1 (the lane's place in its quad) */
	const char *qs[2], *qt[2]; /* quad transpose: the words sent, the words received */
	const char *d[WX_MAX_UPT][WX_MAX_NLD][4]; /* unit i, granule k, word u */
	const char *pin, *pout;  /* b64: the pitches in bytes */
	const char *ldr, *ldc;   /* this lane's first input row and column in unit 0 */
	const char *str, *stc;   /* this lane's first output row and column in unit 0 */
	const char *lda, *sta;   /* b64: the lane's load and store address in unit 0 */
	const char *t64;
	wx_rows rc[2];           /* the row registers of this tile: loads, stores */
} wx;

/* What tells the families apart (their rows' `kind`, in their files). */
typedef struct {
	unsigned elem;          /* element bits */
	unsigned UR, UC, NLD;   /* a unit's rows and columns; 16-byte granules a lane per unit */
	const char *how;        /* the header's lines on how it transposes */
	const char *major;      /* its shared stage's rows: "in" (input rows) or "out"; NULL: no shared memory */
	void (*lanes)(wx *x);   /* lane offsets, before the walk */
	void (*tile)(wx *x);    /* an interior, aligned tile */
	void (*model)(const tp_params *p, strbuf *h); /* the ptxpose-smem lines, or NULL */
} wx_kind;

/* The 16-bit families' units: 16x16 halves, one granule a lane. */
#define WX_16X16_UNITS .elem = 16, .UR = 16, .UC = 16, .NLD = 1

/* The shared emitter's checks, header and kernel (tp_warp.c), for the rows:
 * WX_ROW("name", kind, target). */
int wx_validate(const tp_params *p, char *err, size_t errlen);
void wx_header(const tp_params *p, strbuf *h);
int wx_emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen);
#define WX_ROW(nm, k, tgt)                                                                                    \
	{.name = nm, .select_key = "family", .select_val = nm, .target = tgt, .kind = &k,                     \
	 .validate = wx_validate, .header = wx_header, .emit = wx_emit}

/* The shared stage of a kind with `major`: its bytes, its row pitch in bytes. */
unsigned wx_shared_bytes(const tp_params *p);
unsigned wx_shared_pitch(const tp_params *p);

/* Unit i of a warp: its row and column offsets (elements) from unit 0's,
 * in the tile's input coordinates. */
void wx_unit_delta(const wx *x, unsigned i, unsigned *drow, unsigned *dcol);

/* The warp's first unit (w / NC, w % NC): its first row and column in the
 * tile, into two new registers (unit_r, unit_c). */
void wx_warp_unit(wx *x, const char **ur, const char **uc);

/* The register declared as prefix + i ("sst0"). */
const char *wx_reg_name(const wx *x, const char *prefix, unsigned i);

/* The registers of a warp's lanes and quads (lane, warp, the quad bits,
 * the quad transpose's words), and their values from the thread id e.t
 * (wx_quad_setup; e.tmp is scratch). For a family outside this file's
 * table too (gen/tp_skinny_reg.c). */
void wx_quad_declare(wx *x);
void wx_quad_setup(wx *x);

/* Transpose the 4x4 words r[0..3] of the four lanes of each quad: lane q+j's
 * r[i] becomes lane q+i's r[j]. Two butterflies of shfl.sync. */
void wx_quad_xpose(wx *x, const char *const r[4]);

/* The last steps of the 16x16-unit kernels (ldmatrix, movmatrix): a quad
 * transpose of each unit's fragments into 16-byte granules of output rows,
 * then the stores, one granule a unit. */
void wx_quads_then_stores(wx *x);

/* One 16-byte global access of words w: `rows` rows and `cols` columns
 * past the lane's address in unit 0 (input coordinates for loads, output
 * ones for stores). w NULL: only the row's address register, so that a
 * side's addresses can all come before its accesses. */
void wx_granule(wx *x, int store, const char *const w[4], unsigned rows, unsigned cols);

/* The lane's global granules of the tile: loads (all of them) or stores,
 * 16 bytes each, at the lane's address plus each unit's offset and the
 * granule's (k: rows krow apart on loads, columns kcol apart on stores). */
void wx_global(wx *x, int store, unsigned krow, unsigned kcol);

/* The families' fast paths: lane offsets (before the walk), then the
 * tile's body on an interior, aligned tile. */
void wx_16x16_lanes(wx *x); /* movmatrix's loads; the 16-bit families' stores */
void wx_fragments(wx *x);   /* those loads, then quad transposes: word m holds block m's fragment */

/* The shared stage of the ldmatrix and stmatrix kernels (tp_ldmatrix.c):
 * `rows` rows of `pitch` bytes, granule column g of row r at byte
 * wx_saddr(pitch, r, g) = r x pitch + (g ^ (r & 7)) x 16, so that the same
 * granule column of 8 consecutive rows (an 8x8 block's rows) sits in
 * distinct banks. wx_smem_decl declares it and the registers smem, s_row,
 * s_col; wx_emit_saddr computes dst = smem + wx_saddr(pitch, r, g). */
unsigned wx_saddr(unsigned pitch, unsigned r, unsigned g);
void wx_smem_decl(wx *x, unsigned rows, unsigned pitch, const char *what);
void wx_emit_saddr(wx *x, const char *dst, const char *r, const char *g, unsigned pitch);

/* Thread t's granules t, t + T, ... of the shared stage, ng a row: its row
 * and column (elements) into row and col, and the shared address of granule
 * i into a new register prefix + i. */
void wx_granule_map(wx *x, const char *row, const char *col, unsigned ng, unsigned pitch, const char *prefix);

#endif
