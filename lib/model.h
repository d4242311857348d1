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

#include "include/ptxpose_tools.h"
#include "loader/abi.h"
#include "loader/meta.h"

/* ---- devices (model_dev.c) ---------------------------------------------- */

/* The model's view of a device (include/ptxpose_tools.h defines it for the tools). */
typedef ptxpose_tool_device model_device;

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

/* A problem (include/ptxpose_tools.h defines it for the tools). */
typedef ptxpose_tool_problem model_problem;

/* The shape fields a problem shares with the public desc (include/ptxpose.h),
 * by name: the one list of them. A new shape field is one entry here, its
 * field in both types and its check below. */
#define MODEL_SHAPE_FIELDS(X) X(rows) X(cols) X(ld_in) X(ld_out) X(batch) X(stride_in) X(stride_out)

/* The problem of a desc: the one conversion of the public type, made by the
 * library's plans (api_problem) and by the tools' checks. Fields copied
 * (elem_bytes into es, align_in/out too), nothing checked. */
void model_problem_of_desc(model_problem *p, const ptxpose_desc *d);

/* The kernel arguments of a problem for a kernel of ABI abi (2, 3 or 4):
 * the 2-D core's values, v3's batch records, or v4's tile (tdims) and its
 * tiles' batch (batch = the tiles). 0, or -1 with one line in err: the
 * problem needs another ABI, or has no pack tile. */
int model_args_of(const model_problem *p, int abi, abi_args *a, char *err, size_t errlen);

/* The problem of an N-d desc (rank > 0): checked (common/nd.c), reduced and
 * classified (lib/nd_reduce.h), in the kernels' terms: copy_elems (a copy), op 1
 * (a tiled copy: rows of cols elements), or a transpose; one batch dim as
 * batch/stride_in/stride_out, more as nbd/bd_* (kernel ABI v3); span_in/out
 * exact. a_in, a_out: the alignments known (promised, or the pointers'), 0
 * where none is (then no dim folds into a wider element). why, when not
 * NULL, gets the reduction's line. MODEL_OK, or an error naming the value. */
enum model_status model_problem_of_nd(model_problem *p, const ptxpose_desc *d, unsigned a_in, unsigned a_out,
				      char *why, size_t whylen, char *err, size_t errlen);
/* The bytes an N-d desc's input and output span (nd_spans), checked. */
enum model_status model_nd_spans(const ptxpose_desc *d, uint64_t *in, uint64_t *out, char *err, size_t errlen);
/* 1 when d uses the N-d fields (its size has them and rank > 0). */
int model_desc_is_nd(const ptxpose_desc *d);

/* model_problem_check of d's problem, or (shape_only) model_problem_check_shape,
 * with the shape defaults it fills (ld, batch, strides) written back to d. */
enum model_status model_desc_check(ptxpose_desc *d, int shape_only, char *err, size_t errlen);

/* model_problem_in_bytes and _out_bytes of a checked desc. */
void model_desc_bytes(const ptxpose_desc *d, uint64_t *in, uint64_t *out);

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
	int flat;                    /* grid=flat: chunks of whole matrices (gen/tp_flat.c) */
	int pack;                    /* grid=pack: N-d tiles (gen/tp_pack.c, kernel ABI v4) */
	unsigned tm, tn;             /* grid=tile: the tile */
	unsigned step;               /* grid=tile: rows between tile rows (tm, or less for a sheared kernel) */
	uint64_t per_block;          /* grid=linear, grid=flat: elements a block moves; grid=pack: a tile's capacity */
	unsigned threads;
	unsigned fast_align;         /* bytes: pointers and row pitches this aligned take the vector path; 0: none */
	int fast_packed_in, fast_packed_out; /* the vector path also needs ld_in == cols / ld_out == rows */
	unsigned fast_k;             /* fast_k= (skinny families): the only fast path needs K x es and the run
				      * side this aligned, the line side fast_align; 0: none (lib/pick.c) */
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

enum model_path {
	MODEL_VEC = PTXPOSE_TOOL_PATH_VEC,
	MODEL_REALIGN = PTXPOSE_TOOL_PATH_REALIGN,
	MODEL_ELEM = PTXPOSE_TOOL_PATH_ELEM,
	MODEL_EDGE = PTXPOSE_TOOL_PATH_EDGE,
	MODEL_NPATH = PTXPOSE_TOOL_NPATH
};

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

/* One launch as the model sees it (include/ptxpose_tools.h defines it for the tools). */
typedef ptxpose_tool_features model_features;
_Static_assert(MF_N == PTXPOSE_TOOL_NFEAT, "ptxpose_tools.h's feature count");

typedef struct ptxpose_tool_params_s model_params;

/* The features of kernel k on problem p (checked) on device d, with the
 * shape constants (L2 window, bytes in flight) of params. */
void model_features_of(const model_device *d, const model_kernel *k, const model_problem *p,
		       const model_params *params, model_features *f);

/* ---- parameters (model_params.c) ---------------------------------------- */

/* The parsed parameter file. theta rows are looked up by kernel name, then
 * "family:NAME", then "*" (which must give every feature). */
struct ptxpose_tool_params_s {
	double l2_lo, l2_hi;         /* footprint / L2 size where the L2's share falls from 1 to 0 */
	double inflight_need;        /* bytes in flight per SM that reach full bandwidth */
	double sm_share_cap;         /* one SM moves at most this many times its share of bandwidth */
	double unsure_margin;        /* a runner-up predicted within this relative margin: unsure */
	char source[4096];           /* the "# fitted from:" header line, cut to 4095 bytes */
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

/* Whether the table has a row of kernel `name`'s own (fitted on its timings). */
int model_params_fitted(const model_params *p, const char *name);

/* ---- prediction and ranking (model_cost.c) ------------------------------ */

typedef ptxpose_tool_estimate model_estimate;  /* the time and each feature's share of it */

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
