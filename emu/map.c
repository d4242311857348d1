/* map: byte-string keys to small integers, for the names of registers,
 * labels and shared variables and for the constant pool, so that parsing and
 * decoding stay linear in the size of the program. Open addressing with
 * linear probing; the keys are copied into one pool, so callers may free or
 * move theirs. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

struct emu_map_ent {
	uint32_t hash;
	uint32_t len;
	size_t off;     /* key bytes in the pool */
	int val;        /* -1: empty bucket */
};

/* FNV-1a: short keys, no adversary to fear beyond slow probing. */
static uint32_t hash_of(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

void emu_map_free(emu_map *m)
{
	free(m->ent);
	free(m->pool);
	memset(m, 0, sizeof *m);
}

static emu_map_ent *find(const emu_map *m, const void *key, size_t len, uint32_t h)
{
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		emu_map_ent *e = &m->ent[i];
		if (e->val < 0 || (e->hash == h && e->len == len && (!len || !memcmp(m->pool + e->off, key, len))))
			return e;
	}
}

int emu_map_get(const emu_map *m, const void *key, size_t len)
{
	return m->cap ? find(m, key, len, hash_of(key, len))->val : -1;
}

static int grow(emu_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	emu_map_ent *old = m->ent, *ent = malloc(cap * sizeof *ent);
	if (!ent)
		return -1;
	for (size_t i = 0; i < cap; i++)
		ent[i].val = -1;
	size_t oldcap = m->cap;
	m->ent = ent;
	m->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].val >= 0)
			*find(m, m->pool + old[i].off, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

int emu_map_put(emu_map *m, const void *key, size_t len, int val)
{
	if (2 * (m->n + 1) > m->cap && grow(m))
		return -2;
	uint32_t h = hash_of(key, len);
	emu_map_ent *e = find(m, key, len, h);
	if (e->val >= 0)
		return e->val;
	if (m->poollen + len > m->poolcap) {
		size_t cap = m->poolcap ? m->poolcap : 1024;
		while (cap < m->poollen + len)
			cap *= 2;
		char *pool = realloc(m->pool, cap);
		if (!pool)
			return -2;
		m->pool = pool;
		m->poolcap = cap;
	}
	if (len)
		memcpy(m->pool + m->poollen, key, len);
	*e = (emu_map_ent){.hash = h, .len = (uint32_t)len, .off = m->poollen, .val = val};
	m->poollen += len;
	m->n++;
	return -1;
}
