/* cublas: cuBLAS geam (C = alpha*op(A) + beta*op(B)) as a transpose peer,
 * from a libcublas opened at run time. cuBLAS is column-major: our row-major
 * rows x cols input with ld_in is its cols x rows matrix A (lda = ld_in), and
 * our cols x rows output with ld_out is its rows x cols C (ldc = ld_out), so
 * C = 1 * A^T + 0 * C with m = rows, n = cols. */
#include "rig/geam.h"
#include "rig/rig.h"

#include <cublas_api.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const libnames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};

struct rig_geam {
	drv_ctx *drv;
	unsigned gen;   /* the context generation the handle belongs to */
	void *dl;
	const char *lib;
	cublasHandle_t handle;
	int version;
	char version_str[64];
	__typeof__(cublasCreate_v2) *Create;
	__typeof__(cublasDestroy_v2) *Destroy;
	__typeof__(cublasDgeam) *Dgeam;
	__typeof__(cublasGetStatusString) *StatusString; /* may be missing */
	__typeof__(cublasGetVersion_v2) *GetVersion;
	__typeof__(cublasSetStream_v2) *SetStream;
	__typeof__(cublasSgeam) *Sgeam;
	__typeof__(cublasZgeam) *Zgeam;
};

static const struct {
	const char *sym;
	size_t off;
	int optional;
} geam_syms[] = {
	{"cublasCreate_v2", offsetof(rig_geam, Create), 0},
	{"cublasDestroy_v2", offsetof(rig_geam, Destroy), 0},
	{"cublasDgeam", offsetof(rig_geam, Dgeam), 0},
	{"cublasGetStatusString", offsetof(rig_geam, StatusString), 1},
	{"cublasGetVersion_v2", offsetof(rig_geam, GetVersion), 0},
	{"cublasSetStream_v2", offsetof(rig_geam, SetStream), 0},
	{"cublasSgeam", offsetof(rig_geam, Sgeam), 0},
	{"cublasZgeam", offsetof(rig_geam, Zgeam), 0},
};

static const char *status_text(const rig_geam *g, cublasStatus_t s)
{
	const char *t = g->StatusString ? g->StatusString(s) : NULL;
	return t ? t : "cuBLAS status without a name";
}

px_status rig_geam_open(drv_ctx *drv, rig_geam **out, char *err, size_t errlen)
{
	*out = NULL;
	rig_geam *g = calloc(1, sizeof *g);
	if (!g) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	g->drv = drv;
	g->gen = drv_generation(drv);
	for (size_t k = 0; k < sizeof libnames / sizeof libnames[0] && !g->dl; k++)
		if ((g->dl = dlopen(libnames[k], RTLD_NOW | RTLD_LOCAL)))
			g->lib = libnames[k];
	if (!g->dl) {
		const char *why = dlerror();
		snprintf(err, errlen, "no cuBLAS: libcublas.so.13, .12 or libcublas.so not found (%s)", why ? why : "");
		free(g);
		return PX_EUNAVAIL;
	}
	for (size_t k = 0; k < sizeof geam_syms / sizeof geam_syms[0]; k++) {
		void *p = dlsym(g->dl, geam_syms[k].sym);
		if (!p && !geam_syms[k].optional) {
			snprintf(err, errlen, "%s has no %s", g->lib, geam_syms[k].sym);
			rig_geam_close(g);
			return PX_EUNAVAIL;
		}
		memcpy((char *)g + geam_syms[k].off, &p, sizeof p);
	}
	cublasStatus_t s = g->Create(&g->handle);
	if (s != CUBLAS_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s: cublasCreate: %s (status %d)", g->lib, status_text(g, s), (int)s);
		g->handle = NULL;
		rig_geam_close(g);
		return PX_EUNAVAIL;
	}
	if (g->GetVersion(g->handle, &g->version) != CUBLAS_STATUS_SUCCESS)
		g->version = 0;
	snprintf(g->version_str, sizeof g->version_str, "%s (version %d)", g->lib, g->version);
	px_logf(drv_log(drv), "cublas: %s", g->version_str);
	*out = g;
	return PX_OK;
}

void rig_geam_close(rig_geam *g)
{
	if (!g)
		return;
	/* a handle whose context was reset is abandoned: its memory went with it */
	if (g->handle && g->gen == drv_generation(g->drv))
		g->Destroy(g->handle);
	/* libcublas stays mapped, like libcuda */
	free(g);
}

int rig_geam_supports(unsigned elem_bits)
{
	return elem_bits == 32 || elem_bits == 64 || elem_bits == 128;
}

const char *rig_geam_version(const rig_geam *g)
{
	return g->version_str;
}

static px_status geam_enqueue(void *ud, ptxpose_stream stream, uint64_t in, uint64_t out, const rig_shape *s,
			      char *err, size_t errlen)
{
	rig_geam *g = ud;
	int m = (int)s->p.rows, n = (int)s->p.cols, lda = (int)s->p.ld_in, ldc = (int)s->p.ld_out;
	/* on the stream being captured, when it is: cuBLAS may refuse to be
	 * captured, and the rig then times it back to back instead */
	cublasStatus_t st = g->SetStream(g->handle, stream);
	if (st != CUBLAS_STATUS_SUCCESS) {
		snprintf(err, errlen, "%s:%d: cublasSetStream: %s (status %d)", __FILE__, __LINE__, status_text(g, st),
			 (int)st);
		return PX_ECUDA;
	}
	/* B = C with ldb = ldc and transb = N: cuBLAS's documented in-place form */
	switch (rig_shape_elem_bits(s)) {
	case 32: {
		const float one = 1, zero = 0;
		float *a = (float *)(uintptr_t)in, *c = (float *)(uintptr_t)out;
		st = g->Sgeam(g->handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, lda, &zero, c, ldc, c, ldc);
		break;
	}
	case 64: {
		const double one = 1, zero = 0;
		double *a = (double *)(uintptr_t)in, *c = (double *)(uintptr_t)out;
		st = g->Dgeam(g->handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, lda, &zero, c, ldc, c, ldc);
		break;
	}
	case 128: {
		const cuDoubleComplex one = {1, 0}, zero = {0, 0};
		cuDoubleComplex *a = (cuDoubleComplex *)(uintptr_t)in, *c = (cuDoubleComplex *)(uintptr_t)out;
		st = g->Zgeam(g->handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, a, lda, &zero, c, ldc, c, ldc);
		break;
	}
	default:
		snprintf(err, errlen, "cuBLAS geam has no %u-bit element type", rig_shape_elem_bits(s));
		return PX_EUNAVAIL;
	}
	if (st == CUBLAS_STATUS_SUCCESS)
		return PX_OK;
	snprintf(err, errlen, "%s:%d: cublas geam (elem=%u, m=%d, n=%d): %s (status %d)", __FILE__, __LINE__,
		 rig_shape_elem_bits(s), m, n, status_text(g, st), (int)st);
	return PX_ECUDA;
}

rig_op rig_op_geam(rig_geam *g)
{
	return (rig_op){.name = "cublas_geam", .enqueue = geam_enqueue, .ud = g, .finite_input = 1, .is_transpose = 1};
}
