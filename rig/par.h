/* par: a parallel for over [0, n) for the host-side fill and compare of
 * big buffers (internal to rig/). */
#ifndef RIG_PAR_H
#define RIG_PAR_H

#include <stdint.h>

/* Split [0, n) into contiguous chunks of at least `grain` items and call
 * fn(ctx, lo, hi, part) for each, on up to par_threads() threads; `part`
 * counts from 0 in order of lo. Returns the number of parts (at most
 * PAR_MAX). Runs inline when n is small or threads cannot be had. */
#define PAR_MAX 32
int par_for(uint64_t n, uint64_t grain, void (*fn)(void *ctx, uint64_t lo, uint64_t hi, int part), void *ctx);

/* Online CPUs, capped at PAR_MAX. */
int par_threads(void);

#endif
