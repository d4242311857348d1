/* A fake libcublas.so.13 for the loader's tests: geam with cuBLAS's real
 * column-major semantics, C(i,j) = alpha*op(A)(i,j) + beta*op(B)(i,j), in
 * host arithmetic on the fake driver's host-backed "device" memory (see
 * libcuda.c), so the loader's mapping of a row-major transpose onto geam is
 * checked by the same bit-exact verification as a kernel.
 * Build: cc -shared -fPIC -I/usr/local/cuda/include libcublas.c -o libcublas.so.13 -ldl */
#include <cublas_api.h>
#include <dlfcn.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

static int handle_token;

/* Advance the fake driver's clock, as a kernel moving `bytes` would. */
static void advance(double bytes)
{
	void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	void (*fn)(double, double) = NULL;
	if (dl) {
		*(void **)&fn = dlsym(dl, "fakecuda_advance");
		if (fn)
			fn(bytes, 1200);
		dlclose(dl);
	}
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

EXPORT const char *cublasGetStatusString(cublasStatus_t s)
{
	return s == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_INVALID_VALUE";
}

static int bad_args(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int lda, int ldb,
		    int ldc)
{
	return h != (cublasHandle_t)&handle_token || m < 0 || n < 0 || lda < (ta == CUBLAS_OP_N ? m : n) ||
	       ldb < (tb == CUBLAS_OP_N ? m : n) || ldc < m || (ta != CUBLAS_OP_N && ta != CUBLAS_OP_T) ||
	       (tb != CUBLAS_OP_N && tb != CUBLAS_OP_T);
}

#define AT(X, t, i, j, ld) ((t) == CUBLAS_OP_N ? (X)[(size_t)(i) + (size_t)(j) * (ld)] : (X)[(size_t)(j) + (size_t)(i) * (ld)])

#define GEAM(NAME, T, MUL, ADD)                                                                          \
	EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
				   const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C,  \
				   int ldc)                                                                \
	{                                                                                              \
		if (bad_args(h, ta, tb, m, n, lda, ldb, ldc))                                            \
			return CUBLAS_STATUS_INVALID_VALUE;                                              \
		/* in place (B == C) reads each B element just before writing it */                       \
		for (int j = 0; j < n; j++)                                                            \
			for (int i = 0; i < m; i++) {                                                  \
				T a = AT(A, ta, i, j, lda), b = AT(B, tb, i, j, ldb);                    \
				C[(size_t)i + (size_t)j * ldc] = ADD(MUL(*alpha, a), MUL(*beta, b));     \
			}                                                                              \
		advance(2.0 * m * n * sizeof(T));                                                      \
		return CUBLAS_STATUS_SUCCESS;                                                          \
	}

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

GEAM(cublasSgeam, float, RMUL, RADD)
GEAM(cublasDgeam, double, RMUL, RADD)
GEAM(cublasZgeam, cuDoubleComplex, zmul, zadd)
