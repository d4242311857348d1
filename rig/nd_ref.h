/* nd_ref: the host reference of an N-d permutation (common/nd.h's
 * nd_problem): what every kernel that serves permutations is compared with,
 * bit for bit. */
#ifndef RIG_ND_REF_H
#define RIG_ND_REF_H

#include "common/nd.h"

/* out = in.transpose(p->perm) with p's strides (literal: see nd_fill_packed), one
 * elem_bytes memcpy an element, walking the output with an odometer; the
 * bytes of out that no element lands on are left alone. in and out must
 * hold nd_spans' bytes and not overlap. 0, or -1 (nothing written) when p
 * fails nd_check. */
int ndref_permute(const nd_problem *p, const void *in, void *out);

#endif
