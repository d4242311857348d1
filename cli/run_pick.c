/* run_pick: the cost model's kernel without a GPU (run_pick.h). */
#include "cli/run_pick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kreg.h"
#include "lib/pick.h"

px_status run_pick_kernel(const rig_shape *s, px_file *f, char *note, size_t nlen, char *err, size_t errlen)
{
	kreg *r = NULL;
	model_device dev;
	model_problem p;
	model_problem_of_desc(&p, &s->p);
	p.align_in = p.align_out = model_align_of_offset(s->offset, p.es);
	pick_result res = {0};
	px_status st = kreg_new(&r, err, errlen);
	if (!st)
		st = kreg_add_builtins(r, err, errlen);
	if (!st)
		st = kreg_add_env(r, err, errlen);
	if (!st && model_device_builtin("h100", &dev, err, errlen))
		st = PX_EUSAGE;
	if (!st && model_problem_check(&p, err, errlen))
		st = PX_EUSAGE;
	if (!st && (st = pick_rank(r, &dev, model_params_builtin(), &p, &res, err, errlen)) == PX_EUNAVAIL)
		st = PX_EINPUT;
	if (!st) {
		const kreg_kernel *k = kreg_get(r, res.c[0].index);
		char *text = strdup(k->ptx);
		/* f->path outlives the registry: the command runs one kernel */
		static char name[META_VAL_MAX + 1];
		snprintf(name, sizeof name, "%s", k->meta.kernel);
		char why[256];
		if (model_problem_is_copy(&p, why, sizeof why)) /* the library copies; the emulator runs kernels */
			snprintf(note, nlen, "%s, the cost model's best kernel (%.2f us predicted on the built-in %s; no GPU "
					     "is asked): on a GPU the plan is a copy (%s), which the emulator does not run",
				 k->meta.kernel, res.c[0].e.us, dev.name, why);
		else
			snprintf(note, nlen, "%s by the cost model (%.2f us predicted on the built-in %s; no GPU is asked)",
				 k->meta.kernel, res.c[0].e.us, dev.name);
		if (!text) {
			snprintf(err, errlen, "out of memory");
			st = PX_ENOMEM;
		} else if ((st = px_file_parse(f, name, text, k->len, err, errlen))) {
			free(text);
		}
	}
	pick_free(&res);
	kreg_free(r);
	return st;
}
