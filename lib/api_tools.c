/* api_tools: include/ptxpose_tools.h, the unstable functions ptxpose's own
 * tools take beyond ptxpose.h: the model, the kernel registry and the
 * ranking, with the library's errors turned into the last error. Each is a
 * thin door onto lib/model.h, lib/kreg.h and lib/pick.h (whose types are
 * the header's). ptxpose_tool_plan_report is api_measure.c's. */
#include "lib/api.h"

#include <stdlib.h>

#include "lib/pick.h"

/* ---- problems ------------------------------------------------------------- */

ptxpose_status ptxpose_tool_problem_check(ptxpose_tool_problem *p)
{
	char err[512];
	return api_fail_model(model_problem_check(p, err, sizeof err), "", err);
}

ptxpose_status ptxpose_tool_problem_of_desc(ptxpose_tool_problem *p, const ptxpose_desc *d, char *why, size_t whylen)
{
	if (!model_desc_is_nd(d)) {
		model_problem_of_desc(p, d);
		if (why && whylen)
			why[0] = '\0';
		return PTXPOSE_OK;
	}
	char err[512];
	return api_fail_model(model_problem_of_nd(p, d, d->align_in, d->align_out, why, whylen, err, sizeof err), "",
			      err);
}

ptxpose_status ptxpose_tool_desc_check(ptxpose_desc *d, int shape_only)
{
	char err[512];
	return api_fail_model(model_desc_check(d, shape_only, err, sizeof err), "", err);
}

void ptxpose_tool_desc_bytes(const ptxpose_desc *d, uint64_t *in_bytes, uint64_t *out_bytes)
{
	model_desc_bytes(d, in_bytes, out_bytes);
}

unsigned ptxpose_tool_align_of_offset(uint64_t offset, unsigned es)
{
	return model_align_of_offset(offset, es);
}

int ptxpose_tool_problem_is_copy(const ptxpose_tool_problem *p, char *why, size_t whylen)
{
	return model_problem_is_copy(p, why, whylen);
}

const char *ptxpose_tool_params_name(const ptxpose_tool_params *p)
{
	return p->name;
}

const ptxpose_tool_params *ptxpose_tool_params_for(const char *name, unsigned cc_major, unsigned cc_minor,
						    unsigned sm_count, const char **id, const char **label)
{
	static __thread model_choice c; /* its strings live until the thread's next call */
	model_params_choose(name, cc_major, cc_minor, sm_count, &c);
	if (id)
		*id = c.id;
	if (label)
		*label = c.label;
	return c.params;
}

/* ---- devices -------------------------------------------------------------- */

ptxpose_status ptxpose_tool_device_builtin(const char *name, ptxpose_tool_device *d)
{
	char err[512];
	return model_device_builtin(name, d, err, sizeof err) ? api_fail(PTXPOSE_ERR_INVALID, "%s", err) : PTXPOSE_OK;
}

