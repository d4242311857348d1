/* model: the plan cost model. Pure C, no CUDA.
 *
 * From a device description, a kernel's metadata and a problem (shape,
 * leading dimensions, batch, pointer alignment), the model computes the
 * features of one launch (tiles, the access path each tile takes, the bytes
 * each path moves in whole 32-byte sectors, occupancy, waves, bytes in
 * flight, the share the L2 serves) and predicts its time as a sum of
 * non-negative constants times those features:
 *
 *     us = sum over f of theta(kernel, f) * x[f]
 *
 * The constants come from lib/model_params*.tsv, one table a device
 * (fitted by bench/fit_model.py from its measurements; model_choice.c says
 * which a device gets), embedded in the binary at build time. lib/README.md describes every feature and the fit.
 *
 * Thread safety: everything here is reentrant; model_params_choose()
 * parses the embedded tables once (pthread_once). */
#ifndef LIB_MODEL_H
#define LIB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "loader/meta.h"

/* ---- devices (model_dev.c) ---------------------------------------------- */

typedef struct {
	char name[96];               /* "NVIDIA H100 80GB HBM3" */
	unsigned cc_major, cc_minor;
	unsigned sm_count;
	uint64_t l2_bytes;
	unsigned smem_per_sm;        /* shared memory an SM gives its blocks, bytes */
	unsigned smem_reserved;      /* bytes the driver reserves per block (1024 from sm_80) */
	unsigned regs_per_sm;
	unsigned threads_per_sm, blocks_per_sm;
	double bw_gbps;              /* DRAM bandwidth, 1e9 bytes/s (nominal) */
} model_device;

/* The built-in device descriptions: "h100", "h200" (also matched by their
 * full names, case-insensitive). 0, or -1 with the known names in err. */
int model_device_builtin(const char *name, model_device *d, char *err, size_t errlen);

/* 0, or -1 with a one-line reason (a zero SM count, bandwidth, ...). */
int model_device_check(const model_device *d, char *err, size_t errlen);

/* ---- problems (model_problem.c) ----------------------------------------- */

enum model_status {
	MODEL_OK = 0,
	MODEL_EINVAL,      /* a zero or too large dimension, ld < cols, a bad width */
	MODEL_EMISALIGNED, /* a pointer alignment below the element size */
	MODEL_EOVERFLOW,   /* sizes whose bytes overflow */
};

#define MODEL_DIM_MAX 0x7fffffffu  /* rows, cols, leading dimensions, batch (kernel ABI 2) */

typedef struct {
	unsigned es;                 /* element bytes: 1, 2, 4, 8, 16 */
	uint64_t rows, cols;
	uint64_t ld_in, ld_out;      /* elements; 0: cols and rows */
	uint64_t batch;              /* 0 or 1: one matrix */
	uint64_t stride_in, stride_out; /* elements between matrices; 0: one matrix after the other */
	unsigned align_in, align_out;   /* bytes the pointers are aligned to (a power of two); 0: 256 */
} model_problem;

/* Fill the defaults (ld_in cols, ld_out rows, batch 1, strides dense, each
 * alignment 256) and check everything: dimensions 1 to 2^31-1, ld_in >= cols,
 * ld_out >= rows, batch strides that hold their matrix ((rows-1)*ld_in + cols
 * and (cols-1)*ld_out + rows; not checked for one matrix), buffers whose
 * bytes fit in 2^63, alignments that are powers of two of at least es. On
 * error a one-line message naming the value ("ld_in 4 is less than cols 10
 * (an input row holds cols elements)"). The one check of a problem: the
 * library's plans, `ptxpose plan` and the rig's rig_shape_check all make it. */
enum model_status model_problem_check(model_problem *p, char *err, size_t errlen);

/* What model_problem_check checks before the element size is known (a
 * shape list entry without elem=): the dimensions, leading dimensions and
 * strides, with their defaults filled. */
enum model_status model_problem_check_shape(model_problem *p, char *err, size_t errlen);

/* Bytes of a checked problem's buffers: batch-1 strides and the last matrix
 * whole (its ld padding included, the last row too). */
uint64_t model_problem_in_bytes(const model_problem *p);
uint64_t model_problem_out_bytes(const model_problem *p);

/* Whether the transpose of a checked problem is the identity on memory
 * (out[k] = in[k] for every element it moves): one row with ld_out 1, one
 * column with ld_in 1, or a single element, and for a batch both strides
 * rows*cols (no gaps). Such a problem is planned as a device-to-device copy.
 * 1 with the reason in why ("one row and ld_out 1: ..."), else 0 and why
 * says what stops it. */
