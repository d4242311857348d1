/* ptxpose.h: out-of-place matrix transposes on NVIDIA GPUs, through
 * hand-scheduled PTX kernels that ship inside the library.
 *
 *   out_b[j * ld_out + i] = in_b[i * ld_in + j]   for i < rows, j < cols, b < batch
 *
 * where in_b = in + b * stride_in and out_b = out + b * stride_out (all in
 * elements). A transpose moves bits: elements are 1, 2, 4, 8 or 16 bytes of
 * any type.
 *
 * Use (examples/transpose.c is a whole program):
 *
 *     ptxpose_handle h;  ptxpose_create(&h, 0);
 *     ptxpose_desc d = PTXPOSE_DESC_INIT;  d.elem_bytes = 4;  d.rows = R;  d.cols = C;
 *     ptxpose_plan p;    ptxpose_plan_create(h, &p, &d);
 *     ptxpose_execute(p, d_in, d_out, stream);      // asynchronous, as often as you like
 *     ptxpose_plan_destroy(p);  ptxpose_destroy(h);
 *
 * or, planning through the handle's plan cache, in one call:
 *
 *     ptxpose_transpose(h, &d, d_in, d_out, stream);
 *
 * Any permutation of an N-d tensor (rank up to 8) takes the same desc with
 * rank, extents and perm set (ptxpose_desc, ptxpose_permute).
 *
 * Every function but ptxpose_version, ptxpose_status_string and
 * ptxpose_last_error returns a ptxpose_status; on failure ptxpose_last_error()
 * holds a one-line explanation that names the value at fault ("ld_in 4 is
 * less than cols 10 (...)").
 *
 * libcuda.so.1 is opened at run time: a program linked with ptxpose starts
 * on a machine without a driver and gets PTXPOSE_ERR_NO_DRIVER from
 * ptxpose_create. $PTXPOSE_LIBCUDA names another driver library to open.
 *
 * The kernels: the committed PTX files (ptx/) of the source tree are compiled into
 * the library (text, metadata and ptxas's register count), so an installed
 * library needs no other file. $PTXPOSE_PTX (folders or .ptx files, separated
 * by ':') adds kernels, or replaces those of the same name, when a handle is
 * created; ptxpose_register_ptx adds one to a handle.
 *
 * Thread safety:
 *   - ptxpose_execute: a plan may be executed from several threads at once,
 *     on the same or different streams; execute takes no lock and does not
 *     synchronize (it launches one kernel, or a copy plan's one
 *     cuMemcpyDtoDAsync, on `stream` and returns).
 *   - ptxpose_plan_create, ptxpose_transpose, ptxpose_register_ptx, the
 *     queries and the handle's kernel, module and plan caches: safe from
 *     several threads at once on one handle (the caches take the handle's
 *     lock; a kernel is JIT-linked once however many threads ask for it).
 *   - ptxpose_set_log: before the handle is shared; the callback may then be
 *     called from any thread that uses the handle, on that thread, before
 *     the call that logs returns and with no lock of the library held: it
 *     may call any ptxpose function, on the same handle too (even destroy
 *     it: the call that logged then touches it no more, and the handle's
 *     notes not yet delivered are dropped: no callback of a handle runs
 *     after ptxpose_destroy of it returns on that thread). The calling
 *     thread's ptxpose_last_error is the same after the callbacks as before.
 *   - ptxpose_plan_destroy and ptxpose_destroy: when no other thread uses the
 *     plan (or the handle and its plans); destroying what another thread is
 *     using at that moment is the caller's error (undefined); of two
 *     threads destroying the same plan (or handle) at once, one destroys it
 *     and the other gets PTXPOSE_ERR_STALE.
 *   - A handle or plan is an id, not an address. Once destroyed (a plan
 *     also when its handle is), every later use of it gets
 *     PTXPOSE_ERR_STALE, however many handles and plans were made and
 *     destroyed since: ids are never reused. A value that never was a
 *     handle, or a plan given for a handle (and the reverse), gets
 *     PTXPOSE_ERR_INVALID. Neither is ever dereferenced.
 *   - ptxpose_last_error: per thread.
 *   - ptxpose_create, ptxpose_driver_symbol, ptxpose_status_string: any time,
 *     from any thread (the driver is opened once per process).
 *
 * Contexts: a handle works in the CUDA context that was current on the
 * thread that created it (or device 0's primary context, made current on
 * that thread, when none was). Its functions may be called from any thread:
 * they make the handle's context current for the call when it is not, and
 * restore the caller's. A stream must belong to the handle's context
 * (PTXPOSE_ERR_CONTEXT otherwise); NULL is the legacy default stream, and
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are accepted. */
#ifndef PTXPOSE_H
#define PTXPOSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PTXPOSE_API __attribute__((visibility("default")))
#else
#define PTXPOSE_API
#endif

