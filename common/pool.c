/* pool: pool_each's workers take the next item under a lock until none is
 * left; pool_for is pool_each over its parts. */
#include "common/pool.h"

#include <pthread.h>
#include <unistd.h>

typedef struct {
	void (*fn)(void *arg, int i);
	void *arg;
	int n, next;
	pthread_mutex_t mu;
} pool;

static void *worker(void *arg)
{
	pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		int i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		p->fn(p->arg, i);
	}
}

void pool_each(int n, int threads, void (*fn)(void *arg, int i), void *arg)
{
	pool p = {fn, arg, n, 0, PTHREAD_MUTEX_INITIALIZER};
	pthread_t th[POOL_THREADS_MAX];
	int started = 0;
	if (threads > n)
		threads = n;
	if (threads > POOL_THREADS_MAX)
		threads = POOL_THREADS_MAX;
	for (int i = 1; i < threads; i++)
		if (pthread_create(&th[started], NULL, worker, &p) == 0)
			started++;
	worker(&p); /* this thread works too; with no helpers it does all */
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.mu);
}

int pool_cpus(int max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > max ? max : (int)n;
}

typedef struct {
	void (*fn)(void *ctx, uint64_t lo, uint64_t hi, int part);
	void *ctx;
	uint64_t n, parts;
} range;

static void run_part(void *arg, int part)
{
	const range *r = arg;
	uint64_t p = (uint64_t)part;
	r->fn(r->ctx, r->n * p / r->parts, r->n * (p + 1) / r->parts, part);
}

int pool_for(uint64_t n, uint64_t grain, void (*fn)(void *ctx, uint64_t lo, uint64_t hi, int part), void *ctx)
{
	if (!n)
		return 0;
	uint64_t parts = grain ? n / grain : n, cpus = (uint64_t)pool_cpus(POOL_PARTS_MAX);
	if (parts > cpus)
		parts = cpus;
	if (parts <= 1) {
		fn(ctx, 0, n, 0);
		return 1;
	}
	range r = {fn, ctx, n, parts};
	pool_each((int)parts, (int)parts, run_part, &r);
	return (int)parts;
}