int model_problem_is_copy(const model_problem *p, char *why, size_t whylen);

/* The alignment in bytes of a pointer `offset` elements of `es` bytes past
 * a 256-byte boundary (256 for offset 0). */
unsigned model_align_of_offset(uint64_t offset, unsigned es);

/* ---- kernels (model_kernel.c) ------------------------------------------- */

/* How a kernel reaches global memory, as the model sees it. Taken from the
 * metadata; the keys a new kernel family can set to describe itself are in
 * lib/README.md (fast_align, fast_needs, realign, edge, inflight, family, study,
 * target). */
typedef struct {
	char name[META_VAL_MAX + 1];
	char family[32];             /* family=, else "" */
	int study;                   /* study=1: a study kernel, launched only when named (lib/pick.c) */
	unsigned sm;                 /* target=sm_NN: the compute capability x 10 it needs; 0: any (sm_80's PTX) */
	unsigned es;                 /* element bytes */
	int linear;                  /* grid=linear: one element per thread */
	unsigned tm, tn;             /* grid=tile: the tile */
	unsigned step;               /* grid=tile: rows between tile rows (tm, or less for a sheared kernel) */
	uint64_t per_block;          /* grid=linear */
	unsigned threads;
	unsigned fast_align;         /* bytes: pointers and row pitches this aligned take the vector path; 0: none */
	int fast_packed_in, fast_packed_out; /* the vector path also needs ld_in == cols / ld_out == rows */
	int realign_ld, realign_st;  /* misaligned interior tiles load / store realigned words */
	int edge_rows, edge_cols;    /* a partial tile row / column takes the predicated edge path */
	unsigned smem_block;         /* static + dynamic shared memory per block, bytes */
	unsigned regs;               /* per thread */
	int regs_known;              /* from ptxas; else an estimate from the data per thread */
	double smem_wavefronts;      /* per tile, from the `// ptxpose-smem` lines: requests x wavefronts */
	uint64_t inflight;           /* inflight=: sector bytes a block has in flight; 0: its share of the
				      * problem's (loads are all issued before any store) */
} model_kernel;

/* From parsed metadata; regs = 0 when ptxas's figure is not known. 0, or -1
 * with "KERNEL: fast_align=12 is not a power of two". */
int model_kernel_init(model_kernel *k, const px_meta *m, unsigned regs, char *err, size_t errlen);

/* ---- features (model_feat.c) -------------------------------------------- */

enum model_path { MODEL_VEC, MODEL_REALIGN, MODEL_ELEM, MODEL_EDGE, MODEL_NPATH };

/* The inputs of the linear model, in order; names in model_feat_name(). */
enum model_feat {
	MF_LAUNCH,        /* 1 per launch */
	MF_WAVES,         /* waves of blocks over the SMs, rounded up */
	MF_VEC_DRAM,      /* each path's sector requests, as microseconds at the nominal */
	MF_VEC_L2,        /* bandwidth over the concurrency factor: its share of the */
	MF_REALIGN_DRAM,  /* DRAM traffic (the footprint the L2 does not hold), and the */
	MF_REALIGN_L2,    /* rest, served by the L2 */
	MF_ELEM_DRAM,
	MF_ELEM_L2,
	MF_EDGE_DRAM,
	MF_EDGE_L2,
	MF_SLOTS,         /* element slots of edge tiles (inside or not): microseconds at one
			   * slot a nanosecond per SM (predicated code issues every slot) */
	MF_TAIL,          /* where there are edge tiles: one edge tile's element slots per
			   * thread, in microseconds at one a nanosecond (the kernel ends
			   * with its slowest blocks) */
	MF_SMEM,          /* shared-memory wavefronts of every tile (bank conflicts included),
			   * microseconds at one wavefront a nanosecond per SM */
	MF_N
};

const char *model_feat_name(int f);
/* The feature of that name, or -1. */
int model_feat_find(const char *name);
const char *model_path_name(int p);

