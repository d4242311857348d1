/* batch: inspect many files at once. Disassembly is slow to start (nvdisasm
 * takes about half a second per cubin), so `list` runs several at a time. */
#include "inspect/inspect.h"

#include <pthread.h>
#include <unistd.h>

typedef struct {
	const ins_tools *tools;
	const ins_input *in;
	const char *arch;
	ins_report *reps;
	int n, next;
	pthread_mutex_t mu;
} batch;

static void *worker(void *arg)
{
	batch *b = arg;
	for (;;) {
		pthread_mutex_lock(&b->mu);
		int i = b->next++;
		pthread_mutex_unlock(&b->mu);
		if (i >= b->n)
			return NULL;
		ins_inspect(b->tools, &b->in[i], b->arch, &b->reps[i]);
	}
}

int ins_jobs_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 16 ? 16 : (int)n;
}

void ins_inspect_many(const ins_tools *tools, const ins_input *in, int n, const char *arch, int jobs,
		      ins_report *reps)
{
	batch b = {tools, in, arch, reps, n, 0, PTHREAD_MUTEX_INITIALIZER};
	pthread_t th[64];
	int started = 0;
	if (jobs > n)
		jobs = n;
	if (jobs > 64)
		jobs = 64;
	for (int i = 1; i < jobs; i++)
		if (pthread_create(&th[started], NULL, worker, &b) == 0)
			started++;
	worker(&b);  /* this thread works too; with no helpers it does all */
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}
