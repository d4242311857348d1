/* nd_pack: the tile of the pack kernels (kernel ABI v4, loader/abi.h) for a
 * reduced transpose (lib/nd_reduce.h): the input's fastest dims and the
 * output's fastest dims, whole or split, until each side's contiguous run
 * reaches a target, then grown by whole dims while the tile fits; the other
 * dims and the splits' outer parts are the tiles' batch. cuTT's "packed"
 * method, for the problems whose 2-D core is a tiny matrix. */
#ifndef LIB_ND_PACK_H
#define LIB_ND_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/nd_reduce.h"
#include "include/ptxpose_tools.h"
#include "loader/abi.h"

typedef ptxpose_tool_pack nd_pack;

/* The tile for r (a transpose or a tiled copy: any class but ND_COPY) and
 * kernels that hold cap elements a tile: 0 with *pk filled and one line in
 * why ("pack tile 32(split)x8(split)x8 = 2048 of 2048, runs 256 B in / 128
 * B out, 4096 tiles"), or -1 with why saying what stops it (a copy, no tile
 * with runs of 8 bytes within cap, 6 dims and 31-bit offsets, a batch of
 * more than 6 dims or 2^31 tiles). */
int nd_pack_choose(const nd_reduced *r, unsigned cap, nd_pack *pk, char *why, size_t whylen);

/* The runs (bytes) each side of a tile aims at. */
#define ND_PACK_RUN_BYTES 128

/* Whether the pack kernels beat the kernels of the 2-D core on r: a
 * transpose over a batch of 2 or more dims (which only the v3 kernels walk
 * otherwise) whose rows or cols are at most ND_PACK_PREFER_EXT elements; a
 * tiled copy whose runs are at most ND_PACK_PREFER_RUN_BYTES and whose row
 * copy would have at most ND_PACK_PREFER_ROWS rows. Measured, H200,
 * 2026-11-26 (lab/TUNING.md): on 42 such transposes the pack kernels won
 * 27, and the rule takes 52.6% of the copy as a geomean (the v3 kernels
 * alone 24.3%, the faster of the two 53.5%); where the batch has one dim or
 * none, the v2 families (flat, skinny, tile) beat the pack kernels on 78 of
 * 84 cases; among 30 tiled copies the pack kernels won 2, both of 48-byte
 * runs, one of them where the row copy had 2 rows (6.7% of the copy against
 * 58.0%). */
#define ND_PACK_PREFER_EXT 16
#define ND_PACK_PREFER_RUN_BYTES 48
#define ND_PACK_PREFER_ROWS 4
int nd_pack_preferred(const nd_reduced *r);

/* Elements the largest pack kernel of a width holds a tile
 * (scripts/variants.lua's pack_b*; t1102 checks ptx/pack_b*.ptx's per_block). */
#define ND_PACK_CAP(es) ((es) == 16 ? 1024u : 2048u)

/* The launch's tdims of a chosen tile (abi_tdims_fill): 0, or -1 with err. */
int nd_pack_tdims(const nd_pack *pk, unsigned es, uint8_t out[ABI_TDIMS_BYTES], char *err, size_t errlen);

#endif
