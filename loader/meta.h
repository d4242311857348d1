/* meta: the self-describing header of a ptxpose PTX file (docs/DESIGN.md).
 * Pure C, no CUDA: the emulator, `list`, gen and the library all read it. */
#ifndef LOADER_META_H
#define LOADER_META_H

#include <stddef.h>
#include <stdint.h>

enum meta_grid { META_GRID_TILE = 1, META_GRID_LINEAR = 2, META_GRID_FLAT = 3, META_GRID_PACK = 4 };
/* What a kernel computes (op=, default transpose): out[j][i] = in[i][j], or
 * rows copied between strided places, out[i][j] = in[i][j] (gen/tp_rowcopy.c). */
enum meta_op { META_OP_TRANSPOSE = 0, META_OP_COPY = 1 };

#define META_MAX_KV 40
/* The longest key and value (kernel names included) a metadata line may
 * hold; gen must not write longer names (keep gen/ in step). */
#define META_KEY_MAX 23
#define META_VAL_MAX 63
#define META_MAX_SMEM 16

typedef struct {
	char id[32];
	int op_store;      /* 1 = st.shared, 0 = ld.shared */
	unsigned bytes;    /* bytes per thread access */
	unsigned wavefronts, ideal;
} meta_smem;

typedef struct {
	char kernel[META_VAL_MAX + 1];
	unsigned elem_bits;
	enum meta_op op;
	enum meta_grid grid;
	unsigned block[3];
	unsigned tile_rows, tile_cols;  /* grid=tile */
	unsigned row_step;              /* grid=tile: rows between tile rows (tile_rows unless sheared) */
	uint64_t per_block;             /* grid=linear, grid=flat; grid=pack: a tile's capacity (elements) */
	unsigned dyn_smem;
	/* every key=value in file order, for display */
	int nkv;
	char key[META_MAX_KV][META_KEY_MAX + 1];
	char val[META_MAX_KV][META_VAL_MAX + 1];
	int nsmem;
	meta_smem smem[META_MAX_SMEM];
} px_meta;

/* Parse the metadata of a PTX text. Returns 0, or -1 with a one-line reason
 * in err ("line 7: tile needs the form TMxTN, got '32'"). */
int meta_parse(const char *ptx, px_meta *m, char *err, size_t errlen);

/* The value of a key, or NULL. */
const char *meta_get(const px_meta *m, const char *key);

/* grid=pack: about the threads an H100 or H200 holds at once (132 SMs x
 * 1024 threads: 4 pack blocks of 256 threads at 64 registers an SM). */
#define META_PACK_THREADS 131072u
/* grid=pack's blocks for tiles tiles and blocks of threads threads (the
 * rule below; lib/model_feat.c's model takes it too). */
uint64_t meta_pack_blocks(uint64_t tiles, unsigned threads);

/* Whether kernel m runs a problem of these features, the one test of it
 * (the plans, their launch, and the tools' checks): copy, a tiled copy (op=1)
 * rather than a transpose; nbd, its batch dims (more than one take kernel
 * ABI v3); tile_vol, the elements of its pack tile (0: it has none). A pack
 * kernel (grid=pack) runs any permutation whose tile it holds. "" when m
 * runs it, else one line in buf saying why not; returns buf. */
const char *meta_takes(const px_meta *m, int copy, unsigned nbd, uint64_t tile_vol, char *buf, size_t len);

/* Launch grid for a batch of rows×cols inputs (kernel ABI v2, docs/DESIGN.md):
 *   grid=tile:   ceil(cols/TN) x min(ceil(rows/TM), 65535) x min(batch, 65535)
 *   grid=linear: min(ceil(rows*cols/per_block), 2^31-1) x 1 x min(batch, 65535)
 *   grid=flat:   ceil(batch / floor(per_block / (rows*cols))) x 1 x 1 (chunks of whole
 *                matrices; batch x 1 x 1 where rows*cols > per_block)
 *   grid=pack:   min(batch, 1024, max(R, ceil(batch/2))) x 1 x 1, R =
 *                META_PACK_THREADS / the block's threads (kernel ABI v4:
 *                batch is the number of tiles, which the blocks walk by the
 *                grid's x; rows and cols are unused but must be 1..2^31-1;
 *                per_block is the most elements a tile may hold, tdims'
 *                vol). Up to R tiles, a block a tile; past R, each block
 *                walks at least 2 tiles (or 1024 blocks), so that its
 *                pipeline overlaps one tile's stores with the next one's
 *                loads and its setup serves two tiles, where the blocks
 *                would otherwise run in two waves.
 * Kernels walk their tiles with the grid's strides, so every shape gets a
 * grid. $PTXPOSE_GRID_MAX=XxYxZ (a test knob) caps each dimension further.
 * Returns 0, or -1 with a reason when rows, cols or batch is not 1..2^31-1 or
 * PTXPOSE_GRID_MAX is malformed. */
int meta_grid_dims(const px_meta *m, uint64_t rows, uint64_t cols, uint64_t batch,
		   unsigned grid[3], char *err, size_t errlen);

/* Threads per block (block[0]*block[1]*block[2]). */
unsigned meta_threads(const px_meta *m);

#endif
