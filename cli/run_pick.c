/* run_pick: the cost model's kernel without a GPU (run_pick.h). */
#include "cli/run_pick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxpose_tools.h"
#include "rig/op.h"

px_status run_pick_kernel(const rig_shape *s, px_file *f, char *note, size_t nlen, char *err, size_t errlen)
{
	ptxpose_tool_kernels *r = NULL;
	ptxpose_tool_device dev;
	ptxpose_tool_problem p;
	ptxpose_tool_ranking res = {0};
	ptxpose_status pst = ptxpose_tool_problem_of_desc(&p, &s->p, NULL, 0);
	if (!p.span_in)
		p.align_in = p.align_out = ptxpose_tool_align_of_offset(s->offset, p.es);
	if (!pst)
		pst = ptxpose_tool_kernels_new(&r);
	if (!pst)
		pst = ptxpose_tool_kernels_add_library(r);
	if (!pst)
		pst = ptxpose_tool_device_builtin("h100", &dev);
	if (!pst)
		pst = ptxpose_tool_problem_check(&p);
	if (!pst)
		pst = ptxpose_tool_rank(r, &dev, ptxpose_tool_params_builtin(), &p, &res);
	px_status st = pst ? rig_api_fail(pst, err, errlen) : PX_OK;
	if (!st) {
		ptxpose_tool_kernel k;
		ptxpose_tool_kernels_get(r, res.c[0].index, &k);
		char *text = strdup(k.ptx);
		/* f->path outlives the registry: the command runs one kernel */
		static char name[64];
		snprintf(name, sizeof name, "%s", k.name);
		char why[256];
		if (ptxpose_tool_problem_is_copy(&p, why, sizeof why)) /* the library copies; the emulator runs kernels */
			snprintf(note, nlen, "%s, the cost model's best kernel (%.2f us predicted on the built-in %s; no GPU "
					     "is asked): on a GPU the plan is a copy (%s), which the emulator does not run",
				 k.name, res.c[0].e.us, dev.name, why);
		else
			snprintf(note, nlen, "%s by the cost model (%.2f us predicted on the built-in %s; no GPU is asked)",
				 k.name, res.c[0].e.us, dev.name);
		if (!text) {
			snprintf(err, errlen, "out of memory");
			st = PX_ENOMEM;
		} else if ((st = px_file_parse(f, name, text, k.len, err, errlen))) {
			free(text);
		}
	}
	ptxpose_tool_ranking_free(&res);
	ptxpose_tool_kernels_free(r);
	return st;
}