ptxpose_status ptxpose_tool_device_present(ptxpose_tool_device *d)
{
	char err[512];
	cu_devinfo info;
	px_status st = cu_probe(&info, err, sizeof err);
	if (st)
		return api_fail_px(st, err);
	pick_device(&info, d);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_tool_device_check(const ptxpose_tool_device *d)
{
	char err[512];
	return model_device_check(d, err, sizeof err) ? api_fail(PTXPOSE_ERR_INVALID, "%s", err) : PTXPOSE_OK;
}

double ptxpose_tool_copy_us(const ptxpose_tool_device *d, const ptxpose_tool_problem *p)
{
	return model_copy_us(d, p);
}

/* ---- the model's constants ------------------------------------------------ */

const ptxpose_tool_params *ptxpose_tool_params_builtin(void)
{
	return model_params_builtin();
}

ptxpose_status ptxpose_tool_params_parse(const char *text, ptxpose_tool_params **out)
{
	char err[512];
	*out = calloc(1, sizeof **out);
	if (!*out)
		return api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory");
	if (!model_params_parse(text, *out, err, sizeof err))
		return PTXPOSE_OK;
	free(*out);
	*out = NULL;
	return api_fail(PTXPOSE_ERR_BAD_PTX, "%s", err);
}

void ptxpose_tool_params_free(ptxpose_tool_params *p)
{
	if (p)
		model_params_free(p);
	free(p);
}

const char *ptxpose_tool_params_source(const ptxpose_tool_params *p)
{
	return p->source;
}

double ptxpose_tool_params_margin(const ptxpose_tool_params *p)
{
	return p->unsure_margin;
}

/* ---- kernel sets ---------------------------------------------------------- */

ptxpose_status ptxpose_tool_kernels_new(ptxpose_tool_kernels **out)
{
	char err[1024];
	return api_fail_px(kreg_new(out, err, sizeof err), err);
}

void ptxpose_tool_kernels_free(ptxpose_tool_kernels *r)
{
	kreg_free(r);
}

ptxpose_status ptxpose_tool_kernels_add_library(ptxpose_tool_kernels *r)
{
	char err[1024];
	px_status st = kreg_add_builtins(r, err, sizeof err);
	if (!st)
		st = kreg_add_env(r, err, sizeof err);
	return api_fail_px(st, err);
}

ptxpose_status ptxpose_tool_kernels_add_path(ptxpose_tool_kernels *r, const char *path)
{
	char err[1024];
	return api_fail_px(kreg_add_path(r, path, NULL, err, sizeof err), err);
}

int ptxpose_tool_kernels_count(const ptxpose_tool_kernels *r)
{
	return kreg_count(r);
}

void ptxpose_tool_kernels_get(const ptxpose_tool_kernels *r, int i, ptxpose_tool_kernel *out)
{
	const kreg_kernel *k = kreg_get(r, i);
	*out = (ptxpose_tool_kernel){
		.name = k->meta.kernel, .source = k->source, .file = k->file, .ptx = k->ptx, .len = k->len,
		.es = k->mk.es, .block = {k->meta.block[0], k->meta.block[1], k->meta.block[2]},
		.regs = k->mk.regs, .regs_known = k->mk.regs_known,
	};
}

int ptxpose_tool_kernels_find(const ptxpose_tool_kernels *r, const char *name)
{
	return kreg_find(r, name);
}

ptxpose_status ptxpose_tool_kernels_set_regs(ptxpose_tool_kernels *r, int i, unsigned regs)
{
	return kreg_set_regs(r, i, regs) ? api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory") : PTXPOSE_OK;
}

/* ---- the ranking ---------------------------------------------------------- */

const char *ptxpose_tool_feature_name(int f)
{
	return model_feat_name(f);
}

const char *ptxpose_tool_path_name(int p)
{
	return model_path_name(p);
}

ptxpose_status ptxpose_tool_rank(const ptxpose_tool_kernels *r, const ptxpose_tool_device *d,
				 const ptxpose_tool_params *params, const ptxpose_tool_problem *p, ptxpose_tool_ranking *out)
{
	char err[512];
	return api_fail_px(pick_rank(r, d, params, p, out, err, sizeof err), err);
}

void ptxpose_tool_ranking_free(ptxpose_tool_ranking *res)
{
	pick_free(res);
}

ptxpose_status ptxpose_tool_launch_args(const ptxpose_tool_problem *p, int abi, void *args, size_t size)
{
	char err[512];
	if (size != sizeof(abi_args))
		return api_fail(PTXPOSE_ERR_INVALID, "launch args: %zu bytes given, loader/abi.h's abi_args has %zu", size,
				sizeof(abi_args));
	if (model_args_of(p, abi, args, err, sizeof err))
		return api_fail(PTXPOSE_ERR_UNSUPPORTED, "%s", err);
	return PTXPOSE_OK;
}
