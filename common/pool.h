/* pool: work spread over threads of this process, the calling thread among
 * them, done when the call returns. Two shapes of work:
 *
 *   pool_each  items 0..n-1 handed out one at a time to whichever thread is
 *              free (tool runs of unequal length: inspect/)
 *   pool_for   a range cut into contiguous parts, one a thread (filling and
 *              comparing big buffers: rig/vfy*.c)
 *
 * Where a thread cannot be had, the threads there are (at least the calling
 * one) do its share: the work is always done, and done once. */
#ifndef COMMON_POOL_H
#define COMMON_POOL_H

#include <stdint.h>

#define POOL_THREADS_MAX 64 /* threads a call runs on at most */
#define POOL_PARTS_MAX 32   /* parts pool_for cuts a range into at most */

/* fn(arg, i) for each i < n, exactly once, on up to `threads` threads. */
void pool_each(int n, int threads, void (*fn)(void *arg, int i), void *arg);

/* Cut [0, n) into contiguous parts of at least `grain` items (n/grain of
 * them, at most pool_cpus(POOL_PARTS_MAX)) and call fn(ctx, lo, hi, part) for
 * each, a thread a part; `part` counts from 0 in order of lo. Returns the
 * number of parts (0 for n = 0). One part runs on the calling thread alone. */
int pool_for(uint64_t n, uint64_t grain, void (*fn)(void *ctx, uint64_t lo, uint64_t hi, int part), void *ctx);

/* Online processors, 1 to max. */
int pool_cpus(int max);

#endif
