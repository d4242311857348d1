/* ptxpose_tools.h: what ptxpose's own tools (the `ptxpose` command and its
 * modules) take from the library beyond the stable API of ptxpose.h: the
 * cost model without a GPU (a built-in or described device, any kernel set,
 * every candidate ranked with its features and the cost of each: the model's
 * explanation), the kernel registry, and a measured plan's candidates.
 *
 * UNSTABLE: this header may change in any version, minor or patch; it is
 * for ptxpose's tools in this source tree. It is not installed
 * (`./build.sh install` installs ptxpose.h alone), and its functions are
 * exported from libptxpose.a only: the shared library's ABI is ptxpose.h's.
 *
 * Errors: a function returning ptxpose_status sets the last error
 * (ptxpose_last_error) to one line naming what was wrong, as ptxpose.h's do.
 * Thread safety: as the data given; the built-in tables are made once. */
#ifndef PTXPOSE_TOOLS_H
#define PTXPOSE_TOOLS_H

#include "ptxpose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- problems ------------------------------------------------------------- */

/* The pack kernels' tile of an N-d transpose (kernel ABI v4, lib/nd_pack.h):
 * n tile dims (the split ones first: split 0, then 1), and the tiles'
 * batch, slowest first, the splits' outer dims last (split 1's, then split
 * 0's, so that they are the batch records 1 and 0). All 64-bit: no padding
 * (the plan cache hashes it). */
typedef struct {
	uint64_t n;                  /* tile dims, 0: the problem has no pack tile */
	uint64_t ext[6], full[6];    /* tile extents; the dims' whole extents (== ext unless split) */
	uint64_t s_in[6], s_out[6];  /* strides, elements */
	uint64_t nsplit;
	uint64_t nbatch;
	uint64_t b_ext[6], b_in[6], b_out[6];
	uint64_t vol, tiles;         /* elements of a whole tile; tiles (the batch's product) */
	uint64_t run_in, run_out;    /* elements of a tile contiguous in the input, the output */
	uint64_t prefer;             /* 1: the 2-D core's runs are short (lib/nd_pack.h): plans take pack */
} ptxpose_tool_pack;

/* A problem as the model sees it (ptxpose_desc's shape, in the library's
 * units): ptxpose_tool_problem_check fills the defaults. */
typedef struct {
	unsigned es;                 /* element bytes: 1, 2, 4, 8, 16 */
	uint64_t rows, cols;
	uint64_t ld_in, ld_out;      /* elements; 0: cols and rows */
	uint64_t batch;              /* 0 or 1: one matrix */
	uint64_t stride_in, stride_out; /* elements between matrices; 0: one matrix after the other */
	unsigned align_in, align_out;   /* bytes the pointers are aligned to (a power of two); 0: 256 */
	/* What an N-d desc reduced to beyond that (ptxpose_tool_problem_of_desc):
	 * all 0 for a 2-D problem. */
	uint64_t span_in, span_out;  /* > 0: the bytes in and out span (the N-d problem's, exactly) */
	uint64_t copy_elems;         /* > 0: the identity on memory, this many elements (the plan copies) */
	unsigned op;                 /* 0: transpose; 1: copy rows of cols elements (a tiled copy) */
	unsigned nbd;                /* > 1: batch dims walked by kernel ABI v3 (batch is their product,
					* stride_in/out unused) */
	uint64_t bd_ext[6];          /* ... slowest first */
	uint64_t bd_in[6], bd_out[6];   /* ... their strides, elements */
	ptxpose_tool_pack pack;      /* an N-d transpose's other decomposition (kernel ABI v4) */
} ptxpose_tool_problem;

/* The problem of a desc: the library's one conversion of its public type
 * (the plans make the same). A 2-D desc: shape, width and promised
 * alignments copied, nothing checked (PTXPOSE_OK). An N-d desc (rank > 0):
 * checked and reduced (the status and the last error name what is wrong);
 * `why`, when not NULL, gets the reduction's line ("merged 4 dims to 3 ...;
 * transpose 2048x16 batch [8]"). */
PTXPOSE_API ptxpose_status ptxpose_tool_problem_of_desc(ptxpose_tool_problem *p, const ptxpose_desc *d, char *why,
							size_t whylen);
/* The kernel arguments (loader/abi.h's abi_args, size bytes at args) of a
 * problem for a kernel of ABI abi (2, 3, 4), as the library's launch fills
 * them: PTXPOSE_OK, or PTXPOSE_ERR_UNSUPPORTED naming why the problem needs
 * another ABI. */
PTXPOSE_API ptxpose_status ptxpose_tool_launch_args(const ptxpose_tool_problem *p, int abi, void *args, size_t size);
/* ptxpose_tool_problem_check of d's problem, or (shape_only) of its shape
 * alone (not its alignment promises), with the shape defaults it fills (ld,
 * batch, strides) written back to d. */
