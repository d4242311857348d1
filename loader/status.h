/* status: the status the library's internal functions and the rig return,
 * the verbose log they write to, byte counts for messages. Internal: the
 * public API maps px_status to ptxpose_status (include/ptxpose.h), and only
 * cli/ turns either into an exit code. */
#ifndef LOADER_STATUS_H
#define LOADER_STATUS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
	PX_OK = 0,
	PX_WRONG,     /* it ran, but the result differs from the reference */
	PX_EUSAGE,    /* a shape or value the tool refuses: out of range, too large */
	PX_EINPUT,    /* a file is unreadable or has no ptxpose metadata */
	PX_ENODRIVER, /* libcuda.so.1 is missing or lacks an entry point */
	PX_ENODEVICE, /* a driver, but no usable CUDA device */
	PX_ECUDA,     /* a driver call failed: launch, copy, synchronize */
	PX_EJIT,      /* the PTX did not link: the JIT log says why */
	PX_ENOMEM,    /* device or host memory ran out */
	PX_EUNAVAIL,  /* an optional library (libcublas) or case is not available */
} px_status;

/* "PX_EJIT" etc., for logs and tests. */
const char *px_status_name(px_status st);

/* Verbose notes, one line each, no newline. A NULL log or fn is silent. */
typedef struct {
	void (*fn)(void *ud, const char *line);
	void *ud;
} px_log;

void px_logf(const px_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Human byte counts: "4.0 KiB", "1.00 GiB". Returns buf. */
const char *px_bytes_str(uint64_t bytes, char *buf, size_t len);

/* A driver's CUresult rc for messages, from what cuGetErrorName and
 * cuGetErrorString gave (NULL where they gave nothing): "CUDA_ERROR_INVALID_PTX
 * (a PTX JIT compilation failed)", or "CUresult 999 (a code this driver does
 * not name)". Returns buf. */
const char *px_cuda_error_str(int rc, const char *name, const char *text, char *buf, size_t len);


#endif
