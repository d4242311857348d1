/* drv_api: the driver entry points the rig calls, by their exported names
 * (cuda.h #defines many API names to _v2 symbols; the table names the
 * symbols), and the rig's context. Internal to rig/. */
#ifndef RIG_DRV_API_H
#define RIG_DRV_API_H

#include <cuda.h>
#include <cudaTypedefs.h>

#include "rig/drv.h"

/* field, exported symbol, older symbol to fall back on (or NULL), the PFN
 * typedef of cudaTypedefs.h that matches the symbol. Sorted by field. */
#define DRV_ENTRY_POINTS(X)                                                                 \
	X(CtxSynchronize, "cuCtxSynchronize", NULL, PFN_cuCtxSynchronize_v2000)             \
	X(DeviceGet, "cuDeviceGet", NULL, PFN_cuDeviceGet_v2000)                            \
	X(DeviceGetAttribute, "cuDeviceGetAttribute", NULL, PFN_cuDeviceGetAttribute_v2000) \
	X(DevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", NULL, PFN_cuDevicePrimaryCtxReset_v11000) \
	X(DeviceTotalMem, "cuDeviceTotalMem_v2", NULL, PFN_cuDeviceTotalMem_v3020)          \
	X(EventCreate, "cuEventCreate", NULL, PFN_cuEventCreate_v2000)                      \
	X(EventDestroy, "cuEventDestroy_v2", NULL, PFN_cuEventDestroy_v4000)                \
	X(EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", PFN_cuEventElapsedTime_v12080) \
	X(EventRecord, "cuEventRecord", NULL, PFN_cuEventRecord_v2000)                      \
	X(EventSynchronize, "cuEventSynchronize", NULL, PFN_cuEventSynchronize_v2000)       \
	X(GetErrorName, "cuGetErrorName", NULL, PFN_cuGetErrorName_v6000)                   \
	X(GetErrorString, "cuGetErrorString", NULL, PFN_cuGetErrorString_v6000)             \
	X(GraphDestroy, "cuGraphDestroy", NULL, PFN_cuGraphDestroy_v10000)                  \
	X(GraphExecDestroy, "cuGraphExecDestroy", NULL, PFN_cuGraphExecDestroy_v10000)      \
	X(GraphLaunch, "cuGraphLaunch", NULL, PFN_cuGraphLaunch_v10000)                     \
	X(MemAlloc, "cuMemAlloc_v2", NULL, PFN_cuMemAlloc_v3020)                            \
	X(MemAllocHost, "cuMemAllocHost_v2", NULL, PFN_cuMemAllocHost_v3020)                \
	X(MemFree, "cuMemFree_v2", NULL, PFN_cuMemFree_v3020)                               \
	X(MemFreeHost, "cuMemFreeHost", NULL, PFN_cuMemFreeHost_v2000)                      \
	X(MemGetInfo, "cuMemGetInfo_v2", NULL, PFN_cuMemGetInfo_v3020)                      \
	X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", NULL, PFN_cuMemcpyDtoDAsync_v3020)       \
	X(MemcpyDtoH, "cuMemcpyDtoH_v2", NULL, PFN_cuMemcpyDtoH_v3020)                      \
	X(MemcpyHtoD, "cuMemcpyHtoD_v2", NULL, PFN_cuMemcpyHtoD_v3020)                      \
	X(MemsetD8, "cuMemsetD8_v2", NULL, PFN_cuMemsetD8_v3020)                            \
	X(StreamBeginCapture, "cuStreamBeginCapture_v2", NULL, PFN_cuStreamBeginCapture_v10010) \
	X(StreamCreate, "cuStreamCreate", NULL, PFN_cuStreamCreate_v2000)                   \
	X(StreamDestroy, "cuStreamDestroy_v2", NULL, PFN_cuStreamDestroy_v4000)             \
	X(StreamEndCapture, "cuStreamEndCapture", NULL, PFN_cuStreamEndCapture_v10000)

/* Newer than CUDA 11.0, the oldest driver ptxpose starts on: NULL when the
 * driver lacks it, and graph timing then says so. cuGraphInstantiateWithFlags
 * (11.4) is what cuda.h calls cuGraphInstantiate since CUDA 12; the exported
 * symbol cuGraphInstantiate is the 10.0 one with another signature. */
#define DRV_LATER_ENTRY_POINTS(X) \
	X(GraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", NULL, PFN_cuGraphInstantiateWithFlags_v11040)

typedef struct {
#define DRV_FIELD(field, sym, alt, type) type field;
	DRV_ENTRY_POINTS(DRV_FIELD)
	DRV_LATER_ENTRY_POINTS(DRV_FIELD)
#undef DRV_FIELD
} drv_fns;

struct drv_ctx {
	drv_fns f;
	CUdevice dev;
	unsigned gen;       /* bumped by drv_reset */
	ptxpose_device_info info;
	const px_log *log;
};

/* "rig/rig_graph.c:88: cuStreamCreate: CUDA_ERROR_NOT_SUPPORTED (operation
 * not supported)" into err; PX_ENOMEM for CUDA_ERROR_OUT_OF_MEMORY, else
 * PX_ECUDA. */
px_status drv_fail(const drv_ctx *d, CUresult rc, const char *file, int line, const char *call, char *err,
		   size_t errlen);
#define DRV_FAIL(d, rc, call, err, errlen) drv_fail((d), (rc), __FILE__, __LINE__, (call), (err), (errlen))

/* "CUDA_ERROR_INVALID_VALUE (invalid argument)"; unknown codes too. */
const char *drv_error_text(const drv_ctx *d, CUresult rc, char *buf, size_t len);

#endif
