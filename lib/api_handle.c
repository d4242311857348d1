/* api_handle: ptxpose_create and ptxpose_destroy (the handle's plans and
 * ptxpose_transpose's cache freed with it), its log and device, and the
 * driver's symbols. The top of the API's layers (lib/api.h). */
#include "lib/api.h"
#include "lib/api_cache.h"
#include "lib/api_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cache.h"
#include "loader/jit.h"
#include "lib/pick.h"

static void note_line(void *ud, const char *line)
{
	api_note(ud, PTXPOSE_LOG_NOTE, line);
}

/* The handle's kernels and registry: built-ins, then $PTXPOSE_PTX. */
static ptxpose_status make_registry(ptxpose_handle h)
{
	char err[1024];
	px_status st = kreg_new(&h->reg, err, sizeof err);
	if (!st)
		st = kreg_add_builtins(h->reg, err, sizeof err);
	if (!st)
		st = kreg_add_env(h->reg, err, sizeof err);
	return st ? api_fail_px(st, err) : PTXPOSE_OK;
}

static void free_jit(ptxpose_handle h)
{
	for (int i = 0; i < h->njit; i++)
		jit_free(h->jit[i]);
	for (int i = 0; i < h->nold; i++)
		jit_free(h->old_jit[i]);
	free(h->jit);
	free(h->old_jit);
	h->jit = h->old_jit = NULL;
	h->njit = h->nold = 0;
}

/* Everything a handle holds; the struct itself is freed by the caller. */
static void release(ptxpose_handle h)
{
	int pushed = 0;
	if (h->cu && api_enter(h, &pushed))
		pushed = 0; /* a context that cannot be made current: its modules go with it */
	while (h->plans) {
		ptxpose_plan p = h->plans;
		h->plans = p->next;
		api_plan_free(p);
	}
	api_cache_free(h->cache);
	h->cache = NULL;
	if (h->cu)
		free_jit(h);
	if (h->cu)
		api_leave(h, pushed);
	kreg_free(h->reg);
	cu_close(h->cu);
	pthread_rwlock_destroy(&h->reg_lock);
	pthread_mutex_destroy(&h->jit_lock);
	pthread_mutex_destroy(&h->plan_lock);
	if (h->disk)
		cache_close(h->disk);
	h->disk = NULL;
	pthread_mutex_destroy(&h->disk_lock);
}

ptxpose_status ptxpose_create(ptxpose_handle *out, unsigned flags)
{
	if (!out)
		return api_fail(PTXPOSE_ERR_INVALID, "the handle pointer is NULL");
	*out = NULL;
	if (flags & ~(unsigned)PTXPOSE_NO_CACHE)
		return api_fail(PTXPOSE_ERR_INVALID, "flags 0x%x: unknown bits (PTXPOSE_NO_CACHE is 0x%x)", flags,
				(unsigned)PTXPOSE_NO_CACHE);
	ptxpose_handle h = calloc(1, sizeof *h);
	if (!h || !(h->cache = api_cache_new())) {
		free(h);
		return api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory");
	}
	h->flags = flags;
	h->notes = (px_log){note_line, h};
	pthread_rwlock_init(&h->reg_lock, NULL);
	pthread_mutex_init(&h->jit_lock, NULL);
	pthread_mutex_init(&h->plan_lock, NULL);
	pthread_mutex_init(&h->disk_lock, NULL);
	char err[1024];
	px_status pst = cu_attach(&h->cu, &h->notes, err, sizeof err);
	ptxpose_status st = pst ? api_fail_px(pst, err) : make_registry(h);
	if (!st && !(h->id = api_live_add(h, 0)))
		st = api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory (too many handles and plans alive)");
	if (st) {
		release(h);
		free(h);
		return st;
	}
	pick_device(cu_info(h->cu), &h->dev);
	h->params = model_params_for(&h->dev); /* the table fitted for this device, else the H100's */
	*out = (ptxpose_handle)h->id;
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_destroy(ptxpose_handle h)
{
	ptxpose_status st = api_take_handle(&h);
	if (st)
		return st;
	release(h);
	api_log_forget(h->id);
	free(h);
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_set_log(ptxpose_handle h, ptxpose_log_fn fn, void *user, unsigned kinds)
{
	ptxpose_status st = api_check_handle(&h);
	if (st)
		return st;
	unsigned all = PTXPOSE_LOG_NOTE | PTXPOSE_LOG_JIT_INFO | PTXPOSE_LOG_JIT_ERROR;
	if (kinds & ~all)
		return api_fail(PTXPOSE_ERR_INVALID, "kinds 0x%x: unknown bits (PTXPOSE_LOG_* make 0x%x)", kinds, all);
	h->log_fn = fn;
	h->log_user = user;
	h->log_kinds = fn ? kinds : 0;
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_device_get(ptxpose_handle h, ptxpose_device_info *info)
{
	ptxpose_status st = api_check_handle_arg(&h, info, "info");
	if (st)
		return st;
	const cu_devinfo *d = cu_info(h->cu);
	memset(info, 0, sizeof *info);
	snprintf(info->name, sizeof info->name, "%s", d->name);
	info->ordinal = d->ordinal;
	info->cc_major = d->cc_major;
	info->cc_minor = d->cc_minor;
	info->sm_count = d->sm_count;
	info->l2_bytes = d->l2_bytes;
	info->driver_version = d->driver_version;
	info->context = h->cu->ctx;
	return PTXPOSE_OK;
}

ptxpose_status ptxpose_driver_symbol(const char *symbol, void **fn)
{
	if (!symbol || !fn)
		return api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", symbol ? "fn" : "symbol");
	*fn = NULL;
	const cu_fns *f;
	char err[512];
	px_status st = cu_driver(&f, err, sizeof err);
	if (st)
		return api_fail_px(st, err);
	if (!(*fn = cu_driver_symbol(symbol)))
		return api_fail(PTXPOSE_ERR_INVALID, "the CUDA driver has no symbol '%.100s'", symbol);
	return PTXPOSE_OK;
}
