/* A fake libcublas.so.13 for the tests of the library and the rig: geam with cuBLAS's real
 * column-major semantics, C(i,j) = alpha*op(A)(i,j) + beta*op(B)(i,j), in
 * host arithmetic on the fake driver's host-backed "device" memory (see
 * libcuda.c), so the rig's mapping of a row-major transpose onto geam is
 * checked by the same bit-exact verification as a kernel.
 *
 * The work goes to the fake driver as host work on the handle's stream
 * (cublasSetStream): recorded when that stream is being captured, run now
 * otherwise, and timed by the driver's model clock (stream.c).
 * FAKECUBLAS_ALLOC=1: every geam allocates and frees a scratch buffer with
 * cuMemAlloc/cuMemFree first, as a library that cannot be captured does;
 * during a capture the allocation fails, geam returns
 * CUBLAS_STATUS_ALLOC_FAILED and the capture is invalidated.
 * Build (ninja does): cc -shared -fPIC libcublas.c -o libcublas.so.13 -ldl */
#include <cublas_api.h>
#include <cuda.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static int handle_token;
static CUstream stream;

/* A symbol of the fake driver that this process loaded, or NULL. */
static void *driver_sym(const char *name)
{
	void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), *p = NULL;
	if (dl) {
		p = dlsym(dl, name);
		dlclose(dl);
	}
	return p;
}

/* One geam call, whole, for the driver to run now or at a graph's replay. */
typedef struct {
	int type; /* 'S', 'D', 'Z' */
	cublasOperation_t ta, tb;
	int m, n, lda, ldb, ldc;
	unsigned char alpha[16], beta[16];
	const void *A, *B;
	void *C;
} geam_call;

static void geam_run(void *arg);

static cublasStatus_t submit(const geam_call *c, size_t elem_bytes)
{
	CUresult (*host)(CUstream, void (*)(void *), const void *, size_t, double, double) = NULL;
	*(void **)&host = driver_sym("fakecuda_submit_host");
	if (getenv("FAKECUBLAS_ALLOC")) {
		CUresult (*alloc)(CUdeviceptr *, size_t) = NULL;
		CUresult (*release)(CUdeviceptr) = NULL;
		CUdeviceptr scratch;
		*(void **)&alloc = driver_sym("cuMemAlloc_v2");
		*(void **)&release = driver_sym("cuMemFree_v2");
		if (!alloc || !release || alloc(&scratch, 4096))
			return CUBLAS_STATUS_ALLOC_FAILED;
		release(scratch);
	}
	if (!host) {
		geam_run((void *)c);
		return CUBLAS_STATUS_SUCCESS;
	}
	CUresult rc = host(stream, geam_run, c, sizeof *c, 2.0 * c->m * c->n * elem_bytes, 1200);
	return rc ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *h)
{
	*h = (cublasHandle_t)&handle_token;
	return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
	return h == (cublasHandle_t)&handle_token ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

EXPORT cublasStatus_t cublasGetVersion_v2(cublasHandle_t h, int *v)
{
	*v = 130000;
	return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s)
{
	if (h != (cublasHandle_t)&handle_token)
		return CUBLAS_STATUS_NOT_INITIALIZED;
	stream = (CUstream)s;
	return CUBLAS_STATUS_SUCCESS;
}

EXPORT const char *cublasGetStatusString(cublasStatus_t s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
	case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
	default: return "CUBLAS_STATUS_INVALID_VALUE";
	}
}

static int bad_args(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int lda, int ldb,
		    int ldc)
{
	return h != (cublasHandle_t)&handle_token || m < 0 || n < 0 || lda < (ta == CUBLAS_OP_N ? m : n) ||
	       ldb < (tb == CUBLAS_OP_N ? m : n) || ldc < m || (ta != CUBLAS_OP_N && ta != CUBLAS_OP_T) ||
	       (tb != CUBLAS_OP_N && tb != CUBLAS_OP_T);
}

#define AT(X, t, i, j, ld) ((t) == CUBLAS_OP_N ? (X)[(size_t)(i) + (size_t)(j) * (ld)] : (X)[(size_t)(j) + (size_t)(i) * (ld)])

/* in place (B == C) reads each B element just before writing it */
#define GEAM_LOOP(c, T, MUL, ADD)                                                                      \
	do {                                                                                           \
		const T *A = (c)->A, *B = (c)->B, *alpha = (const T *)(c)->alpha, *beta = (const T *)(c)->beta; \
		T *C = (c)->C;                                                                         \
		for (int j = 0; j < (c)->n; j++)                                                       \
			for (int i = 0; i < (c)->m; i++) {                                             \
				T a = AT(A, (c)->ta, i, j, (c)->lda), b = AT(B, (c)->tb, i, j, (c)->ldb);  \
				C[(size_t)i + (size_t)j * (c)->ldc] = ADD(MUL(*alpha, a), MUL(*beta, b)); \
			}                                                                              \
	} while (0)

#define RMUL(x, y) ((x) * (y))
#define RADD(x, y) ((x) + (y))
static cuDoubleComplex zmul(cuDoubleComplex x, cuDoubleComplex y)
{
	return (cuDoubleComplex){x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x};
}
static cuDoubleComplex zadd(cuDoubleComplex x, cuDoubleComplex y)
{
	return (cuDoubleComplex){x.x + y.x, x.y + y.y};
}

static void geam_run(void *arg)
{
	const geam_call *c = arg;
	if (c->type == 'S')
		GEAM_LOOP(c, float, RMUL, RADD);
	else if (c->type == 'D')
		GEAM_LOOP(c, double, RMUL, RADD);
	else
		GEAM_LOOP(c, cuDoubleComplex, zmul, zadd);
}

#define GEAM(NAME, T, TYPE)                                                                              \
	EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
				   const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C,  \
				   int ldc)                                                                \
	{                                                                                              \
		if (bad_args(h, ta, tb, m, n, lda, ldb, ldc))                                            \
			return CUBLAS_STATUS_INVALID_VALUE;                                              \
		geam_call c;                                                                           \
		memset(&c, 0, sizeof c);                                                               \
		c.type = TYPE;                                                                         \
		c.ta = ta, c.tb = tb, c.m = m, c.n = n, c.lda = lda, c.ldb = ldb, c.ldc = ldc;          \
		memcpy(c.alpha, alpha, sizeof *alpha);                                                 \
		memcpy(c.beta, beta, sizeof *beta);                                                    \
		c.A = A, c.B = B, c.C = C;                                                             \
		return submit(&c, sizeof(T));                                                          \
	}

GEAM(cublasSgeam, float, 'S')
GEAM(cublasDgeam, double, 'D')
GEAM(cublasZgeam, cuDoubleComplex, 'Z')
