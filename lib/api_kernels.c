/* api_kernels: the kernels of a handle: queries and registration. */
#include "lib/api.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/jit.h"

/* The kernels of no handle (h NULL): the built-in ones and $PTXPOSE_PTX's,
 * read once a process and kept; no driver is needed to read them. */
static struct {
	pthread_once_t once;
	kreg *reg;
	px_status st;
	char err[1024];
} bare = {PTHREAD_ONCE_INIT, NULL, 0, ""};

static void bare_make(void)
{
	bare.st = kreg_new(&bare.reg, bare.err, sizeof bare.err);
	if (!bare.st)
		bare.st = kreg_add_builtins(bare.reg, bare.err, sizeof bare.err);
	if (!bare.st)
		bare.st = kreg_add_env(bare.reg, bare.err, sizeof bare.err);
}

/* The registry a query reads, read-locked where it is a handle's (*locked
 * 1): a handle's, or the bare one for h NULL. */
static ptxpose_status registry(ptxpose_handle *h, const void *arg, const char *name, const kreg **reg, int *locked)
{
	*locked = 0;
	if (!*h) {
		if (!arg)
			return api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", name);
		pthread_once(&bare.once, bare_make);
		if (bare.st)
			return api_fail_px(bare.st, bare.err);
		*reg = bare.reg;
		return PTXPOSE_OK;
	}
	ptxpose_status st = api_check_handle_arg(h, arg, name);
	if (st)
		return st;
	pthread_rwlock_rdlock(&(*h)->reg_lock);
	*reg = (*h)->reg, *locked = 1;
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_kernel_count(ptxpose_handle h, int *count)
{
	const kreg *reg = NULL;
	int locked;
	ptxpose_status st = registry(&h, count, "count", &reg, &locked);
	if (st)
		return st;
	*count = kreg_count(reg);
	if (locked)
		pthread_rwlock_unlock(&h->reg_lock);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_kernel_get(ptxpose_handle h, int index, ptxpose_kernel_info *info)
{
	const kreg *reg = NULL;
	int locked;
	ptxpose_status st = registry(&h, info, "info", &reg, &locked);
	if (st)
		return st;
	int n = kreg_count(reg);
	if (index < 0 || index >= n) {
		if (locked)
			pthread_rwlock_unlock(&h->reg_lock);
		return api_fail(PTXPOSE_ERR_INVALID, "kernel index %d is out of range (0 to %d)", index, n - 1);
	}
	const kreg_kernel *k = kreg_get(reg, index);
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
	if (locked)
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
