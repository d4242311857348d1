/* cache_entry: one entry's file: the name from the key, the format, the
 * checked read and the atomic write.
 *
 * A file is a 32-byte header, little-endian:
 *     "PXCACHE\n"   magic
 *     u32 version   CACHE_VERSION; another is stale
 *     u32 key_len   the key's text, at most CACHE_KEY_MAX
 *     u64 blob_len  at most the cache's max_blob
 *     u64 checksum  cache_hash of the header's first 24 bytes, the key, the blob
 * then the key's text and the blob; nothing after them. */
#include "common/cache_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_VERSION 1
#define HEADER 32
static const char magic[8] = {'P', 'X', 'C', 'A', 'C', 'H', 'E', '\n'};

uint64_t cache_hash(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The key's text (lengths make it unambiguous) and the entry's path.
 * -1 for a key that cannot be stored. */
static int key_text(const cache *c, const cache_key *k, char *text, size_t *len, char *path)
{
	size_t kl = k->kind ? strlen(k->kind) : 0;
	if (!kl || kl > 15 || strspn(k->kind, "abcdefghijklmnopqrstuvwxyz0123456789_") != kl || !k->device ||
	    !k->item)
		return -1;
	int n = snprintf(text, CACHE_KEY_MAX, "ptxpose cache key\ndevice %zu %s\ncc %u.%u\ndriver %d\n"
			 "kernels %016llx\nkind %s\nitem %zu %s\n", strlen(k->device), k->device, k->cc_major,
			 k->cc_minor, k->driver, (unsigned long long)k->kernels, k->kind, strlen(k->item), k->item);
	if (n < 0 || n >= CACHE_KEY_MAX)
		return -1;
	*len = (size_t)n;
	n = snprintf(path, CACHE_PATH_MAX, "%s/%s-%016llx.bin", c->dir, k->kind,
		     (unsigned long long)cache_hash(CACHE_HASH_INIT, text, *len));
	return n < CACHE_PATH_MAX ? 0 : -1;
}

static uint64_t checksum(const unsigned char *head, const void *key, size_t kl, const void *blob, size_t bl)
{
	return cache_hash(cache_hash(cache_hash(CACHE_HASH_INIT, head, 24), key, kl), blob, bl);
}

/* ---- reading -------------------------------------------------------------- */

static int read_all(int fd, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* The entry's blob after every check; a reason in why when it is bad. */
static void *read_entry(const cache *c, int fd, const char *key, size_t kl, size_t *len, char *why, size_t wn)
{
	struct stat st;
	unsigned char head[HEADER];
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, wn, "not a regular file");
		return NULL;
	}
	if (st.st_size < HEADER || read_all(fd, head, HEADER)) {
		snprintf(why, wn, "truncated (%lld bytes, no whole header)", (long long)st.st_size);
		return NULL;
	}
	if (memcmp(head, magic, sizeof magic)) {
		snprintf(why, wn, "not a ptxpose cache file");
		return NULL;
	}
	uint64_t version = get_le(head + 8, 4), fkl = get_le(head + 12, 4), bl = get_le(head + 16, 8);
	if (version != CACHE_VERSION) {
		snprintf(why, wn, "stale: format version %llu, this ptxpose writes %d", (unsigned long long)version,
			 CACHE_VERSION);
		return NULL;
	}
	if (fkl > CACHE_KEY_MAX || bl > c->max_blob) {
		snprintf(why, wn, "sizes out of bounds (key %llu, blob %llu bytes)", (unsigned long long)fkl,
			 (unsigned long long)bl);
		return NULL;
	}
	if ((uint64_t)st.st_size != HEADER + fkl + bl) {
		snprintf(why, wn, "%s (%lld bytes, the header says %llu)",
			 (uint64_t)st.st_size < HEADER + fkl + bl ? "truncated" : "trailing bytes",
			 (long long)st.st_size, (unsigned long long)(HEADER + fkl + bl));
		return NULL;
	}
	char fkey[CACHE_KEY_MAX];
	unsigned char *blob = malloc(bl ? bl : 1);
	if (!blob || read_all(fd, fkey, fkl) || read_all(fd, blob, bl)) {
		snprintf(why, wn, blob ? "unreadable" : "out of memory");
		free(blob);
		return NULL;
	}
	if (checksum(head, fkey, fkl, blob, bl) != get_le(head + 24, 8)) {
		snprintf(why, wn, "corrupt (checksum)");
		free(blob);
		return NULL;
	}
	if (fkl != kl || memcmp(fkey, key, kl)) {
		snprintf(why, wn, "another key with the same hash");
		free(blob);
		return NULL;
	}
	*len = bl;
	return blob;
}

int cache_get(cache *c, const cache_key *k, void **blob, size_t *len)
{
	char key[CACHE_KEY_MAX], path[CACHE_PATH_MAX], why[160];
	size_t kl;
	*blob = NULL;
	*len = 0;
	if (!cache_enabled(c) || key_text(c, k, key, &kl, path))
		return 0;
	/* O_NONBLOCK: a FIFO put where an entry belongs must not hang the plan
	 * (read_entry then refuses anything but a regular file) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			cache_note(c, "%s: cannot open it (%s); a miss", path, strerror(errno));
		return 0;
	}
	*blob = read_entry(c, fd, key, kl, len, why, sizeof why);
	close(fd);
	if (!*blob)
		cache_note(c, "%s: ignored: %s; the next write replaces it", path, why);
	return *blob != NULL;
}

/* ---- writing -------------------------------------------------------------- */

static int write_all(const cache *c, int fd, const void *buf, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t w = c->io.write(fd, (const char *)buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

/* Writes stop after the first failure, with one note: a read-only or full
 * folder is the caller's environment, not an error. */
static void writes_fail(cache *c, const char *what, int err)
{
	atomic_store(&c->writes_off, 1);
	if (!atomic_flag_test_and_set(&c->write_noted))
		cache_note(c, "%s: %s: %s; continuing without writing the cache", c->dir, what, strerror(err));
}

int cache_put(cache *c, const cache_key *k, const void *blob, size_t len)
{
	static atomic_uint serial;
	char key[CACHE_KEY_MAX], path[CACHE_PATH_MAX], tmp[CACHE_PATH_MAX + 64];
	size_t kl;
	if (!cache_enabled(c) || atomic_load(&c->writes_off))
		return -1;
	if (key_text(c, k, key, &kl, path) || len > c->max_blob) {
		cache_note(c, "an entry of kind '%s' with %zu bytes cannot be stored", k->kind ? k->kind : "", len);
		return -1;
	}
	unsigned char head[HEADER];
	memcpy(head, magic, sizeof magic);
	put_le(head + 8, CACHE_VERSION, 4);
	put_le(head + 12, kl, 4);
	put_le(head + 16, len, 8);
	put_le(head + 24, checksum(head, key, kl, blob, len), 8);
	/* unique among processes (pid) and among threads and calls (serial) */
	snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", path, (long)getpid(), atomic_fetch_add(&serial, 1));
	int fd = c->io.open_tmp(tmp);
	if (fd < 0) {
		writes_fail(c, "cannot write", errno);
		return -1;
	}
	int err = 0;
	if (write_all(c, fd, head, HEADER) || write_all(c, fd, key, kl) || write_all(c, fd, blob, len))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && c->io.rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		writes_fail(c, "cannot write", err);
		return -1;
	}
	return 0;
}