/* The library's version. The shared library's soname is libptxpose.so.MAJOR, and
 * libptxpose.so.0.MINOR while MAJOR is 0: until 1.0 every MINOR may change the ABI. */
#define PTXPOSE_VERSION_MAJOR 0
#define PTXPOSE_VERSION_MINOR 3
#define PTXPOSE_VERSION_PATCH 0

/* "0.3.0 (commit 1a2b3c4)": the version and the commit it was built from. */
PTXPOSE_API const char *ptxpose_version(void);

typedef enum {
	PTXPOSE_OK = 0,
	PTXPOSE_ERR_INVALID = 1,     /* a NULL argument, a bad width, ld < cols, a zero dimension, a bad desc->size */
	PTXPOSE_ERR_MISALIGNED = 2,  /* a pointer not aligned to the element size, or to the desc's align_in/out */
	PTXPOSE_ERR_OVERFLOW = 3,    /* sizes whose bytes overflow 63 bits */
	PTXPOSE_ERR_NO_DRIVER = 4,   /* libcuda.so.1 missing, too old, or cuInit failed */
	PTXPOSE_ERR_NO_DEVICE = 5,   /* no CUDA device */
	PTXPOSE_ERR_CONTEXT = 6,     /* a stream of another context than the handle's */
	PTXPOSE_ERR_CUDA = 7,        /* a driver call failed (a launch, a module load) */
	PTXPOSE_ERR_JIT = 8,         /* a kernel's PTX did not link for this device */
	PTXPOSE_ERR_NO_MEMORY = 9,   /* host or device memory ran out */
	PTXPOSE_ERR_NO_KERNEL = 10,  /* no kernel for this element width, or none of that name */
	PTXPOSE_ERR_BAD_PTX = 11,    /* PTX without ptxpose metadata, kernel ABI 1, a bad $PTXPOSE_PTX file */
	PTXPOSE_ERR_STALE = 12,      /* a destroyed handle or plan (always detected) */
	PTXPOSE_ERR_UNSUPPORTED = 13 /* something this version does not do */
} ptxpose_status;

/* "PTXPOSE_ERR_MISALIGNED: a pointer not aligned for its element size or plan"
 * (static text; an unknown value gets "PTXPOSE_ERR_?: not a ptxpose status"). */
PTXPOSE_API const char *ptxpose_status_string(ptxpose_status st);

/* The one-line explanation of the last call on this thread that failed
 * ("desc->ld_in 4 is less than cols 10"), or "" if none has. A call that
 * succeeds leaves it as it was (like errno). */
PTXPOSE_API const char *ptxpose_last_error(void);

typedef struct ptxpose_handle_s *ptxpose_handle;
typedef struct ptxpose_plan_s *ptxpose_plan;
/* The same type as CUstream and cudaStream_t. */
typedef struct CUstream_st *ptxpose_stream;

/* PTXPOSE_PLAN_MEASURE: the model's best few kernels for the problem (up to
 * 6) and every other it predicts within its unsure margin of the best (at
 * most 12 in all) are timed on scratch buffers of the problem's sizes whose
 * pointers have the plan's alignment, on a private stream: a warm-up
 * launch, then the median of 5 runs of back-to-back launches between two
 * events, until desc->measure_budget_ms is spent (the model's best is
 * always timed); the fastest is kept. The plan info says what it cost.
 * The choice is kept in the on-disk cache, per device, driver and kernel
 * set, so that a later plan for the same problem (in this or another
 * process) takes it without timing (from_cache 1): $PTXPOSE_CACHE (a folder,
 * or "off"), else $XDG_CACHE_HOME/ptxpose, else ~/.cache/ptxpose;
 * PTXPOSE_NO_CACHE (ptxpose_create) leaves it alone. A bad or unusable cache
 * (a $PTXPOSE_CACHE too long for a path included) never fails a plan: it is
 * noted through the log callback (PTXPOSE_LOG_NOTE) and measured again. Scratch memory that cannot be had
 * gives the heuristic plan, with a note. A copy (PTXPOSE_COPY) is not
 * measured. */
