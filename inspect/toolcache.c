/* toolcache: what ptxas and cuobjdump made of an input, kept in the folder
 * $PTXPOSE_TOOL_CACHE when it is set (the test suite sets it, so that a
 * kernel is assembled and disassembled once a run, not once a test). Only
 * successful runs are kept. The key is the hash of the tool's identity (its
 * path, size, modification time and inode), its arguments and every byte it
 * reads (for ptxas, not the input's path: inspect/ptxas.c): another or a
 * rebuilt tool, or a changed input, misses. An entry is one file, written
 * atomically: a header line with the two parts' lengths, then the parts
 * (ptxas: its output and the object; cuobjdump: its listing). */
#include "inspect/toolcache.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fsio.h"
#include "common/cache.h"

#define TC_MAGIC "ptxpose-toolcache 1"

const char *ins_tc_dir(void)
{
	const char *d = getenv("PTXPOSE_TOOL_CACHE");
	return d && *d ? d : NULL;
}

uint64_t ins_tc_key(const char *tool, const char *const parts[], const size_t lens[], int n)
{
	struct stat st;
	uint64_t id[3] = {0, 0, 0};
	if (stat(tool, &st) == 0)
		id[0] = (uint64_t)st.st_size, id[1] = (uint64_t)st.st_mtime, id[2] = (uint64_t)st.st_ino;
	uint64_t h = cache_hash(CACHE_HASH_INIT, tool, strlen(tool) + 1);
	h = cache_hash(h, id, sizeof id);
	for (int i = 0; i < n; i++) {
		uint64_t len = lens[i];
		h = cache_hash(h, &len, sizeof len);
		h = cache_hash(h, parts[i], lens[i]);
	}
	return h;
}

static void entry_path(char *path, size_t len, const char *dir, uint64_t key)
{
	snprintf(path, len, "%s/%016" PRIx64 ".tool", dir, key);
}

int ins_tc_get(uint64_t key, strbuf *a, unsigned char **b, size_t *blen)
{
	const char *dir = ins_tc_dir();
	char path[4096];
	if (!dir)
		return 0;
	entry_path(path, sizeof path, dir, key);
	size_t len;
	char *data = fs_read(path, &len);
	if (!data)
		return 0;
	unsigned long long al, bl;
	const char *nl = memchr(data, '\n', len < 64 ? len : 64);
	size_t hl = nl ? (size_t)(nl - data) + 1 : 0; /* the parts follow the header's newline */
	if (!hl || sscanf(data, TC_MAGIC " %llu %llu", &al, &bl) != 2 || al > len || bl > len || hl + al + bl != len) {
		free(data); /* torn or foreign: a miss */
		return 0;
	}
	sb_addn(a, data + hl, (size_t)al);
	if (b) {
		*b = malloc(bl ? (size_t)bl : 1);
		if (!*b) {
			free(data);
			return 0;
		}
		memcpy(*b, data + hl + al, (size_t)bl);
		*blen = (size_t)bl;
	}
	free(data);
	return 1;
}

void ins_tc_put(uint64_t key, const char *a, size_t alen, const void *b, size_t blen)
{
	const char *dir = ins_tc_dir();
	char path[4096], head[64];
	if (!dir)
		return;
	if (mkdir(dir, 0777) && errno != EEXIST)
		return; /* a cache that cannot be written is no cache, not an error */
	entry_path(path, sizeof path, dir, key);
	int hl = snprintf(head, sizeof head, TC_MAGIC " %zu %zu\n", alen, blen);
	strbuf e;
	sb_init(&e);
	sb_addn(&e, head, (size_t)hl);
	sb_addn(&e, a, alen);
	if (blen)
		sb_addn(&e, b, blen);
	fs_write_atomic(path, sb_str(&e), e.len);
	sb_free(&e);
}
