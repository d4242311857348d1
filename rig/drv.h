/* drv: the CUDA driver as the rig uses it (drv.c, drv_mem.c): its entry
 * points reached through ptxpose_driver_symbol (include/ptxpose.h), so the
 * rig calls the very libcuda the library opened (a fake one in tests);
 * device memory, pinned host memory and the copies between them, in the
 * context of the library's handle (current on the calling thread, as
 * ptxpose_create leaves it); the reset of the device's primary context after
 * a fault. Device facts come from the handle (ptxpose_device_get). Nothing
 * here includes a private header of lib/ or loader/. */
#ifndef RIG_DRV_H
#define RIG_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "include/ptxpose.h"
#include "loader/status.h"

typedef struct drv_ctx drv_ctx;

/* The rig's view of handle h's device and context: the context is the
 * handle's, so the rig's buffers are freed before the handle is destroyed.
 * "-v" says which device and driver. PX_ENODRIVER when the driver lacks an
 * entry point the rig needs. */
px_status drv_open(drv_ctx **out, ptxpose_handle h, const px_log *log, char *err, size_t errlen);
void drv_close(drv_ctx *d);

/* The device as the handle told it (name, SMs, L2, driver version). */
const ptxpose_device_info *drv_device(const drv_ctx *d);
/* "13.0" */
const char *drv_driver_str(const drv_ctx *d, char *buf, size_t len);
const px_log *drv_log(const drv_ctx *d);

/* After a sticky error (an illegal address in a kernel), reset the device's
 * primary context: every module, device and pinned buffer is gone.
 * Resources made before carry an older generation and are dropped, never
 * freed. The library's handles on the context are destroyed before, and the
 * next handle made (on no current context) takes the fresh one. */
px_status drv_reset(drv_ctx *d, char *err, size_t errlen);
unsigned drv_generation(const drv_ctx *d);

/* cuCtxSynchronize; `what` names what ran in the message. */
px_status drv_sync(drv_ctx *d, const char *what, char *err, size_t errlen);
px_status drv_mem_info(drv_ctx *d, uint64_t *free_b, uint64_t *total_b, char *err, size_t errlen);

/* Device memory. */
typedef struct {
	uint64_t ptr, bytes;
	unsigned gen;
} drv_buf;

px_status drv_alloc(drv_ctx *d, drv_buf *b, uint64_t bytes, char *err, size_t errlen);
void drv_free(drv_ctx *d, drv_buf *b);
px_status drv_htod(drv_ctx *d, uint64_t dst, const void *src, uint64_t bytes, char *err, size_t errlen);
px_status drv_dtoh(drv_ctx *d, void *dst, uint64_t src, uint64_t bytes, char *err, size_t errlen);
/* Asynchronous on the default stream. */
px_status drv_memset8(drv_ctx *d, uint64_t dst, unsigned char v, uint64_t bytes, char *err, size_t errlen);
/* Asynchronous on `stream` (NULL: the default stream). */
px_status drv_dtod_async(drv_ctx *d, uint64_t dst, uint64_t src, uint64_t bytes, ptxpose_stream stream,
			 char *err, size_t errlen);

/* Host memory, pinned (cuMemAllocHost) when it can be had, else malloc. */
typedef struct {
	void *p;
	uint64_t bytes;
	int pinned;
	unsigned gen;
} drv_host;

px_status drv_host_alloc(drv_ctx *d, drv_host *h, uint64_t bytes, char *err, size_t errlen);
void drv_host_free(drv_ctx *d, drv_host *h);

#endif