enum {
	PTXPOSE_PLAN_HEURISTIC = 0, /* the cost model chooses; no GPU time */
	PTXPOSE_PLAN_MEASURE = 1    /* time the plausible candidates on the GPU, or take the cache's choice */
};

/* A transpose problem. Start from PTXPOSE_DESC_INIT, then set the fields. */
#define PTXPOSE_MAX_RANK 8

typedef struct {
	uint32_t size;                  /* sizeof(ptxpose_desc): PTXPOSE_DESC_INIT sets it */
	uint32_t elem_bytes;            /* 1, 2, 4, 8 or 16 */
	uint64_t rows, cols;            /* of one input matrix, 1 to 2^31-1 */
	uint64_t ld_in, ld_out;         /* elements, ld_in >= cols, ld_out >= rows; 0: cols and rows */
	uint64_t batch;                 /* matrices, 1 to 2^31-1; 0: one */
	uint64_t stride_in, stride_out; /* elements between matrices (batch > 1); 0: rows*ld_in, cols*ld_out */
	uint32_t align_in, align_out;   /* bytes the pointers are promised to be aligned to (a power of two,
					 * at least elem_bytes; execute refuses a pointer with less); 0: no
					 * promise beyond elem_bytes (plans assume 256, what cudaMalloc gives;
					 * every kernel stays correct for any element-aligned pointer) */
	uint32_t mode;                  /* PTXPOSE_PLAN_HEURISTIC or PTXPOSE_PLAN_MEASURE */
	uint32_t reserved;              /* 0 */
	double measure_budget_ms;       /* PTXPOSE_PLAN_MEASURE: checked between candidates, after the
	                                 * first is timed (which always is); 0: 200 ms */
	const char *kernel;             /* NULL: the plan chooses; else this kernel by name (ptxpose_kernel_info) */
	/* ---- N-d permutations (since 0.4) -----------------------------------
	 * rank 0: the 2-D problem above. rank 1 to PTXPOSE_MAX_RANK: any
	 * permutation of a tensor, out = in.transpose(perm) in NumPy's convention
	 * (output dim k is input dim perm[k]); rows, cols, ld_in, ld_out, batch,
	 * stride_in and stride_out must then be 0. Input dim i has extents[i]
	 * (1 to 2^31-1; dim 0 the slowest) and stride strides_in[i]; output dim k
	 * has extent extents[perm[k]] and stride strides_out[k]. Strides are in
	 * elements, >= 0; all 0 on a side: packed row-major. Output strides under
	 * which two elements might share an address are refused. The plan drops
	 * extent-1 dims, merges dims adjacent in both tensors, folds a small
	 * preserved innermost dim into a wider element (as the alignments allow),
	 * and then copies, runs a transpose kernel over a batch of the other
	 * dims, or runs a tiled copy (`ptxpose plan` prints what it chose). A 2-D
	 * transpose is rank 2 with perm {1, 0}. */
	uint32_t rank;
	uint32_t perm[PTXPOSE_MAX_RANK];
	uint64_t extents[PTXPOSE_MAX_RANK];
	int64_t strides_in[PTXPOSE_MAX_RANK];
	int64_t strides_out[PTXPOSE_MAX_RANK];
} ptxpose_desc;

#define PTXPOSE_DESC_INIT {sizeof(ptxpose_desc), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {0}, {0}, {0}, {0}}
/* The size of a 0.3 desc, without the N-d fields: the library takes it too. */
#define PTXPOSE_DESC_SIZE_0_3 offsetof(ptxpose_desc, rank)

enum {
	PTXPOSE_NO_CACHE = 1u << 0 /* ptxpose_create: neither read nor write the on-disk cache of measured plans */
};

/* A handle on the calling thread's current CUDA context if it has one, else
 * on device 0's primary context (retained, and made current on this thread).
 * PTXPOSE_ERR_NO_DRIVER, PTXPOSE_ERR_NO_DEVICE, PTXPOSE_ERR_BAD_PTX (a
 * $PTXPOSE_PTX file). */
