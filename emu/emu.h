/* emu: run a ptxpose kernel on the CPU, for the PTX subset the generators
 * emit (docs/DESIGN.md), with sanitizer-like checks. */
#ifndef EMU_EMU_H
#define EMU_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "loader/meta.h"

enum {
	EMU_OK = 0,
	EMU_FAULT = 1,       /* out of bounds, race, barrier divergence: diag says where */
	EMU_UNSUPPORTED = 2, /* parse error or instruction outside the subset: diag names the line */
};

/* Run the kernel of `ptx` (whose metadata is m) over the whole launch grid
 * for a rows×cols transpose. `in` holds in_bytes, `out` out_bytes (the
 * allocations' exact bounds). Returns EMU_OK, EMU_FAULT or EMU_UNSUPPORTED,
 * with a one-line explanation appended to diag on failure. */
int emu_transpose(const char *ptx, const px_meta *m,
		  const void *in, size_t in_bytes, void *out, size_t out_bytes,
		  uint32_t rows, uint32_t cols, uint32_t ld_in, uint32_t ld_out,
		  strbuf *diag);

#endif
