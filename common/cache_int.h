/* cache_int: the cache's state, shared by common/cache*.c. */
#ifndef COMMON_CACHE_INT_H
#define COMMON_CACHE_INT_H

#include <stdatomic.h>

#include "common/cache.h"

#define CACHE_PATH_MAX 4096
#define CACHE_KEY_MAX 2048        /* the key's text, bytes */
#define CACHE_BLOB_DEFAULT (64u << 20)

struct cache {
	char dir[CACHE_PATH_MAX];    /* "" when off */
	atomic_int writes_off;       /* a write failed: no more writes */
	atomic_flag write_noted;     /* ... and it was said once */
	cache_log_fn log;
	void *log_ctx;
	cache_io io;
	size_t max_blob;
};

/* A note through the log callback: "cache: " and the message. */
void cache_note(const cache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
