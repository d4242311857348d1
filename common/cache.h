/* cache: a small persistent key -> blob store, per device: the library's
 * measured plans (lib/api_measure.c; JIT-compiled code is the driver's own
 * JIT cache's; see lib/README.md) and the tools' ptxas and cuobjdump results
 * (inspect/toolcache.c, in a folder of its own).
 *
 * Where: cache_config.dir, else $PTXPOSE_CACHE, else $XDG_CACHE_HOME/ptxpose,
 * else ~/.cache/ptxpose. PTXPOSE_CACHE=off (or cache_config.off) switches it
 * off. A key is the device's name, compute capability, driver version, a
 * hash of the kernel set (cache_hash) and the entry's kind and item; each
 * entry is one file, kind-HASH.bin, holding a versioned header, the key, the
 * blob and a checksum (lib/README.md).
 *
 * Never an error for the caller: a corrupt, truncated, stale or foreign
 * file reads as a miss (and is replaced by the next put), with a note
 * through the log callback; a folder that cannot be made, is not a folder,
 * or cannot be written (read-only, full) turns the cache off, or its writes,
 * with one note.
 *
 * Writes are atomic: a temporary file in the same folder, renamed over the
 * entry, so readers see the old entry or the new one, whole, with any
 * number of threads and processes writing at once. Reads are bounded
 * (cache_config.max_blob).
 *
 * Thread safety: a cache may be used from several threads at once; the log
 * callback may then be called from any of them. */
#ifndef COMMON_CACHE_H
#define COMMON_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* FNV-1a, 64 bits: h = cache_hash(CACHE_HASH_INIT, data, n), chained over pieces. */
#define CACHE_HASH_INIT 0xcbf29ce484222325ull
uint64_t cache_hash(uint64_t h, const void *data, size_t n);

typedef void (*cache_log_fn)(void *ctx, const char *msg);

/* The calls a put makes, replaceable to test a full disk or a read-only
 * folder. Each returns what the system call would, with errno set. */
typedef struct {
	int (*open_tmp)(const char *path);          /* open(path, O_WRONLY|O_CREAT|O_EXCL, 0644) */
	ssize_t (*write)(int fd, const void *buf, size_t n);
	int (*rename)(const char *from, const char *to);
} cache_io;

typedef struct {
	const char *dir;             /* NULL: from the environment */
	int off;                     /* the caller's switch (a flag, --no-cache) */
	cache_log_fn log;            /* notes, one line each; NULL: none */
	void *log_ctx;
	const cache_io *io;          /* NULL: the system calls */
	size_t max_blob;             /* entries larger than this are neither read nor written; 0: 64 MiB */
} cache_config;

typedef struct {
	const char *device;          /* "NVIDIA H100 80GB HBM3" */
	unsigned cc_major, cc_minor;
	int driver;                  /* cuDriverGetVersion(), e.g. 13000 */
	uint64_t kernels;            /* cache_hash of the kernel set */
	const char *kind;            /* "plan" (today's only kind): 1 to 15 of [a-z0-9_] */
	const char *item;            /* the entry: a plan's problem, a kernel's name */
} cache_key;

typedef struct cache cache;

/* Never fails but for memory (NULL): an unusable folder gives a cache that
 * is off, after one note. */
cache *cache_open(const cache_config *cfg);
void cache_close(cache *c);

/* 1 while entries are read (and written, unless writes failed). */
int cache_enabled(const cache *c);
/* The folder, or "" when off. */
const char *cache_dir(const cache *c);

/* 1 and a malloc'd copy of the blob (*len bytes; the caller frees it), or 0:
 * not there, off, or a bad file (noted). */
int cache_get(cache *c, const cache_key *k, void **blob, size_t *len);

/* Store the blob under the key. 0 when written; -1 when not (off, writes
 * off, a bad key, the disk): never an error to act on. */
int cache_put(cache *c, const cache_key *k, const void *blob, size_t len);

#endif
