/* cu_api: the CUDA driver entry points ptxpose uses, resolved from
 * libcuda.so.1 at run time by their exported names (cuda.h #defines many API
 * names to _v2 symbols; the table names the symbols). Internal to lib/. */
#ifndef LOADER_CU_API_H
#define LOADER_CU_API_H

#include <cuda.h>
#include <cudaTypedefs.h>

#include "loader/cu.h"
#include "loader/jit.h"

/* field, exported symbol, older symbol to fall back on (or NULL), the
 * PFN typedef of cudaTypedefs.h that matches the symbol. Sorted by field. */
#define CU_ENTRY_POINTS(X)                                                                  \
	X(CtxGetCurrent, "cuCtxGetCurrent", NULL, PFN_cuCtxGetCurrent_v4000)                \
	X(CtxGetDevice, "cuCtxGetDevice", NULL, PFN_cuCtxGetDevice_v2000)                   \
	X(CtxPopCurrent, "cuCtxPopCurrent_v2", NULL, PFN_cuCtxPopCurrent_v4000)             \
	X(CtxPushCurrent, "cuCtxPushCurrent_v2", NULL, PFN_cuCtxPushCurrent_v4000)          \
	X(CtxSetCurrent, "cuCtxSetCurrent", NULL, PFN_cuCtxSetCurrent_v4000)                \
	X(DeviceGet, "cuDeviceGet", NULL, PFN_cuDeviceGet_v2000)                            \
	X(DeviceGetAttribute, "cuDeviceGetAttribute", NULL, PFN_cuDeviceGetAttribute_v2000) \
	X(DeviceGetCount, "cuDeviceGetCount", NULL, PFN_cuDeviceGetCount_v2000)             \
	X(DeviceGetName, "cuDeviceGetName", NULL, PFN_cuDeviceGetName_v2000)                \
	X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", NULL, PFN_cuDevicePrimaryCtxRelease_v11000) \
	X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, PFN_cuDevicePrimaryCtxRetain_v7000) \
	X(DeviceTotalMem, "cuDeviceTotalMem_v2", NULL, PFN_cuDeviceTotalMem_v3020)          \
	X(DriverGetVersion, "cuDriverGetVersion", NULL, PFN_cuDriverGetVersion_v2020)       \
	X(EventCreate, "cuEventCreate", NULL, PFN_cuEventCreate_v2000)                      \
	X(EventDestroy, "cuEventDestroy_v2", NULL, PFN_cuEventDestroy_v4000)                \
	X(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", PFN_cuEventElapsedTime_v12080) \
	X(EventRecord, "cuEventRecord", NULL, PFN_cuEventRecord_v2000)                      \
	X(EventSynchronize, "cuEventSynchronize", NULL, PFN_cuEventSynchronize_v2000)       \
	X(FuncGetAttribute, "cuFuncGetAttribute", NULL, PFN_cuFuncGetAttribute_v2020)       \
	X(FuncSetAttribute, "cuFuncSetAttribute", NULL, PFN_cuFuncSetAttribute_v9000)       \
	X(GetErrorName, "cuGetErrorName", NULL, PFN_cuGetErrorName_v6000)                   \
	X(GetErrorString, "cuGetErrorString", NULL, PFN_cuGetErrorString_v6000)             \
	X(Init, "cuInit", NULL, PFN_cuInit_v2000)                                           \
	X(LaunchKernel, "cuLaunchKernel", NULL, PFN_cuLaunchKernel_v4000)                   \
	X(LinkAddData, "cuLinkAddData_v2", NULL, PFN_cuLinkAddData_v6050)                   \
	X(LinkComplete, "cuLinkComplete", NULL, PFN_cuLinkComplete_v5050)                   \
	X(LinkCreate, "cuLinkCreate_v2", NULL, PFN_cuLinkCreate_v6050)                      \
	X(LinkDestroy, "cuLinkDestroy", NULL, PFN_cuLinkDestroy_v5050)                      \
	X(MemAlloc, "cuMemAlloc_v2", NULL, PFN_cuMemAlloc_v3020)                            \
	X(MemFree, "cuMemFree_v2", NULL, PFN_cuMemFree_v3020)                               \
	X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL, PFN_cuMemcpyDtoDAsync_v3020)       \
	X(MemsetD8, "cuMemsetD8_v2", NULL, PFN_cuMemsetD8_v3020)                            \
	X(ModuleGetFunction, "cuModuleGetFunction", NULL, PFN_cuModuleGetFunction_v2000)    \
	X(ModuleLoadData, "cuModuleLoadData", NULL, PFN_cuModuleLoadData_v2000)             \
	X(ModuleLoadDataEx, "cuModuleLoadDataEx", NULL, PFN_cuModuleLoadDataEx_v2010)       \
	X(ModuleUnload, "cuModuleUnload", NULL, PFN_cuModuleUnload_v2000)                   \
	X(StreamCreate, "cuStreamCreate", NULL, PFN_cuStreamCreate_v2000)                   \
	X(StreamDestroy, "cuStreamDestroy_v2", NULL, PFN_cuStreamDestroy_v4000)             \
	X(StreamGetCtx, "cuStreamGetCtx", NULL, PFN_cuStreamGetCtx_v9020)

typedef struct {
#define CU_FIELD(field, sym, alt, type) type field;
	CU_ENTRY_POINTS(CU_FIELD)
#undef CU_FIELD
} cu_fns;

/* The driver's entry points, resolved once a process (cu.c). */
px_status cu_driver(const cu_fns **out, char *err, size_t errlen);

struct cu_ctx {
	const cu_fns *f;
	CUdevice dev;
	CUcontext ctx;
	int retained;       /* holds a primary-context reference */
	cu_devinfo info;
	const px_log *log;
};

/* "loader/jit.c:88: cuLinkAddData: CUDA_ERROR_INVALID_PTX (a PTX JIT
 * compilation failed)" into err; PX_ENOMEM for CUDA_ERROR_OUT_OF_MEMORY,
 * else PX_ECUDA. */
px_status cu_fail(const cu_ctx *cu, CUresult rc, const char *file, int line, const char *call,
		  char *err, size_t errlen);
#define CU_FAIL(cu, rc, call, err, errlen) cu_fail((cu), (rc), __FILE__, __LINE__, (call), (err), (errlen))

/* "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)"; unknown codes too. */
const char *cu_error_text(const cu_ctx *cu, CUresult rc, char *buf, size_t len);

/* The kernel's handle, for loader/launch.c; cu, its context. */
CUfunction jit_function(const jit_kernel *k);
cu_ctx *jit_cu(const jit_kernel *k);

#endif