PTXPOSE_API ptxpose_status ptxpose_tool_desc_check(ptxpose_desc *d, int shape_only);
/* The bytes the input and the output of a checked desc span. */
PTXPOSE_API void ptxpose_tool_desc_bytes(const ptxpose_desc *d, uint64_t *in_bytes, uint64_t *out_bytes);
/* Fill the defaults and check everything, as a plan does: PTXPOSE_OK, or
 * PTXPOSE_ERR_INVALID / _MISALIGNED / _OVERFLOW with the value named. */
PTXPOSE_API ptxpose_status ptxpose_tool_problem_check(ptxpose_tool_problem *p);
/* The alignment in bytes of a pointer `offset` elements of es bytes past a
 * 256-byte boundary (256 for offset 0). */
PTXPOSE_API unsigned ptxpose_tool_align_of_offset(uint64_t offset, unsigned es);
/* 1 when a checked problem's transpose is the identity on memory (the plan
 * copies), with the reason in why; else 0 and why says what stops it. */
PTXPOSE_API int ptxpose_tool_problem_is_copy(const ptxpose_tool_problem *p, char *why, size_t whylen);

/* ---- devices -------------------------------------------------------------- */

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
} ptxpose_tool_device;

/* A built-in device: "h100", "h200" or its full name (any case);
 * PTXPOSE_ERR_INVALID names the known ones. */
PTXPOSE_API ptxpose_status ptxpose_tool_device_builtin(const char *name, ptxpose_tool_device *d);
/* The model's description of device 0, as the library's heuristic plans
 * see their device (what the driver reports: name, SMs, L2, shared memory,
 * registers, bandwidth; the built-in H100's for the rest), read without
 * making a context: the device `ptxpose plan` describes by default.
 * PTXPOSE_ERR_NO_DRIVER or PTXPOSE_ERR_NO_DEVICE where there is none, another
 * status where the driver fails, with the last error saying why. */
PTXPOSE_API ptxpose_status ptxpose_tool_device_present(ptxpose_tool_device *d);
/* PTXPOSE_ERR_INVALID for a description the model cannot use (a zero SM count, ...). */
PTXPOSE_API ptxpose_status ptxpose_tool_device_check(const ptxpose_tool_device *d);
/* A copy plan's predicted time: the bytes at the nominal bandwidth. */
PTXPOSE_API double ptxpose_tool_copy_us(const ptxpose_tool_device *d, const ptxpose_tool_problem *p);

/* ---- the model's constants (lib/model_params.tsv) ------------------------- */

typedef struct ptxpose_tool_params_s ptxpose_tool_params;

/* The built-in table, parsed once; never NULL. */
PTXPOSE_API const ptxpose_tool_params *ptxpose_tool_params_builtin(void);
/* A table of that text (lib/README.md's format): PTXPOSE_ERR_BAD_PTX with
 * "line N: ...", PTXPOSE_ERR_NO_MEMORY. Free it with ptxpose_tool_params_free. */
PTXPOSE_API ptxpose_status ptxpose_tool_params_parse(const char *text, ptxpose_tool_params **out);
PTXPOSE_API void ptxpose_tool_params_free(ptxpose_tool_params *p);
/* The built-in table a device gets (lib/model_choice.c: by a word of its
 * name and its compute capability; the H100's for any other); never NULL.
 * *id gets its name ("H200"), *label what was chosen and why ("H200
 * (lib/model_params_h200.tsv, built in; fitted from N cases; ...)"), each
 * when not NULL, valid until the thread's next call. */
PTXPOSE_API const ptxpose_tool_params *ptxpose_tool_params_for(const char *name, unsigned cc_major, unsigned cc_minor,
								unsigned sm_count, const char **id, const char **label);
/* Its name ("H200", "H100"; "" for a table of ptxpose_tool_params_parse). */
PTXPOSE_API const char *ptxpose_tool_params_name(const ptxpose_tool_params *p);
/* Its "# fitted from:" line, and the margin within which the model is unsure. */
PTXPOSE_API const char *ptxpose_tool_params_source(const ptxpose_tool_params *p);
PTXPOSE_API double ptxpose_tool_params_margin(const ptxpose_tool_params *p);

/* ---- kernel sets ---------------------------------------------------------- */

typedef struct ptxpose_tool_kernels_s ptxpose_tool_kernels;

typedef struct {
	const char *name;            /* the entry: "fast_b32" */
	const char *source;          /* "built in", "PTXPOSE_PTX: dir/a.ptx", a path */
	const char *file;            /* "fast_b32.ptx" (built in), a path */
	const char *ptx;             /* the text, NUL-terminated */
	size_t len;
	unsigned es;                 /* element bytes */
	unsigned block[3];
	unsigned regs;               /* per thread: ptxas's, else the model's estimate */
	int regs_known;              /* regs came from ptxas */
} ptxpose_tool_kernel;

/* An empty set (PTXPOSE_ERR_NO_MEMORY). */
PTXPOSE_API ptxpose_status ptxpose_tool_kernels_new(ptxpose_tool_kernels **out);
PTXPOSE_API void ptxpose_tool_kernels_free(ptxpose_tool_kernels *r);
/* The library's kernels: built in, then $PTXPOSE_PTX's (PTXPOSE_ERR_BAD_PTX
 * naming a file that does not parse). */
