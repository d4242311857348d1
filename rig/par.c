/* par: the parallel for behind vfy_fill and vfy_compare. */
#include "rig/par.h"

#include <pthread.h>
#include <unistd.h>

typedef struct {
	void (*fn)(void *, uint64_t, uint64_t, int);
	void *ctx;
	uint64_t lo, hi;
	int part;
} par_job;

static void *par_run(void *arg)
{
	par_job *j = arg;
	j->fn(j->ctx, j->lo, j->hi, j->part);
	return NULL;
}

int par_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > PAR_MAX ? PAR_MAX : (int)n;
}

int par_for(uint64_t n, uint64_t grain, void (*fn)(void *ctx, uint64_t lo, uint64_t hi, int part), void *ctx)
{
	if (!n)
		return 0;
	uint64_t parts = grain ? n / grain : n;
	if (parts > (uint64_t)par_threads())
		parts = (uint64_t)par_threads();
	if (parts <= 1) {
		fn(ctx, 0, n, 0);
		return 1;
	}
	par_job jobs[PAR_MAX];
	pthread_t tid[PAR_MAX];
	int started[PAR_MAX] = {0};
	for (uint64_t p = 0; p < parts; p++) {
		jobs[p] = (par_job){fn, ctx, n * p / parts, n * (p + 1) / parts, (int)p};
		if (p > 0)
			started[p] = !pthread_create(&tid[p], NULL, par_run, &jobs[p]);
	}
	par_run(&jobs[0]);
	for (uint64_t p = 1; p < parts; p++) {
		if (started[p])
			pthread_join(tid[p], NULL);
		else
			par_run(&jobs[p]);
	}
	return (int)parts;
}
