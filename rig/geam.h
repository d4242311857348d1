/* geam: cuBLAS geam as a peer (cublas.c), libcublas opened at run time. */
#ifndef RIG_GEAM_H
#define RIG_GEAM_H

#include "loader/status.h"
#include "rig/drv.h"
#include "rig/op.h"

typedef struct rig_geam rig_geam;

/* dlopen libcublas.so.13, .12 or libcublas.so and make a handle on the
 * current context. PX_EUNAVAIL when there is none. */
px_status rig_geam_open(drv_ctx *drv, rig_geam **out, char *err, size_t errlen);
void rig_geam_close(rig_geam *g);
/* 1 for 32 (Sgeam), 64 (Dgeam) and 128 (Zgeam) bit elements. */
int rig_geam_supports(unsigned elem_bits);
/* C = 1 * A^T + 0 * C, column-major, on the rig's buffers. */
rig_op rig_op_geam(rig_geam *g);
/* "libcublas.so.13 (version 130002)" */
const char *rig_geam_version(const rig_geam *g);

#endif
