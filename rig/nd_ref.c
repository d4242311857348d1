/* nd_ref: the host reference of an N-d permutation (rig/nd_ref.h). */
#include "rig/nd_ref.h"

#include <string.h>

int ndref_permute(const nd_problem *p0, const void *in, void *out)
{
	char err[256];
	if (nd_check(p0, err, sizeof err))
		return -1;
	const nd_problem p = *p0;
	unsigned r = p.rank, es = p.elem_bytes;
	/* output dim k: its extent, and the steps it takes in each tensor */
	uint64_t e[ND_MAX_RANK], si[ND_MAX_RANK], so[ND_MAX_RANK], x[ND_MAX_RANK] = {0};
	for (unsigned k = 0; k < r; k++) {
		e[k] = p.ext[p.perm[k]];
		si[k] = (uint64_t)p.s_in[p.perm[k]];
		so[k] = (uint64_t)p.s_out[k];
	}
	const unsigned char *src = in;
	unsigned char *dst = out;
	uint64_t io = 0, oo = 0; /* element offsets of x in each tensor */
	for (;;) {
		memcpy(dst + oo * es, src + io * es, es);
		unsigned k = r;
		while (k-- > 0) {
			io += si[k], oo += so[k];
			if (++x[k] < e[k])
				break;
			io -= e[k] * si[k], oo -= e[k] * so[k];
			x[k] = 0;
		}
		if (k == (unsigned)-1)
			return 0;
	}
}
