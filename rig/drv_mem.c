/* drv_mem: device memory, pinned host memory and the copies between them.
 * A buffer made before a drv_reset carries an older generation: it is gone
 * with its context and is dropped, never freed. */
#include "rig/drv_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *what_bytes(const char *call, uint64_t bytes, char *buf, size_t len)
{
	char b[32];
	snprintf(buf, len, "%s of %s", call, px_bytes_str(bytes, b, sizeof b));
	return buf;
}

px_status drv_alloc(drv_ctx *d, drv_buf *b, uint64_t bytes, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	CUdeviceptr p = 0;
	CUresult rc = d->f.MemAlloc(&p, bytes ? bytes : 1);
	if (rc) {
		char call[64];
		return DRV_FAIL(d, rc, what_bytes("cuMemAlloc", bytes, call, sizeof call), err, errlen);
	}
	b->ptr = p;
	b->bytes = bytes;
	b->gen = d->gen;
	return PX_OK;
}

void drv_free(drv_ctx *d, drv_buf *b)
{
	if (b->ptr && b->gen == d->gen)
		d->f.MemFree(b->ptr);
	memset(b, 0, sizeof *b);
}

px_status drv_htod(drv_ctx *d, uint64_t dst, const void *src, uint64_t bytes, char *err, size_t errlen)
{
	CUresult rc = d->f.MemcpyHtoD(dst, src, bytes);
	if (!rc)
		return PX_OK;
	char call[64];
	return DRV_FAIL(d, rc, what_bytes("cuMemcpyHtoD", bytes, call, sizeof call), err, errlen);
}

px_status drv_dtoh(drv_ctx *d, void *dst, uint64_t src, uint64_t bytes, char *err, size_t errlen)
{
	CUresult rc = d->f.MemcpyDtoH(dst, src, bytes);
	if (!rc)
		return PX_OK;
	char call[64];
	return DRV_FAIL(d, rc, what_bytes("cuMemcpyDtoH", bytes, call, sizeof call), err, errlen);
}

px_status drv_memset8(drv_ctx *d, uint64_t dst, unsigned char v, uint64_t bytes, char *err, size_t errlen)
{
	CUresult rc = d->f.MemsetD8(dst, v, bytes);
	if (!rc)
		return PX_OK;
	char call[64];
	return DRV_FAIL(d, rc, what_bytes("cuMemsetD8", bytes, call, sizeof call), err, errlen);
}

px_status drv_dtod_async(drv_ctx *d, uint64_t dst, uint64_t src, uint64_t bytes, ptxpose_stream stream,
			char *err, size_t errlen)
{
	CUresult rc = d->f.MemcpyDtoDAsync(dst, src, bytes, stream);
	if (!rc)
		return PX_OK;
	char call[64];
	return DRV_FAIL(d, rc, what_bytes("cuMemcpyDtoDAsync", bytes, call, sizeof call), err, errlen);
}

px_status drv_host_alloc(drv_ctx *d, drv_host *h, uint64_t bytes, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	void *p = NULL;
	char b[32];
	CUresult rc = d->f.MemAllocHost(&p, bytes ? bytes : 1);
	if (!rc) {
		h->pinned = 1;
	} else {
		char text[256];
		px_logf(d->log, "cu: cuMemAllocHost of %s failed (%s); using pageable memory",
			px_bytes_str(bytes, b, sizeof b), drv_error_text(d, rc, text, sizeof text));
		if (!(p = malloc(bytes ? bytes : 1))) {
			snprintf(err, errlen, "cannot allocate %s of host memory", px_bytes_str(bytes, b, sizeof b));
			return PX_ENOMEM;
		}
	}
	h->p = p;
	h->bytes = bytes;
	h->gen = d->gen;
	return PX_OK;
}

void drv_host_free(drv_ctx *d, drv_host *h)
{
	if (h->p && !h->pinned)
		free(h->p);
	else if (h->p && h->gen == d->gen)
		d->f.MemFreeHost(h->p);
	memset(h, 0, sizeof *h);
}
