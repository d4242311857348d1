/* api_exec: a plan's launch: fixed for a kernel and a problem, and
 * enqueued; ptxpose_execute (the pointers and the stream checked, one
 * kernel launched (loader/launch.c), no lock, no synchronization). The
 * bottom of the API's layers above lib/api.h. */
#include "lib/api.h"
#include "lib/api_launch.h"
#include "loader/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ptxpose_status api_fix_launch(ptxpose_plan pl, const kreg_kernel *k, const model_problem *p)
{
	char err[512];
	if (*meta_takes(&k->meta, p->op, p->nbd, p->pack.vol, err, sizeof err))
		return api_fail(PTXPOSE_ERR_UNSUPPORTED, "%s", err);
	/* the problem's values, checked to fit the ABI's widths (model_problem_check) */
	abi_args *a = &pl->args;
	const char *abi = meta_get(&k->meta, "abi");
	if (model_args_of(p, abi ? atoi(abi) : ABI_VERSION, a, err, sizeof err))
		return api_fail(PTXPOSE_ERR_UNSUPPORTED, "kernel %s: %s", k->meta.kernel, err);
	if (meta_grid_dims(&k->meta, p->rows, p->cols, a->batch, pl->grid, err, sizeof err))
		return api_fail(PTXPOSE_ERR_INVALID, "%s", err);
	memcpy(pl->block, k->meta.block, sizeof pl->block);
	pl->dyn_smem = k->meta.dyn_smem;
	pl->es = p->es;
	pl->in_bytes = model_problem_in_bytes(p);
	pl->out_bytes = model_problem_out_bytes(p);
	ptxpose_plan_info *i = &pl->info;
	i->kernel = k->meta.kernel;
	memcpy(i->grid, pl->grid, sizeof i->grid);
	memcpy(i->block, pl->block, sizeof i->block);
	i->dyn_smem = pl->dyn_smem;
	return PTXPOSE_OK;
}

/* CU_STREAM_LEGACY and CU_STREAM_PER_THREAD: handles, not streams of a context */
static int special_stream(ptxpose_stream s)
{
	return !s || s == (ptxpose_stream)CU_STREAM_LEGACY || s == (ptxpose_stream)CU_STREAM_PER_THREAD;
}

/* The message for a pointer that fails the plan's alignment. */
static ptxpose_status misaligned(const ptxpose_plan p, const void *in, const void *out)
{
	uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
	if (a % p->es || b % p->es)
		return api_fail(PTXPOSE_ERR_MISALIGNED, "%s %p is not aligned to %u bytes, the element size",
				a % p->es ? "in" : "out", a % p->es ? in : out, p->es);
	return api_fail(PTXPOSE_ERR_MISALIGNED, "%s %p is not aligned to %u bytes, as desc->%s promised",
			a % p->need_in ? "in" : "out", a % p->need_in ? in : out,
			a % p->need_in ? p->need_in : p->need_out, a % p->need_in ? "align_in" : "align_out");
}

static ptxpose_status check_pointers(const ptxpose_plan p, const void *in, const void *out)
{
	uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
	if (!in || !out)
		return api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", in ? "out" : "in");
	/* need_in and need_out are powers of two, at least es (api_plan_make):
	 * one mask test each, no division, on the way that passes */
	if ((a & (p->need_in - 1)) | (b & (p->need_out - 1)))
		return misaligned(p, in, out);
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
	abi_args a = p->args;
	a.in = d_in, a.out = d_out;
	rc = launch_kernel(f, p->fn, p->info.kernel, p->grid, p->block, p->dyn_smem, (CUstream)stream, &a, call,
			   sizeof call);
	return rc ? driver_fail(f, rc, call) : PTXPOSE_OK;
}

ptxpose_status api_execute(ptxpose_plan p, const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st = check_pointers(p, in, out);
	int pushed;
	if (st || (st = api_enter(p->h, &pushed)))
		return st;
	st = api_launch(p, in, out, stream);
	api_leave(p->h, pushed);
	return st;
}

ptxpose_status ptxpose_execute(ptxpose_plan plan, const void *in, void *out, ptxpose_stream stream)
{
	ptxpose_status st = api_check_plan(&plan);
	return st ? st : api_execute(plan, in, out, stream);
}
