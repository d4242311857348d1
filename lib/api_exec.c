/* api_exec: ptxpose_execute (the pointers and the stream checked, one
 * kernel launched (loader/launch.c), no lock, no synchronization) and
 * ptxpose_transpose (a plan from the handle's cache, then execute). */
#include "lib/api.h"
#include "loader/launch.h"

#include <stdio.h>
#include <stdlib.h>

/* CU_STREAM_LEGACY and CU_STREAM_PER_THREAD: handles, not streams of a context */
static int special_stream(ptxpose_stream s)
{
	return !s || s == (ptxpose_stream)CU_STREAM_LEGACY || s == (ptxpose_stream)CU_STREAM_PER_THREAD;
}

static ptxpose_status check_pointers(const ptxpose_plan p, const void *in, const void *out)
{
	uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
	if (!in || !out)
		return api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", in ? "out" : "in");
	if (a % p->es || b % p->es)
		return api_fail(PTXPOSE_ERR_MISALIGNED, "%s %p is not aligned to %u bytes, the element size",
				a % p->es ? "in" : "out", a % p->es ? in : out, p->es);
	if (a % p->need_in || b % p->need_out)
		return api_fail(PTXPOSE_ERR_MISALIGNED, "%s %p is not aligned to %u bytes, as desc->%s promised",
				a % p->need_in ? "in" : "out", a % p->need_in ? in : out,
				a % p->need_in ? p->need_in : p->need_out, a % p->need_in ? "align_in" : "align_out");
	/* a span that wraps the address space is no buffer (and would hide an
	 * overlap); one that ends at 2^64 is. Spans are >= 1 byte: their last
	 * bytes, a_end and b_end, do not wrap. */
	int wi = p->in_bytes - 1 > UINTPTR_MAX - a;
	if (wi || p->out_bytes - 1 > UINTPTR_MAX - b)
		return api_fail(PTXPOSE_ERR_INVALID, "%s %p + %llu bytes wraps past the end of the address space",
				wi ? "in" : "out", wi ? in : out, (unsigned long long)(wi ? p->in_bytes : p->out_bytes));
	uintptr_t a_end = a + (p->in_bytes - 1), b_end = b + (p->out_bytes - 1);
	/* out of place: the two buffers must not share a byte */
	if (a <= b_end && b <= a_end)
		return api_fail(PTXPOSE_ERR_INVALID, "in and out overlap (in %p, %llu bytes; out %p, %llu bytes): "
						     "ptxpose transposes out of place", in, (unsigned long long)p->in_bytes,
				out, (unsigned long long)p->out_bytes);
	return PTXPOSE_OK;
}

/* A failed driver call as the last error: "lib/api_exec.c:NN: call: CUDA_ERROR_..." */
static ptxpose_status driver_fail(const cu_fns *f, CUresult rc, const char *call)
{
	char err[512];
	cu_ctx tmp = {.f = f};
	return api_fail_px(CU_FAIL(&tmp, rc, call, err, sizeof err), err);
}

ptxpose_status api_launch(ptxpose_plan p, const void *in, void *out, ptxpose_stream stream)
{
	const cu_fns *f = p->f;
	CUresult rc;
	char call[320];
	if (!special_stream(stream)) {
		CUcontext sctx = NULL;
		if ((rc = f->StreamGetCtx((CUstream)stream, &sctx)))
			return driver_fail(f, rc, "cuStreamGetCtx");
		if (sctx != p->ctx)
			return api_fail(PTXPOSE_ERR_CONTEXT, "stream %p belongs to CUDA context %p, the handle's is %p",
					(void *)stream, (void *)sctx, (void *)p->ctx);
	}
	CUdeviceptr d_in = (CUdeviceptr)(uintptr_t)in, d_out = (CUdeviceptr)(uintptr_t)out;
	if (p->copy_bytes) { /* the identity on memory: a copy (a stream capture makes it a graph node) */
		if (!(rc = f->MemcpyDtoDAsync(d_out, d_in, (size_t)p->copy_bytes, (CUstream)stream)))
			return PTXPOSE_OK;
		snprintf(call, sizeof call, "cuMemcpyDtoDAsync(%llu bytes)", (unsigned long long)p->copy_bytes);
		return driver_fail(f, rc, call);
	}
	abi_args a = {.in = d_in, .out = d_out, .rows = p->rows, .cols = p->cols, .ld_in = p->ld_in,
		      .ld_out = p->ld_out, .batch = p->batch, .stride_in = p->stride_in, .stride_out = p->stride_out};
	abi_bdims_v2(&a); /* what a named kernel of ABI v3 reads (loader/abi.h) */
	rc = launch_kernel(f, p->fn, p->info.kernel, p->grid, p->block, p->dyn_smem, (CUstream)stream, &a, call,
			   sizeof call);
	return rc ? driver_fail(f, rc, call) : PTXPOSE_OK;
}

/* A plan already checked: the pointers, the context for the call, the launch. */
static ptxpose_status execute(ptxpose_plan p, const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st = check_pointers(p, in, out);
	int pushed;
	if (st || (st = api_enter(p->h, &pushed)))
		return st;
	st = api_launch(p, in, out, stream);
	api_leave(p->h, pushed);
	return st;
}

/* ptxpose_transpose's plan from the handle's cache (made and kept on a
 * miss), executed. */
static ptxpose_status plan_and_execute(ptxpose_handle h, const ptxpose_desc *desc, const model_problem *p,
				       const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st;
	const char *kernel = desc->kernel;
	unsigned mode = desc->mode;
	pthread_mutex_lock(&h->plan_lock);
	ptxpose_plan plan = api_cache_get(h->cache, p, kernel, mode);
	pthread_mutex_unlock(&h->plan_lock);
	if (!plan) {
		ptxpose_plan made;
		if ((st = api_plan_make(h, desc, p, &made)))
			return st;
		pthread_mutex_lock(&h->plan_lock);
		/* another thread may have made the same plan meanwhile: keep one */
		if (!(plan = api_cache_get(h->cache, p, kernel, mode)) && !api_cache_put(h->cache, p, kernel, mode, made))
			plan = made, made = NULL;
		pthread_mutex_unlock(&h->plan_lock);
		if (!plan) { /* the cache is full: this call's own plan, then gone */
			st = execute(made, in, out, stream);
			api_plan_free(made);
			return st;
		}
		if (made)
			api_plan_free(made);
	}
	return execute(plan, in, out, stream);
}

ptxpose_status ptxpose_execute(ptxpose_plan plan, const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st = api_check_plan(&plan);
	return st ? st : execute(plan, in, out, stream);
}

ptxpose_status ptxpose_transpose(ptxpose_handle h, const ptxpose_desc *desc, const void *in, void *out,
				 ptxpose_stream stream)
{
	ptxpose_status st = api_check_handle(&h);
	model_problem p;
	if (!st && (!in || !out))
		st = api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", in ? "out" : "in");
	if (st || (st = api_problem(desc, in, out, &p)))
		return st;
	st = plan_and_execute(h, desc, &p, in, out, stream);
	api_log_flush(); /* the last: a callback may even destroy h */
	return st;
}
