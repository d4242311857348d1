/* toolcache: ptxas's and cuobjdump's successful results, by the hash of the
 * tool and what it reads, in $PTXPOSE_TOOL_CACHE when set (toolcache.c). */
#ifndef INSPECT_TOOLCACHE_H
#define INSPECT_TOOLCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"

/* The cache folder, or NULL when $PTXPOSE_TOOL_CACHE is unset or empty. */
const char *ins_tc_dir(void);
/* The key of running tool on n parts (arguments and input bytes). */
uint64_t ins_tc_key(const char *tool, const char *const parts[], const size_t lens[], int n);
/* 1 on a hit: part a appended to *a, part b (if b) malloc'd into *b, *blen. */
int ins_tc_get(uint64_t key, strbuf *a, unsigned char **b, size_t *blen);
/* Keep an entry; failures are silent (the tool runs again next time). */
void ins_tc_put(uint64_t key, const char *a, size_t alen, const void *b, size_t blen);

#endif
