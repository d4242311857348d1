/* The cache under threads: writers putting the same keys at once (through
 * one shared cache and through caches of their own) while readers read;
 * every hit must be a whole blob, no file may read as bad, no temporary
 * may be left. Also built with ThreadSanitizer (build/tsan/tests/). */
#include <errno.h>
#include <time.h>

#include "tests/unit/cache_harness.h"
#include "tests/unit/tap.h"

#define WRITERS 6
#define READERS 3
#define ROUNDS 150

static char dir[4096];
static cache *shared;
static th_notes notes = {PTHREAD_MUTEX_INITIALIZER, 0, ""};
static _Atomic int writing;
static _Atomic int torn, hits, put_fail;

static cache *open_own(void)
{
	cache_config cfg = {.dir = dir, .log = th_log, .log_ctx = &notes};
	return cache_open(&cfg);
}

static void *writer(void *arg)
{
	unsigned id = (unsigned)(uintptr_t)arg;
	cache *c = id % 2 ? open_own() : shared;
	unsigned char *b = malloc(9000);
	for (int i = 0; i < ROUNDS; i++) {
		size_t len = 8 + (size_t)(i * 97 + id * 13) % 8000;
		th_fill(b, len, id);
		cache_key k = th_key(i % 2 ? "odd" : "even");
		if (cache_put(c, &k, b, len))
			put_fail++;
	}
	free(b);
	if (c != shared)
		cache_close(c);
	writing--;
	return NULL;
}

static void *reader(void *arg)
{
	cache *c = (uintptr_t)arg ? open_own() : shared;
	do {
		for (int i = 0; i < 2; i++) {
			int r = th_read(c, i ? "odd" : "even");
			hits += r != 0;
			torn += r < 0;
		}
	} while (writing > 0);
	if (c != shared)
		cache_close(c);
	return NULL;
}

/* A read-only folder met by several threads at once: still one note. */
static int slow_refuse(const char *path)
{
	(void)path;
	nanosleep(&(struct timespec){0, 2000000}, NULL);
	errno = EACCES;
	return -1;
}

static pthread_barrier_t start;

static void *refused(void *arg)
{
	cache_key k = th_key("refused");
	pthread_barrier_wait(&start);
	cache_put(arg, &k, "12345678", 8);
	return NULL;
}

static void read_only_at_once(void)
{
	cache_io io = {slow_refuse, write, rename};
	cache_config cfg = {.dir = dir, .log = th_log, .log_ctx = &notes, .io = &io};
	cache *c = cache_open(&cfg);
	pthread_t t[WRITERS];
	int n0 = notes.n;
	pthread_barrier_init(&start, NULL, WRITERS);
	for (int i = 0; i < WRITERS; i++)
		pthread_create(&t[i], NULL, refused, c);
	for (int i = 0; i < WRITERS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);
	ok(notes.n == n0 + 1, "%d threads meet a read-only folder at once: one note (%d)", WRITERS, notes.n - n0);
	cache_close(c);
}

int main(void)
{
	th_mkdtemp(dir, sizeof dir);
	cache_config cfg = {.dir = dir, .log = th_log, .log_ctx = &notes};
	shared = cache_open(&cfg);
	pthread_t w[WRITERS], r[READERS];
	writing = WRITERS;
	for (int i = 0; i < READERS; i++)
		pthread_create(&r[i], NULL, reader, (void *)(uintptr_t)(i % 2));
	for (int i = 0; i < WRITERS; i++)
		pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < WRITERS; i++)
		pthread_join(w[i], NULL);
	for (int i = 0; i < READERS; i++)
		pthread_join(r[i], NULL);
	ok(put_fail == 0, "%d writers x %d puts of two keys: every put written", WRITERS, ROUNDS);
	ok(torn == 0 && hits > 0, "%d readers meanwhile: %d hits, every one a whole blob", READERS, (int)hits);
	ok(notes.n == 0, "no file ever read as bad (%d notes%s%s)", notes.n, notes.n ? ": " : "", notes.last);
	ok(th_count(dir, ".tmp") == 0 && th_count(dir, ".bin") == 2, "two entries, no temporary left");
	for (int i = 0; i < 2; i++) {
		cache_key k = th_key(i ? "odd" : "even");
		void *blob;
		size_t len;
		int hit = cache_get(shared, &k, &blob, &len);
		ok(hit && th_whole(blob, len), "entry '%s' afterwards: whole", k.item);
		free(blob);
	}
	cache_close(shared);
	read_only_at_once();
	th_rmdir(dir);
	return tap_done();
}
