/* jit: PTX -> cubin -> module -> kernel, for the current device, with the
 * JIT's logs for the caller. */
#ifndef LOADER_JIT_H
#define LOADER_JIT_H

#include "common/strbuf.h"
#include "loader/cu.h"
#include "loader/meta.h"

typedef struct jit_kernel jit_kernel;

typedef struct {
	int regs, static_smem, local_bytes, max_threads;
	float wall_ms;  /* time spent in the JIT */
} jit_attrs;

/* Compile the PTX text (whose metadata is m) for this device (one
 * cuModuleLoadDataEx, the whole program; with PTXPOSE_JIT=link
 * cuLinkCreate/AddData/Complete, which compiles it as relocatable code and
 * costs registers), load it, find meta.kernel, raise its dynamic shared memory limit when static + dyn_smem
 * > 48 KiB. The JIT error log (and with `verbose` the info log) is appended
 * to `log`. PX_EJIT; PX_ECUDA, also when the kernel cannot run with the
 * metadata's block (too many registers a thread, too much shared memory). */
px_status jit_load(cu_ctx *cu, const char *ptx, const px_meta *m, int verbose, jit_kernel **out,
		   strbuf *log, char *err, size_t errlen);
void jit_free(jit_kernel *k);
const jit_attrs *jit_attributes(const jit_kernel *k);
const px_meta *jit_meta(const jit_kernel *k);


#endif
