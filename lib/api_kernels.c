/* api_kernels: the kernels of a handle: queries and registration. */
#include "lib/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/jit.h"

ptxpose_status ptxpose_kernel_count(ptxpose_handle h, int *count)
{
	ptxpose_status st = api_check_handle_arg(&h, count, "count");
	if (st)
		return st;
	pthread_rwlock_rdlock(&h->reg_lock);
	*count = kreg_count(h->reg);
	pthread_rwlock_unlock(&h->reg_lock);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_kernel_get(ptxpose_handle h, int index, ptxpose_kernel_info *info)
{
	ptxpose_status st = api_check_handle_arg(&h, info, "info");
	if (st)
		return st;
	pthread_rwlock_rdlock(&h->reg_lock);
	int n = kreg_count(h->reg);
	if (index < 0 || index >= n) {
		pthread_rwlock_unlock(&h->reg_lock);
		return api_fail(PTXPOSE_ERR_INVALID, "kernel index %d is out of range (0 to %d)", index, n - 1);
	}
	const kreg_kernel *k = kreg_get(h->reg, index);
	const px_meta *m = &k->meta;
	memset(info, 0, sizeof *info);
	info->name = m->kernel;
	info->elem_bytes = m->elem_bits / 8;
	if (m->grid == META_GRID_TILE) {
		info->tile_rows = m->tile_rows;
		info->tile_cols = m->tile_cols;
	} else {
		info->per_block = m->per_block;
	}
	memcpy(info->block, m->block, sizeof info->block);
	info->regs = k->regs;
	info->source = k->source;
	info->meta = k->meta_text;
	info->ptx = k->ptx;
	pthread_rwlock_unlock(&h->reg_lock);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_register_ptx(ptxpose_handle h, const char *ptx, size_t len, int *index)
{
	ptxpose_status st = api_check_handle_arg(&h, ptx, "ptx");
	if (st)
		return st;
	if (len && ptx[len - 1] == '\0')
		len--; /* a terminating NUL counted in len */
	int at = -1;
	char err[1024];
	pthread_rwlock_wrlock(&h->reg_lock);
	px_status pst = kreg_add_text(h->reg, "registered PTX", ptx, len, "registered", &at, err, sizeof err);
	if (!pst) {
		/* a kernel replaced: its module stays (plans may launch it), the
		 * new text is linked when a plan takes it */
		pthread_mutex_lock(&h->jit_lock);
		if (at < h->njit && h->jit[at]) {
			jit_kernel **p = realloc(h->old_jit, (size_t)(h->nold + 1) * sizeof *p);
			if (p) {
				h->old_jit = p;
				h->old_jit[h->nold++] = h->jit[at];
			} /* else leaked: out of memory, and plans may still launch it */
			h->jit[at] = NULL;
		}
		pthread_mutex_unlock(&h->jit_lock);
	}
	pthread_rwlock_unlock(&h->reg_lock);
	if (pst)
		return api_fail_px(pst, err);
	if (index)
		*index = at;
	return PTXPOSE_OK;
}
