/* Helpers of the cache's unit tests (cache_unit.c, cache_threads.c):
 * a scratch folder, a note collector, keys, and blobs that prove
 * themselves whole. Header-only. */
#ifndef TESTS_UNIT_CACHE_HARNESS_H
#define TESTS_UNIT_CACHE_HARNESS_H

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cache.h"

/* A fresh folder under $TMPDIR; th_rmdir removes it and its files. */
static inline void th_mkdtemp(char *dir, size_t n)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, n, "%s/ptxpose-cache.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
}

/* Files in dir whose names end with suffix ("" for all). */
static inline int th_count(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		if (e->d_name[0] != '.' && l >= s && !strcmp(e->d_name + l - s, suffix))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static inline void th_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[4352];
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof p, "%.3800s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Notes from the cache, counted; the last one kept. */
typedef struct {
	pthread_mutex_t mu;
	int n;
	char last[512];
} th_notes;

static inline void th_log(void *ctx, const char *msg)
{
	th_notes *t = ctx;
	pthread_mutex_lock(&t->mu);
	t->n++;
	snprintf(t->last, sizeof t->last, "%s", msg);
	pthread_mutex_unlock(&t->mu);
}

static inline cache_key th_key(const char *item)
{
	return (cache_key){"NVIDIA Test GPU", 9, 0, 13000, 0x1234abcdull, "plan", item};
}

/* A blob of len bytes (len >= 8) that names its writer and its length, so a
 * reader can tell a whole blob from a torn one. */
static inline void th_fill(unsigned char *b, size_t len, unsigned id)
{
	memcpy(b, &id, 4);
	memcpy(b + 4, &len, 4);
	for (size_t i = 8; i < len; i++)
		b[i] = (unsigned char)(id * 31 + i);
}

static inline int th_whole(const unsigned char *b, size_t len)
{
	unsigned id;
	uint32_t l;
	if (len < 8)
		return 0;
	memcpy(&id, b, 4);
	memcpy(&l, b + 4, 4);
	if (l != (uint32_t)len)
		return 0;
	for (size_t i = 8; i < len; i++)
		if (b[i] != (unsigned char)(id * 31 + i))
			return 0;
	return 1;
}

/* Read item: 0 a miss, 1 a whole blob, -1 a torn one. */
static inline int th_read(cache *c, const char *item)
{
	cache_key k = th_key(item);
	void *blob;
	size_t len;
	if (!cache_get(c, &k, &blob, &len))
		return 0;
	int whole = th_whole(blob, len);
	free(blob);
	return whole ? 1 : -1;
}

#endif
