/* batch: inspect many files at once, several at a time. With two or more
 * files and cuobjdump, each file is assembled alone (its resources, its
 * errors) and the SASS comes from merged modules (merge.c): nvdisasm's start
 * costs about 0.4 s of CPU a cubin. */
#include "inspect/inspect.h"

#include <stdlib.h>

#include "common/pool.h"

int ins_jobs_default(void)
{
	return pool_cpus(16);
}

typedef struct {
	const ins_tools *tools;
	const ins_input *in;
	const char *arch;
	ins_report *reps;
	const int *todo;  /* the files to inspect; NULL: all */
	const ins_progress *progress;
	int n;
} batch;

static void inspect_one(void *arg, int k)
{
	batch *b = arg;
	int i = b->todo ? b->todo[k] : k;
	ins_inspect(b->tools, &b->in[i], b->arch, &b->reps[i]);
	if (b->progress)
		b->progress->step(b->progress->ud, "files assembled", b->n);
}

/* ins_inspect of in[todo[k]] (todo NULL: in[k]) for k < n, jobs at a time. */
static void inspect_each(const ins_tools *tools, const ins_input *in, const int *todo, int n, const char *arch,
			 int jobs, ins_report *reps, const ins_progress *progress)
{
	batch b = {tools, in, arch, reps, todo, progress, n};
	pool_each(n, jobs, inspect_one, &b);
}

void ins_inspect_many(const ins_tools *tools, const ins_input *in, int n, const char *arch, int jobs,
		      ins_report *reps, ins_batch_info *info, const ins_progress *progress)
{
	ins_batch_info dummy;
	if (!info)
		info = &dummy;
	*info = (ins_batch_info){0, 0, tools->cuobjdump[0] ? n : 0};
	int *redo = n > 1 && tools->cuobjdump[0] ? calloc((size_t)n, sizeof *redo) : NULL;
	if (!redo) {
		inspect_each(tools, in, NULL, n, arch, jobs, reps, progress);
		return;
	}
	ins_tools alone = *tools;
	alone.cuobjdump[0] = '\0';
	inspect_each(&alone, in, NULL, n, arch, jobs, reps, progress);
	ins_merge_sass(tools, in, n, arch, jobs, reps, redo, info, progress);
	/* what the merged modules could not take, alone (redo becomes the list) */
	int nredo = 0;
	for (int i = 0; i < n; i++)
		if (redo[i]) {
			ins_report_free(&reps[i]);
			redo[nredo++] = i;
		}
	inspect_each(tools, in, redo, nredo, arch, jobs, reps, progress);
	info->alone = nredo;
	free(redo);
}
