/* tp_geom: the derived geometry of a tiled transpose, shared by the code it
 * emits and the bank-conflict model, so both describe the same addresses.
 *
 * The tile is cut into v×v blocks (v = elements per access). Thread t owns
 * K blocks. Under the read mapping consecutive threads take consecutive
 * blocks along an input row (coalesced loads); under the write mapping
 * along an output row (coalesced stores). Block k of thread t sits at block
 * (rb0 + dr[k], gc0 + dc[k]) where (rb0, gc0) depend on t alone. */
#ifndef GEN_TP_GEOM_H
#define GEN_TP_GEOM_H

#include "gen/tp.h"

#define TP_MAX_K 64

/* The tile family's shared-memory layouts (its `smem` parameter). */
enum tp_smem { TP_SMEM_NONE, TP_SMEM_PLAIN, TP_SMEM_PADDED, TP_SMEM_SWIZZLE };
extern const char *const tp_smem_names[]; /* "none", "plain", "padded", "swizzle"; NULL-ended */

typedef struct {
	unsigned fast;                   /* blocks along the mapping's fast axis */
	unsigned dr[TP_MAX_K], dc[TP_MAX_K]; /* per-k block offsets */
} tp_map;

typedef struct {
	unsigned es, v, gbytes;          /* element bytes, vector elements, access bytes */
	unsigned nthr, nbr, nbc, k;      /* threads; blocks down, across; blocks per thread */
	tp_map rd, wr;                   /* read and write mappings */
	/* shared memory: srows rows of sgran granules (gbytes each), pitch
	 * granules apart; physical granule = gcol ^ (((srow >> shr) << shl) & swz) */
	unsigned srows, sgran, pitch, swz, swz_shr, swz_shl;
	int permute;                     /* srow(r) = (r % v) * (srows / v) + r / v */
	unsigned smem_bytes;
} tp_geom;

/* Input rows between a tile row and the next: tm, or tm less the rows of
 * one shear window. */
unsigned tp_row_step(const tp_params *p);

/* Fill g from validated parameters. */
void tp_geom_init(tp_geom *g, const tp_params *p);

/* Block coordinates of thread t's block k under mapping m. */
void tp_map_block(const tp_geom *g, const tp_map *m, int write_map, unsigned t,
		  unsigned k, unsigned *rb, unsigned *gc);

/* Shared row of tile row r (input or output row, per major). */
unsigned tp_srow(const tp_geom *g, unsigned r);

/* Byte offset in shared memory of granule column gcol of tile row r. */
unsigned tp_saddr(const tp_geom *g, unsigned r, unsigned gcol);

#endif
