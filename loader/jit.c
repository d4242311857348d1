/* jit: link a ptxpose PTX file for the current device, load the cubin and
 * find its kernel; the JIT logs go back to the caller. */
#include "loader/cu_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_BYTES (64u << 10)
#define DEFAULT_SMEM (48u << 10) /* per block without the opt-in attribute */

struct jit_kernel {
	cu_ctx *cu;
	CUmodule mod;
	CUfunction fn;
	px_meta meta;
	jit_attrs attrs;
};

static void add_log(strbuf *log, const char *title, const char *text)
{
	size_t n = strlen(text);
	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		n--;
	if (!log || !n)
		return;
	sb_printf(log, "%s\n", title);
	sb_addn(log, text, n);
	sb_addc(log, '\n');
}

/* PTXPOSE_JIT=link: cuLinkCreate, cuLinkAddData, cuLinkComplete, then
 * cuModuleLoadData of the cubin. Linked PTX is compiled as relocatable code
 * (ptxas -c): on sm_90 that cost narrow_b8 96 registers a thread instead of
 * 64 and fast_b32 90 instead of 62, so it is not the default. */
static px_status load_linked(cu_ctx *cu, const char *ptx, const char *name, unsigned nopt, CUjit_option *opt, void **val,
			     CUmodule *mod, char *err, size_t errlen)
{
	CUlinkState link = NULL;
	void *cubin = NULL;
	size_t cubin_size = 0;
	px_status st = PX_OK;
	CUresult rc = cu->f->LinkCreate(nopt, opt, val, &link);
	if (rc)
		return CU_FAIL(cu, rc, "cuLinkCreate", err, errlen);
	if ((rc = cu->f->LinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, name, 0, NULL, NULL))) {
		CU_FAIL(cu, rc, "cuLinkAddData", err, errlen);
		st = PX_EJIT;
	} else if ((rc = cu->f->LinkComplete(link, &cubin, &cubin_size))) {
		CU_FAIL(cu, rc, "cuLinkComplete", err, errlen);
		st = PX_EJIT;
	} else if ((rc = cu->f->ModuleLoadData(mod, cubin))) {
		st = CU_FAIL(cu, rc, "cuModuleLoadData", err, errlen);
	}
	cu->f->LinkDestroy(link);
	return st;
}

/* The default: one cuModuleLoadDataEx of the PTX, compiled whole (as
 * ptxas without -c, and as CuPy, PyTorch and Triton load theirs). The
 * driver's JIT cache keeps the cubin for later processes. */
static px_status load_direct(cu_ctx *cu, const char *ptx, const char *name, unsigned nopt, CUjit_option *opt, void **val,
			     CUmodule *mod, char *err, size_t errlen)
{
	(void)name;
	CUresult rc = cu->f->ModuleLoadDataEx(mod, ptx, nopt, opt, val);
	if (!rc)
		return PX_OK;
	CU_FAIL(cu, rc, "cuModuleLoadDataEx", err, errlen);
	return rc == CUDA_ERROR_OUT_OF_MEMORY ? PX_ENOMEM : PX_EJIT;
}

/* PTX -> *mod, with the JIT's logs appended to log. */
static px_status load_ptx(cu_ctx *cu, const char *ptx, const char *name, int verbose, CUmodule *mod, float *wall_ms,
			  strbuf *log, char *err, size_t errlen)
{
	char *info = calloc(1, LOG_BYTES), *elog = calloc(1, LOG_BYTES);
	if (!info || !elog) {
		free(info);
		free(elog);
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	CUjit_option opt[] = {
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_LOG_VERBOSE, CU_JIT_WALL_TIME,
	};
	void *val[] = {
		info, (void *)(uintptr_t)(LOG_BYTES - 1),
		elog, (void *)(uintptr_t)(LOG_BYTES - 1),
		(void *)(uintptr_t)(verbose ? 1 : 0), NULL,
	};
	const char *how = getenv("PTXPOSE_JIT");
	int direct = !(how && !strcmp(how, "link"));
	px_status st = (direct ? load_direct : load_linked)(cu, ptx, name, sizeof opt / sizeof opt[0], opt, val, mod, err, errlen);
	memcpy(wall_ms, &val[5], sizeof *wall_ms); /* an output option: a float in the slot */
	info[LOG_BYTES - 1] = elog[LOG_BYTES - 1] = '\0';
	add_log(log, "JIT error log:", elog);
	if (verbose || st)
		add_log(log, "JIT info log:", info);
	free(info);
	free(elog);
	return st;
}

static px_status read_attrs(jit_kernel *k, char *err, size_t errlen)
{
	static const struct {
		CUfunction_attribute attr;
		size_t off;
	} attrs[] = {
		{CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, offsetof(jit_attrs, local_bytes)},
		{CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, offsetof(jit_attrs, max_threads)},
		{CU_FUNC_ATTRIBUTE_NUM_REGS, offsetof(jit_attrs, regs)},
		{CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, offsetof(jit_attrs, static_smem)},
	};
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		CUresult rc = k->cu->f->FuncGetAttribute((int *)((char *)&k->attrs + attrs[i].off), attrs[i].attr, k->fn);
		if (rc)
			return CU_FAIL(k->cu, rc, "cuFuncGetAttribute", err, errlen);
	}
	return PX_OK;
}