typedef struct {
	unsigned grid[3];            /* kernel ABI 2's launch grid */
	uint64_t blocks;
	double tiles, interior, edge; /* over all matrices */
	double fast_share;           /* share of matrices whose interior tiles take the vector path */
	double useful;               /* bytes read + written */
	double path_bytes[MODEL_NPATH]; /* sector requests: whole 32-byte sectors, both sides */
	double requests;             /* ... of all paths */
	double slots;                /* element slots of the edge tiles, inside the matrix or not */
	double footprint;            /* distinct bytes in sectors (what DRAM moves without the L2) */
	double l2_hit;               /* the share of the footprint the warm L2 holds */
	unsigned occ;                /* resident blocks per SM */
	const char *occ_by;          /* what limits it: "threads", "smem", "regs", "blocks" */
	double waves;                /* blocks / (SMs * occ) */
	double inflight_block;       /* sector bytes a block moves at a time (a tile, or per_block elements) */
	double inflight_sm;          /* ... per SM in a full wave */
	double phi;                  /* concurrency factor (0, 1]: the share of bandwidth reachable */
	double x[MF_N];
} model_features;

typedef struct model_params model_params;

/* The features of kernel k on problem p (checked) on device d, with the
 * shape constants (L2 window, bytes in flight) of params. */
void model_features_of(const model_device *d, const model_kernel *k, const model_problem *p,
		       const model_params *params, model_features *f);

/* ---- parameters (model_params.c) ---------------------------------------- */

/* The parsed parameter file. theta rows are looked up by kernel name, then
 * "family:NAME", then "*" (which must give every feature). */
struct model_params {
	double l2_lo, l2_hi;         /* footprint / L2 size where the L2's share falls from 1 to 0 */
	double inflight_need;        /* bytes in flight per SM that reach full bandwidth */
	double sm_share_cap;         /* one SM moves at most this many times its share of bandwidth */
	double unsure_margin;        /* a runner-up predicted within this relative margin: unsure */
	char source[1024];           /* the "# fitted from:" header line (a line is under 1024 bytes: never cut) */
	int cases;                   /* the "# fitted cases:" header line: cases the constants were fitted on */
	char name[32];               /* a built-in table's model ("H100", "H200"); "" for a file */
	int nrows;
	struct model_theta {
		char who[128];
		double v[MF_N];
		unsigned have;       /* bit f: v[f] given */
	} *rows;
};

/* Parse parameter text (TSV, lib/README.md). 0, or -1 with "line N: ...". */
int model_params_parse(const char *text, model_params *p, char *err, size_t errlen);
void model_params_free(model_params *p);

/* ---- which parameters a device gets (model_choice.c) ------------------- */

/* The built-in tables (lib/model_params*.tsv, embedded, each parsed once):
 * a device gets the first whose row (model_choice.c) names a word of its
 * name ("H200" in "NVIDIA H200 NVL", not in "NVIDIA GH200") and its compute
 * capability; any other device the H100's, the fallback, and `why` says so. */
typedef struct {
	const model_params *params;  /* never NULL */
	const char *id;              /* "H200" */
	const char *file;            /* "lib/model_params_h200.tsv" */
	int fallback;                /* no row matched: the first row's (the H100's) */
	char why[192];               /* "the device's name has H200, cc 9.0, 132 SMs as fitted" */
	char label[512];             /* "H200 (lib/model_params_h200.tsv, built in; fitted from N cases; WHY)" */
} model_choice;

void model_params_choose(const char *name, unsigned cc_major, unsigned cc_minor, unsigned sm_count,
			 model_choice *c);

/* The chosen table of a device (model_params_choose of its name, cc and SMs). */
const model_params *model_params_for(const model_device *d);

/* The fallback table (lib/model_params.tsv, the H100's), parsed once. Never
 * NULL (the build checks the files: a broken one fails the unit tests). */
const model_params *model_params_builtin(void);

/* theta of feature f for kernel k, and which row gave it. */
double model_theta(const model_params *p, const model_kernel *k, int f, const char **who);

/* ---- prediction and ranking (model_cost.c) ------------------------------ */

typedef struct {
	double us;
	double contrib[MF_N];        /* theta * x per feature (sums to us) */
} model_estimate;

void model_estimate_of(const model_params *p, const model_kernel *k, const model_features *f,
		       model_estimate *e);

/* The predicted time of a copy plan (model_problem_is_copy): the bytes
 * read and written at the device's nominal bandwidth. */
double model_copy_us(const model_device *d, const model_problem *p);

/* Sort n predicted times (fastest first) into order[] (indices, ties by
 * index). Returns 1 when the runner-up is within the margin of the best
 * (the model is unsure), else 0. */
int model_rank(const double *us, int n, double margin, int *order);

#endif
