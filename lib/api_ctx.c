/* api_ctx: the handle's context made current for a call, and its kernels
 * linked on demand (one JIT a kernel, under jit_lock). */
#include "lib/api.h"

#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "loader/jit.h"

/* ---- the context for a call ------------------------------------------------- */

ptxpose_status api_enter(ptxpose_handle h, int *pushed)
{
	const cu_ctx *cu = h->cu;
	CUcontext cur = NULL;
	CUresult rc = cu->f->CtxGetCurrent(&cur);
	char err[512];
	*pushed = 0;
	if (!rc && cur == cu->ctx)
		return PTXPOSE_OK;
	if (!rc && !(rc = cu->f->CtxPushCurrent(cu->ctx))) {
		*pushed = 1;
		return PTXPOSE_OK;
	}
	return api_fail_px(CU_FAIL(cu, rc, "cuCtxPushCurrent", err, sizeof err), err);
}

void api_leave(ptxpose_handle h, int pushed)
{
	CUcontext popped;
	if (pushed)
		h->cu->f->CtxPopCurrent(&popped);
}

/* ---- kernels linked on demand -------------------------------------------------- */

/* Room for slot i in h->jit. */
static int jit_slot(ptxpose_handle h, int i)
{
	if (i < h->njit)
		return 0;
	int n = i + 16;
	jit_kernel **p = realloc(h->jit, (size_t)n * sizeof *p);
	if (!p)
		return -1;
	memset(p + h->njit, 0, (size_t)(n - h->njit) * sizeof *p);
	h->jit = p;
	h->njit = n;
	return 0;
}

ptxpose_status api_kernel_fn(ptxpose_handle h, int i, CUfunction *fn)
{
	const kreg_kernel *k = kreg_get(h->reg, i);
	ptxpose_status st = PTXPOSE_OK;
	pthread_mutex_lock(&h->jit_lock);
	if (jit_slot(h, i))
		st = api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory");
	if (!st && !h->jit[i]) {
		strbuf log;
		char err[1024];
		sb_init(&log);
		px_status pst = jit_load(h->cu, k->ptx, &k->meta, (h->log_kinds & PTXPOSE_LOG_JIT_INFO) != 0, &h->jit[i],
					 &log, err, sizeof err);
		if (log.len)
			api_note(h, pst ? PTXPOSE_LOG_JIT_ERROR : PTXPOSE_LOG_JIT_INFO, sb_str(&log));
		sb_free(&log);
		if (pst)
			st = api_fail_px(pst, err);
	}
	if (!st)
		*fn = jit_function(h->jit[i]);
	pthread_mutex_unlock(&h->jit_lock);
	return st;
}