PTXPOSE_API ptxpose_status ptxpose_create(ptxpose_handle *h, unsigned flags);
/* Every plan of the handle and its modules go with it. */
PTXPOSE_API ptxpose_status ptxpose_destroy(ptxpose_handle h);

/* Verbose notes and the JIT's logs, for tools (`ptxpose run -v`). */
enum {
	PTXPOSE_LOG_NOTE = 1u << 0,      /* one line: what the library did ("jit: fast_b32: 30 registers ...") */
	PTXPOSE_LOG_JIT_INFO = 1u << 1,  /* the JIT's info log (asked of the JIT in verbose mode) */
	PTXPOSE_LOG_JIT_ERROR = 1u << 2  /* the JIT's error log, after PTXPOSE_ERR_JIT */
};
typedef void (*ptxpose_log_fn)(void *user, unsigned kind, const char *text);
/* fn receives the kinds in `kinds` (a mask of PTXPOSE_LOG_*); NULL: none. */
PTXPOSE_API ptxpose_status ptxpose_set_log(ptxpose_handle h, ptxpose_log_fn fn, void *user, unsigned kinds);

/* Choose a kernel for the problem (desc->kernel NULL), or take the one named,
 * JIT-link it if this handle has not yet, and fix its launch. */
PTXPOSE_API ptxpose_status ptxpose_plan_create(ptxpose_handle h, ptxpose_plan *plan, const ptxpose_desc *desc);
PTXPOSE_API ptxpose_status ptxpose_plan_destroy(ptxpose_plan plan);

/* Enqueue the transpose of the device buffers `in` to `out` on `stream` and
 * return: asynchronous, no synchronization. The buffers must hold the
 * plan's matrices; they are checked for alignment, not for size. Out of
 * place: the spans of in and out (from the first matrix's first element to
 * the last one's last: batch strides and leading dimensions included, the
 * last row's padding not) must not share a byte, or PTXPOSE_ERR_INVALID,
 * even where strided views would touch no common element; a span that runs past
 * the end of the address space (2^64) is PTXPOSE_ERR_INVALID too. */
PTXPOSE_API ptxpose_status ptxpose_execute(ptxpose_plan plan, const void *in, void *out, ptxpose_stream stream);

/* Plan (through the handle's plan cache: the first call for a problem plans,
 * the next ones find it) and execute. With desc->align_in/out 0 the plan is
 * made for the alignment the pointers have. */
PTXPOSE_API ptxpose_status ptxpose_transpose(ptxpose_handle h, const ptxpose_desc *desc, const void *in,
					     void *out, ptxpose_stream stream);

/* Any permutation of an N-d tensor (desc->rank 1 to PTXPOSE_MAX_RANK, see
 * ptxpose_desc), planned through the handle's plan cache and executed, as
 * ptxpose_transpose does (which takes N-d descs too). Example, attention
 * heads [B, S, H, D] -> [B, H, S, D] of 2-byte elements, packed:
 *
 *     ptxpose_desc d = PTXPOSE_DESC_INIT;
 *     d.elem_bytes = 2;  d.rank = 4;
 *     d.extents[0] = B;  d.extents[1] = S;  d.extents[2] = H;  d.extents[3] = D;
 *     d.perm[0] = 0;     d.perm[1] = 2;     d.perm[2] = 1;     d.perm[3] = 3;
 *     ptxpose_permute(h, &d, d_in, d_out, stream);
 *
 * (or ptxpose_plan_create with the same desc, then ptxpose_execute). */
PTXPOSE_API ptxpose_status ptxpose_permute(ptxpose_handle h, const ptxpose_desc *desc, const void *in, void *out,
					   ptxpose_stream stream);

/* ---- queries ---------------------------------------------------------------- */

typedef struct {
	const char *name;        /* "fast_b32": the entry, and the name desc->kernel takes */
	uint32_t elem_bytes;
	uint32_t tile_rows, tile_cols; /* grid=tile; 0 for grid=linear */
	uint64_t per_block;      /* grid=linear, grid=flat: elements a block moves; else 0 */
	uint32_t block[3];       /* threads */
	uint32_t regs;           /* registers a thread, from ptxas for sm_90 at build time; 0: unknown */
	const char *source;      /* "built in", "PTXPOSE_PTX: dir/x.ptx", "registered" */
	const char *meta;        /* every `// ptxpose` key=value, space-separated */
	const char *ptx;         /* the PTX text */
} ptxpose_kernel_info;

