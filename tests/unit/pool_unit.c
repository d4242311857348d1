/* Unit tests for common/pool.c: every item and every part done once, parts
 * contiguous and in order, the small cases on the calling thread, several
 * callers at once. Also built with ThreadSanitizer (build/tsan/tests/). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "tests/unit/tap.h"

#define ITEMS 2000

typedef struct {
	_Atomic int done[ITEMS + 1]; /* one past the end: an item that must never run */
	_Atomic int calls;
	_Atomic int off_thread;      /* items run on a thread other than the caller's */
	pthread_t caller;
} each_job;

static void each_item(void *arg, int i)
{
	each_job *j = arg;
	j->done[i]++;
	j->calls++;
	if (!pthread_equal(pthread_self(), j->caller))
		j->off_thread++;
}

/* pool_each over n items on `threads`: 1 when each ran exactly once. */
static int each_once(each_job *j, int n, int threads)
{
	memset(j, 0, sizeof *j);
	j->caller = pthread_self();
	pool_each(n, threads, each_item, j);
	int once = j->calls == n && !j->done[n];
	for (int i = 0; i < n; i++)
		once &= j->done[i] == 1;
	return once;
}

static void test_each(void)
{
	static each_job j;
	ok(each_once(&j, ITEMS, 8), "pool_each: %d items on 8 threads, each exactly once", ITEMS);
	ok(each_once(&j, 3, 8), "... 3 items on 8 threads (more threads than items)");
	ok(each_once(&j, ITEMS, 1000), "... on 1000 threads (more than POOL_THREADS_MAX)");
	ok(each_once(&j, 0, 8) && j.calls == 0, "... no items: fn never called");
	ok(each_once(&j, 50, 1) && j.off_thread == 0, "... one thread: all on the calling thread");
	ok(each_once(&j, 50, 0) && j.off_thread == 0, "... 0 threads: all on the calling thread too");
}

typedef struct {
	uint64_t lo[POOL_PARTS_MAX], hi[POOL_PARTS_MAX];
	_Atomic int seen[POOL_PARTS_MAX];
	unsigned char *buf; /* each part writes its own slice */
	pthread_t caller;
	_Atomic int off_thread;
} for_job;

static void for_part(void *arg, uint64_t lo, uint64_t hi, int part)
{
	for_job *j = arg;
	j->lo[part] = lo;
	j->hi[part] = hi;
	j->seen[part]++;
	for (uint64_t k = lo; k < hi; k++)
		j->buf[k] = (unsigned char)(k * 7 + 1);
	if (!pthread_equal(pthread_self(), j->caller))
		j->off_thread++;
}

/* pool_for over n with grain g: parts contiguous from 0 to n, each once,
 * every byte written by its part. *parts gets the count. */
static int for_covers(for_job *j, uint64_t n, uint64_t g, int *parts)
{
	memset(j, 0, sizeof *j);
	j->caller = pthread_self();
	j->buf = calloc(n ? n : 1, 1);
	*parts = pool_for(n, g, for_part, j);
	int good = j->buf && *parts >= 0 && *parts <= POOL_PARTS_MAX;
	for (int p = 0; good && p < *parts; p++)
		good = j->seen[p] == 1 && j->lo[p] == (p ? j->hi[p - 1] : 0) && j->lo[p] <= j->hi[p];
	if (good && *parts)
		good = j->hi[*parts - 1] == n;
	for (uint64_t k = 0; good && k < n; k++)
		good = j->buf[k] == (unsigned char)(k * 7 + 1);
	free(j->buf);
	return good;
}

static void test_for(void)
{
	static for_job j;
	int parts, cpus = pool_cpus(POOL_PARTS_MAX), good;
	good = for_covers(&j, 1 << 20, 1000, &parts);
	ok(good && parts == cpus, "pool_for: 1 Mi items, grain 1000: %d contiguous parts in order (one a processor)",
	   parts);
	good = for_covers(&j, 3000, 1000, &parts);
	ok(good && parts == (cpus < 3 ? cpus : 3), "... 3000 items, grain 1000: at most 3 parts (%d)", parts);
	good = for_covers(&j, 999, 1000, &parts);
	ok(good && parts == 1 && j.off_thread == 0, "... less than a grain: one part, on the calling thread");
	good = for_covers(&j, 77, 0, &parts);
	ok(good && parts >= 1, "... grain 0: a part an item at most (%d parts)", parts);
	good = for_covers(&j, 0, 10, &parts);
	ok(good && parts == 0, "... nothing: no parts");
	ok(cpus >= 1 && cpus <= POOL_PARTS_MAX && pool_cpus(1) == 1, "pool_cpus: %d, within its cap", cpus);
}

/* Several threads calling pool_each and pool_for at once. */
static _Atomic int caller_bad;

static void *caller(void *arg)
{
	(void)arg;
	each_job *e = malloc(sizeof *e);
	for_job *f = malloc(sizeof *f);
	int parts;
	for (int r = 0; r < 5 && e && f; r++)
		if (!each_once(e, 300, 4) || !for_covers(f, 100000, 1000, &parts))
			caller_bad++;
	if (!e || !f)
		caller_bad++;
	free(e);
	free(f);
	return NULL;
}

static void test_callers(void)
{
	pthread_t th[4];
	int made = 0;
	for (int i = 0; i < 4; i++)
		made += pthread_create(&th[made], NULL, caller, NULL) == 0;
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	ok(made == 4 && caller_bad == 0, "4 threads calling pool_each and pool_for at once: all done once (%d bad)",
	   (int)caller_bad);
}

int main(void)
{
	test_each();
	test_for();
	test_callers();
	return tap_done();
}