PTXPOSE_API ptxpose_status ptxpose_tool_kernels_add_library(ptxpose_tool_kernels *r);
/* A folder's *.ptx files (sorted) or one file, named by their paths. */
PTXPOSE_API ptxpose_status ptxpose_tool_kernels_add_path(ptxpose_tool_kernels *r, const char *path);
PTXPOSE_API int ptxpose_tool_kernels_count(const ptxpose_tool_kernels *r);
/* Kernel i (0 to count-1); it lives as long as the set. */
PTXPOSE_API void ptxpose_tool_kernels_get(const ptxpose_tool_kernels *r, int i, ptxpose_tool_kernel *k);
/* The index of the kernel of that name, or -1. */
PTXPOSE_API int ptxpose_tool_kernels_find(const ptxpose_tool_kernels *r, const char *name);
/* Kernel i's registers per thread, from ptxas (`ptxpose plan --ptxas`). */
PTXPOSE_API ptxpose_status ptxpose_tool_kernels_set_regs(ptxpose_tool_kernels *r, int i, unsigned regs);

/* ---- the model's ranking and its explanation ------------------------------ */

/* The model's features: inputs of its linear cost, by index, named by
 * ptxpose_tool_feature_name; the access paths, named by ptxpose_tool_path_name. */
#define PTXPOSE_TOOL_NFEAT 13
enum { PTXPOSE_TOOL_PATH_VEC, PTXPOSE_TOOL_PATH_REALIGN, PTXPOSE_TOOL_PATH_ELEM, PTXPOSE_TOOL_PATH_EDGE,
       PTXPOSE_TOOL_NPATH };
PTXPOSE_API const char *ptxpose_tool_feature_name(int f);
PTXPOSE_API const char *ptxpose_tool_path_name(int p);

/* One launch of a kernel on a problem, as the model sees it (lib/README.md). */
typedef struct {
	unsigned grid[3];            /* kernel ABI 2's launch grid */
	uint64_t blocks;
	double tiles, interior, edge; /* over all matrices */
	double fast_share;           /* share of matrices whose interior tiles take the vector path */
	double useful;               /* bytes read + written */
	double path_bytes[PTXPOSE_TOOL_NPATH]; /* sector requests: whole 32-byte sectors, both sides */
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
	double x[PTXPOSE_TOOL_NFEAT];
} ptxpose_tool_features;

typedef struct {
	double us;
	double contrib[PTXPOSE_TOOL_NFEAT]; /* theta * x per feature (sums to us) */
} ptxpose_tool_estimate;

/* Why a candidate is ranked after the rest, whatever its estimate. */
enum {
	PTXPOSE_TOOL_AFTER_RANGE = 1,    /* a small-dimension kernel on a K past its range */
	PTXPOSE_TOOL_AFTER_UNFITTED = 2, /* no theta row of its own where a sibling of its family has one */
};

typedef struct {
	int index;                   /* in the kernel set */
	ptxpose_tool_features f;
	ptxpose_tool_estimate e;
	int beyond;                  /* 0, or PTXPOSE_TOOL_AFTER_*: ranked after the rest */
} ptxpose_tool_cand;

typedef struct {
	int n;
	ptxpose_tool_cand *c;        /* fastest first */
	int unsure;                  /* the runner-up within the model's margin */
} ptxpose_tool_ranking;

/* Every kernel of r of the problem's width that runs on d, ranked for the
 * checked problem p as ptxpose_plan_create ranks them (lib/README.md):
 * PTXPOSE_ERR_NO_KERNEL ("no kernel for 8-bit elements among the 3 given"),
 * PTXPOSE_ERR_NO_MEMORY. Free it with ptxpose_tool_ranking_free. */
PTXPOSE_API ptxpose_status ptxpose_tool_rank(const ptxpose_tool_kernels *r, const ptxpose_tool_device *d,
					     const ptxpose_tool_params *params, const ptxpose_tool_problem *p,
					     ptxpose_tool_ranking *out);
PTXPOSE_API void ptxpose_tool_ranking_free(ptxpose_tool_ranking *res);

/* ---- a measured plan's candidates ----------------------------------------- */

typedef struct {
	char kernel[64];
	double predicted_us;
	double measured_us;          /* the median a launch; < 0: not timed */
	int runs, k;                 /* runs of k launches */
	char skipped[48];            /* why not timed; "" */
} ptxpose_tool_timed;

typedef struct {
	int n;
	ptxpose_tool_timed *c;       /* in the model's order */
	int best;                    /* the fastest measured, the plan's kernel */
	int from_cache;
	double budget_ms, spent_ms;  /* when it was measured */
	char method[160];            /* how it was timed */
} ptxpose_tool_report;

/* A PTXPOSE_PLAN_MEASURE plan's every candidate, or NULL (a heuristic or
 * copy plan); it lives as long as the plan. */
PTXPOSE_API const ptxpose_tool_report *ptxpose_tool_plan_report(ptxpose_plan p);

#ifdef __cplusplus
}
#endif
#endif