/* The strings stay valid until the handle is destroyed. A NULL handle: the
 * built-in kernels and $PTXPOSE_PTX's (what a handle made now would hold,
 * before any ptxpose_register_ptx), read once a process with no driver
 * needed; its strings stay valid for the process. */
PTXPOSE_API ptxpose_status ptxpose_kernel_count(ptxpose_handle h, int *count);
PTXPOSE_API ptxpose_status ptxpose_kernel_get(ptxpose_handle h, int index, ptxpose_kernel_info *info);

/* The plan of a problem whose transpose is the identity on memory (one row
 * with ld_out 1, one column with ld_in 1, or single elements; a batch with
 * strides rows*cols): ptxpose_plan_info.kernel is PTXPOSE_COPY and
 * kernel_index -1, and execute enqueues one cuMemcpyDtoDAsync of the bytes
 * on the stream (no kernel; a stream capture takes it as a graph node). A
 * desc->kernel named by the caller is launched even then. */
#define PTXPOSE_COPY "copy"

typedef struct {
	const char *kernel;      /* the chosen kernel's name, or PTXPOSE_COPY */
	int kernel_index;        /* for ptxpose_kernel_get; -1 for PTXPOSE_COPY */
	uint32_t grid[3], block[3]; /* 0 for PTXPOSE_COPY */
	uint32_t dyn_smem;       /* bytes of dynamic shared memory a block */
	double predicted_us;     /* the model's time (for PTXPOSE_COPY: the bytes at the nominal bandwidth) */
	double measured_us;      /* PTXPOSE_PLAN_MEASURE: the winner's time a launch (from the cache: as
				  * measured then); else 0 */
	int unsure;              /* the runner-up is predicted within the model's margin */
	int candidates;          /* kernels the model ranked */
	int from_cache;          /* the choice came from the on-disk plan cache */
	int timed;               /* PTXPOSE_PLAN_MEASURE: candidates timed (from the cache: then) */
	double measure_ms;       /* PTXPOSE_PLAN_MEASURE: milliseconds this plan creation spent timing (0 from
				  * the cache) */
} ptxpose_plan_info;

PTXPOSE_API ptxpose_status ptxpose_plan_get(ptxpose_plan plan, ptxpose_plan_info *info);

typedef struct {
	char name[256];          /* "NVIDIA H100 80GB HBM3" */
	int ordinal;
	int cc_major, cc_minor;
	int sm_count;
	int l2_bytes;
	int driver_version;      /* cuDriverGetVersion: 13000 for 13.0 */
	void *context;           /* the handle's CUcontext */
} ptxpose_device_info;

PTXPOSE_API ptxpose_status ptxpose_device_get(ptxpose_handle h, ptxpose_device_info *info);

/* ---- registration ------------------------------------------------------------ */

/* Add a kernel to the handle: PTX text of `len` bytes (no NUL byte inside
 * but, optionally, the last) with ptxpose metadata for kernel ABI 2
 * (docs/DESIGN.md): `// ptxpose kernel=NAME abi=2 elem=BITS grid=... block=...`.
 * A kernel of the same name is replaced for plans made after. *index (if not
 * NULL) receives its index. PTXPOSE_ERR_BAD_PTX names what is wrong; the PTX
 * itself is first linked when a plan takes it (PTXPOSE_ERR_JIT then). */
PTXPOSE_API ptxpose_status ptxpose_register_ptx(ptxpose_handle h, const char *ptx, size_t len, int *index);

/* ---- the driver ------------------------------------------------------------- */

/* The address of a CUDA driver API function (an exported symbol of libcuda,
 * such as "cuMemAlloc_v2") from the driver the library opened, so that a
 * program linked only with ptxpose calls the same driver as the library
 * (cudaGetDriverEntryPoint does this for the runtime). Opens the driver if
 * needed: PTXPOSE_ERR_NO_DRIVER; PTXPOSE_ERR_INVALID for a symbol it lacks. */
PTXPOSE_API ptxpose_status ptxpose_driver_symbol(const char *symbol, void **fn);

#ifdef __cplusplus
}
#endif
#endif
