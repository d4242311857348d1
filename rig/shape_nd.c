/* shape_nd: N-d permutation shapes in the rig (rig/shape.h): the desc of a
 * spec, the reference's problem, the reduced problem the kernels run, and
 * its name. */
#include "rig/rig.h"

#include <stdio.h>
#include <string.h>

void rig_shape_set_nd(rig_shape *s, const ndspec *sp)
{
	ptxpose_desc *d = &s->p;
	d->rows = d->cols = d->ld_in = d->ld_out = d->batch = d->stride_in = d->stride_out = 0;
	d->rank = sp->rank;
	for (unsigned k = 0; k < PTXPOSE_MAX_RANK; k++) {
		int in = k < sp->rank;
		d->extents[k] = in ? sp->ext[k] : 0;
		d->perm[k] = in ? sp->perm[k] : 0;
		d->strides_in[k] = in && sp->has_s_in ? sp->s_in[k] : 0;
		d->strides_out[k] = in && sp->has_s_out ? sp->s_out[k] : 0;
	}
}

void rig_shape_nd(const rig_shape *s, nd_problem *q)
{
	nd_of_desc(q, &s->p, 0, 0); /* the reference moves elements: no fold, no alignment wanted */
}

px_status rig_shape_reduce(const rig_shape *s, ptxpose_tool_problem *p, char *why, size_t wlen, char *err,
			   size_t errlen)
{
	ptxpose_desc d = s->p;
	if (!d.align_in && !d.align_out)
		d.align_in = d.align_out = ptxpose_tool_align_of_offset(s->offset, d.elem_bytes);
	if (!ptxpose_tool_problem_of_desc(p, &d, why, wlen))
		return PX_OK;
	snprintf(err, errlen, "%s", ptxpose_last_error());
	return PX_EUSAGE;
}

const char *rig_kernel_pending(const px_meta *m, const ptxpose_tool_problem *p, char *buf, size_t len)
{
	buf[0] = '\0';
	return p->copy_elems ? buf : meta_takes(m, p->op, p->nbd, p->pack.vol, buf, len);
}

/* ":key=a,b,..." appended while there is room. */
static void name_list(char *buf, size_t len, int *n, const char *key, const int64_t *v, unsigned rank)
{
	for (unsigned k = 0; k < rank && *n >= 0 && (size_t)*n < len; k++)
		*n += snprintf(buf + *n, len - (size_t)*n, "%s%lld", k ? "," : key, (long long)v[k]);
}

static int any(const int64_t *v, unsigned rank)
{
	for (unsigned k = 0; k < rank; k++)
		if (v[k])
			return 1;
	return 0;
}

const char *rig_shape_nd_name(const rig_shape *s, char *buf, size_t len)
{
	const ptxpose_desc *d = &s->p;
	unsigned r = d->rank < PTXPOSE_MAX_RANK ? d->rank : PTXPOSE_MAX_RANK;
	int n = 0;
	buf[0] = '\0';
	for (unsigned k = 0; k < r && (size_t)n < len; k++)
		n += snprintf(buf + n, len - (size_t)n, "%s%llu", k ? "x" : "", (unsigned long long)d->extents[k]);
	int64_t perm[PTXPOSE_MAX_RANK] = {0};
	for (unsigned k = 0; k < r; k++)
		perm[k] = d->perm[k];
	name_list(buf, len, &n, ":perm=", perm, r);
	if (any(d->strides_in, r))
		name_list(buf, len, &n, ":strides_in=", d->strides_in, r);
	if (any(d->strides_out, r))
		name_list(buf, len, &n, ":strides_out=", d->strides_out, r);
	if (s->offset && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ":offset=%llu", (unsigned long long)s->offset);
	return buf;
}

uint64_t rig_shape_nd_elems(const rig_shape *s)
{
	uint64_t n = 1;
	for (unsigned k = 0; k < s->p.rank && k < PTXPOSE_MAX_RANK; k++)
		n *= s->p.extents[k];
	return n;
}