/* Can the kernel launch with the metadata's block and dyn_smem? */
static px_status fit_block(jit_kernel *k, char *err, size_t errlen)
{
	const px_meta *m = &k->meta;
	const jit_attrs *a = &k->attrs;
	const cu_devinfo *d = cu_info(k->cu);
	unsigned threads = meta_threads(m);
	if ((int)threads > a->max_threads) {
		snprintf(err, errlen, "kernel %s can run at most %d threads a block (it uses %d registers a thread)"
			 " but its metadata says block=%ux%ux%u", m->kernel, a->max_threads, a->regs,
			 m->block[0], m->block[1], m->block[2]);
		return PX_ECUDA;
	}
	uint64_t smem = (uint64_t)a->static_smem + m->dyn_smem;
	if (smem > (uint64_t)d->smem_optin) {
		snprintf(err, errlen, "kernel %s needs %d B of static and %u B of dynamic shared memory;"
			 " this device allows %d B a block", m->kernel, a->static_smem, m->dyn_smem, d->smem_optin);
		return PX_ECUDA;
	}
	if (smem > DEFAULT_SMEM) {
		CUresult rc = k->cu->f->FuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
							(int)m->dyn_smem);
		if (rc)
			return CU_FAIL(k->cu, rc, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", err, errlen);
	}
	return PX_OK;
}

px_status jit_load(cu_ctx *cu, const char *ptx, const px_meta *m, int verbose, jit_kernel **out,
		   strbuf *log, char *err, size_t errlen)
{
	*out = NULL;
	jit_kernel *k = calloc(1, sizeof *k);
	if (!k) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	k->cu = cu;
	k->meta = *m;
	px_status st = load_ptx(cu, ptx, m->kernel, verbose, &k->mod, &k->attrs.wall_ms, log, err, errlen);
	CUresult rc;
	if (!st && (rc = cu->f->ModuleGetFunction(&k->fn, k->mod, m->kernel))) {
		char call[200];
		snprintf(call, sizeof call, "cuModuleGetFunction(%s)", m->kernel);
		st = CU_FAIL(cu, rc, call, err, errlen);
	}
	if (!st)
		st = read_attrs(k, err, errlen);
	if (!st)
		st = fit_block(k, err, errlen);
	if (st) {
		jit_free(k);
		return st;
	}
	const jit_attrs *a = &k->attrs;
	const char *how = getenv("PTXPOSE_JIT");
	px_logf(cu->log, "jit: %s: %d registers, %d B static shared + %u B dynamic, %d B local, up to %d threads a block; JIT %.1f ms (%s)",
		m->kernel, a->regs, a->static_smem, m->dyn_smem, a->local_bytes, a->max_threads, a->wall_ms,
		how && !strcmp(how, "link") ? "cuLinkAddData" : "cuModuleLoadDataEx");
	if (a->local_bytes)
		px_logf(cu->log, "jit: %s uses %d B of local memory a thread: spills or a local array", m->kernel,
			a->local_bytes);
	*out = k;
	return PX_OK;
}

void jit_free(jit_kernel *k)
{
	if (!k)
		return;
	if (k->mod)
		k->cu->f->ModuleUnload(k->mod);
	free(k);
}

const jit_attrs *jit_attributes(const jit_kernel *k)
{
	return &k->attrs;
}

const px_meta *jit_meta(const jit_kernel *k)
{
	return &k->meta;
}

CUfunction jit_function(const jit_kernel *k)
{
	return k->fn;
}

cu_ctx *jit_cu(const jit_kernel *k)
{
	return k->cu;
}
