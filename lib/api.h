/* api: what every file of the public API (lib/api_*.c, include/ptxpose.h)
 * shares: the handle and plan structures, the last error, the ids callers
 * hold, the log, and the handle's context and kernels. The API's layers sit
 * on it, each seeing only those below (each header names the layer):
 *
 *   api_handle.c                create, destroy, log, device     (the top)
 *   api_cache.c   api_cache.h   ptxpose_transpose and its plans
 *   api_plan.c    api_plan.h    a desc to a plan: checked, chosen, fixed
 *   api_measure.c api_measure.h a measured plan's kernel
 *   api_exec.c    api_launch.h  a plan's launch fixed and enqueued; execute
 *   api_status.c, api_live.c, api_log.c, api_ctx.c: this header
 *
 * (api_kernels.c and api_tools.c use this header alone.)
 *
 * Locks of a handle, taken in this order where two are held:
 *   reg_lock (rwlock)  the kernel registry: read to plan, written to register
 *   jit_lock           the modules linked so far (one JIT a kernel)
 *   plan_lock          the user's live plans and ptxpose_transpose's cache
 *   disk_lock          opening the on-disk plan cache (once, for the first measured plan)
 * ptxpose_execute takes none: a plan is immutable once made, and its id is
 * looked up without a lock (api_live.c). No callback is called under a lock
 * (api_log.c). */
#ifndef LIB_API_H
#define LIB_API_H

#include <pthread.h>
#include <stdint.h>

#include "include/ptxpose.h"
#include "loader/abi.h"
#include "loader/cu_api.h"
#include "lib/kreg.h"
#include "lib/model.h"

typedef struct api_cache api_cache;
struct cache;

struct ptxpose_handle_s {
	uintptr_t id;              /* what the caller holds (api_live.c) */
	unsigned flags;
	cu_ctx *cu;
	model_device dev;
	const model_params *params;
	pthread_rwlock_t reg_lock;
	kreg *reg;
	pthread_mutex_t jit_lock;
	jit_kernel **jit;          /* by registry index; NULL until linked */
	int njit;
	jit_kernel **old_jit;      /* of replaced kernels: plans may still launch them */
	int nold;
	pthread_mutex_t plan_lock;
	struct ptxpose_plan_s *plans; /* the caller's live plans */
	api_cache *cache;          /* ptxpose_transpose's plans */
	ptxpose_log_fn log_fn;
	void *log_user;
	unsigned log_kinds;
	px_log notes;              /* PTXPOSE_LOG_NOTE lines, for jit_load */
	pthread_mutex_t disk_lock;
	int disk_tried;
	struct cache *disk;        /* the on-disk cache of measured plans (common/cache.h); NULL until tried */
};

/* A measured plan's candidates, for `ptxpose plan --measure`
 * (include/ptxpose_tools.h defines them for the tools). */
typedef ptxpose_tool_timed api_cand;
typedef ptxpose_tool_report api_report;
_Static_assert(sizeof ((api_cand *)0)->kernel == META_VAL_MAX + 1, "ptxpose_tools.h's kernel name size");

struct ptxpose_plan_s {
	uintptr_t id;              /* what the caller holds; 0 for a plan of the handle's cache (never handed out) */
	ptxpose_handle h;
	struct ptxpose_plan_s *prev, *next;
	const cu_fns *f;
	CUcontext ctx;
	CUfunction fn;             /* NULL for a copy */
	uint64_t copy_bytes;       /* a copy plan: cuMemcpyDtoDAsync of this many bytes */
	unsigned grid[3], block[3], dyn_smem;
	abi_args args;             /* the kernel's arguments but in and out (loader/abi.h), bdims included */
	unsigned es;
	unsigned need_in, need_out; /* the alignment execute requires of each pointer: powers of two, >= es */
	uint64_t in_bytes, out_bytes;
	ptxpose_plan_info info;
	api_report *report;        /* measured plans: every candidate (NULL otherwise) */
};

/* ---- the last error (api_status.c) ---------------------------------------- */

/* Set this thread's last error and return st. */
ptxpose_status api_fail(ptxpose_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The public status of an internal one, msg as the last error. */
ptxpose_status api_fail_px(px_status st, const char *msg);
/* A model check's verdict (lib/model.h) as the API's status, err the last
 * error (a misaligned one prefixed by `misaligned`, e.g. "desc->"). */
ptxpose_status api_fail_model(enum model_status st, const char *misaligned, const char *err);


/* ---- ids (api_live.c) ------------------------------------------------------- */

/* The id a caller gets for a new handle (plan 0) or plan (plan 1), or 0
 * when no more can live. */
uintptr_t api_live_add(void *obj, int plan);
/* The id is stale from now on, for good (a plan freed with its handle). */
void api_live_drop(uintptr_t id);
/* The caller's *h (an id) made the object it names: PTXPOSE_OK; else
 * PTXPOSE_ERR_INVALID (NULL, never an id, the other kind) or
 * PTXPOSE_ERR_STALE (destroyed), *h left as it was. Takes no lock. */
ptxpose_status api_check_handle(ptxpose_handle *h);
ptxpose_status api_check_plan(ptxpose_plan *p);
/* ... and, when it is PTXPOSE_OK, the id made stale in the same step under
 * the table's mutex (a destroy: the caller frees the object). Of two
 * threads destroying one id, one gets PTXPOSE_OK, the other STALE. */
ptxpose_status api_take_handle(ptxpose_handle *h);
ptxpose_status api_take_plan(ptxpose_plan *p);
/* api_check_handle and api_check_plan, and an out argument that must not be
 * NULL, named in the message. */
ptxpose_status api_check_handle_arg(ptxpose_handle *h, const void *arg, const char *name);
ptxpose_status api_check_plan_arg(ptxpose_plan *p, const void *arg, const char *name);

/* ---- the log (api_log.c) -------------------------------------------------------- */

/* Queue a note for the handle's log callback (when it takes `kind`)... */
void api_note(ptxpose_handle h, unsigned kind, const char *text);
/* ... and call the callbacks of this thread's queue: the last thing a
 * public function that may note does, with no lock held. */
void api_log_flush(void);
/* Drop this thread's queued notes of the handle whose id is `from`
 * (ptxpose_destroy: no callback of a destroyed handle). */
void api_log_forget(uintptr_t from);

/* ---- the handle's context and kernels (api_ctx.c) ---------------------------- */

/* Make the handle's context current on this thread for a call when it is
 * not: *pushed says whether api_leave must pop it. */
ptxpose_status api_enter(ptxpose_handle h, int *pushed);
void api_leave(ptxpose_handle h, int pushed);

/* Kernel i of the registry linked in this handle (once, under jit_lock). */
ptxpose_status api_kernel_fn(ptxpose_handle h, int i, CUfunction *fn);

#endif
