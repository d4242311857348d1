/* vfy_nd: the bit-exact comparison of an N-d permutation's output (rig/vfy.h):
 * the reference (rig/nd_ref.h) on a poisoned buffer of out's size, so the
 * elements must match and every byte no element lands on must keep the
 * poison. */
#include "rig/rig.h"

#include <stdlib.h>
#include <string.h>

#include "rig/nd_ref.h"

/* The output index whose element lands at element offset `at` of out: 1 and
 * idx (in output dims), or 0 when none does (a gap). */
static int index_of(const nd_problem *q, uint64_t at, uint64_t *idx)
{
	uint64_t e[ND_MAX_RANK], x[ND_MAX_RANK] = {0}, oo = 0;
	unsigned r = q->rank;
	for (unsigned k = 0; k < r; k++)
		e[k] = q->ext[q->perm[k]];
	for (;;) {
		if (oo == at) {
			memcpy(idx, x, r * sizeof *x);
			return 1;
		}
		unsigned k = r;
		while (k-- > 0) {
			oo += (uint64_t)q->s_out[k];
			if (++x[k] < e[k])
				break;
			oo -= e[k] * (uint64_t)q->s_out[k];
			x[k] = 0;
		}
		if (k == (unsigned)-1)
			return 0;
	}
}

px_status vfy_nd_compare(const void *in, const void *out, const rig_shape *s, vfy_result *r)
{
	memset(r, 0, sizeof *r);
	nd_problem q;
	rig_shape_nd(s, &q);
	uint64_t bytes = rig_shape_out_bytes(s);
	unsigned eb = q.elem_bytes;
	unsigned char *ref = malloc(bytes ? bytes : 1);
	r->checked = bytes / eb;
	if (!ref)
		return PX_ENOMEM;
	vfy_poison(ref, bytes);
	if (ndref_permute(&q, in, ref)) { /* a checked shape passes nd_check */
		free(ref);
		return PX_EUSAGE;
	}
	const unsigned char *o = out;
	if (!memcmp(o, ref, bytes)) {
		free(ref);
		return PX_OK;
	}
	int first = 1;
	for (uint64_t k = 0; k < r->checked; k++) {
		if (!memcmp(o + k * eb, ref + k * eb, eb))
			continue;
		if (first) {
			r->at = k;
			memcpy(r->got, o + k * eb, eb);
			memcpy(r->want, ref + k * eb, eb);
			first = 0;
		}
		r->mismatches++;
	}
	free(ref);
	r->written = index_of(&q, r->at, r->idx);
	return PX_WRONG;
}
