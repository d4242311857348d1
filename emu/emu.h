/* emu: run a ptxpose kernel on the CPU, for the PTX subset the generators
 * emit (docs/DESIGN.md), with sanitizer-like checks. emu/README.md says
 * what is checked and what is not. */
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
 * for a rows×cols transpose (one matrix). `in` holds in_bytes, `out`
 * out_bytes (the allocations' exact bounds). Returns EMU_OK, EMU_FAULT or
 * EMU_UNSUPPORTED, with a one-line explanation appended to diag on failure. */
int emu_transpose(const char *ptx, const px_meta *m,
		  const void *in, size_t in_bytes, void *out, size_t out_bytes,
		  uint32_t rows, uint32_t cols, uint32_t ld_in, uint32_t ld_out,
		  strbuf *diag);

/* The two steps of emu_transpose, for callers that run one program several
 * times or choose the launch themselves (tests). */
typedef struct emu_prog emu_prog;

/* Parse and decode the entry of `ptx`. Returns EMU_OK with *out set, or
 * EMU_UNSUPPORTED with "line N: ..." in diag. */
int emu_load(const char *ptx, emu_prog **out, strbuf *diag);
void emu_free(emu_prog *p);
/* The entry's name. */
const char *emu_entry(const emu_prog *p);

typedef struct {
	uint64_t instructions;  /* executed by a thread, guarded-off ones included */
	uint64_t warp_instructions; /* executed by a warp for its active lanes */
	uint64_t ctas;
	uint64_t barriers;      /* barrier intervals ended (all CTAs) */
} emu_stats;

/* The default launch budget (emu_launch.max_instructions = 0): 2^26
 * instructions plus 2^14 for every thread started so far, at most 2^34 in
 * all. The committed kernels need at most about 2,000 a thread; a kernel
 * that never ends stops within 2^26 + 2^24 instructions of its start. */
#define EMU_INS_BASE (UINT64_C(1) << 26)
#define EMU_INS_PER_THREAD (UINT64_C(1) << 14)
#define EMU_INS_MAX (UINT64_C(1) << 34)
/* ... and barrier intervals (max_barriers = 0): 2^16 plus 64 a CTA started. */
#define EMU_BAR_BASE (UINT64_C(1) << 16)
#define EMU_BAR_PER_CTA 64

/* One launch with the parameters of kernel ABI v2, v3 or v4 (docs/DESIGN.md,
 * loader/abi.h). `in` is read-only; it and `out` live at distinct fake
 * device addresses and every access is checked against their exact sizes.
 * A batch of several dimensions (kernel ABI v3): bdims holds the records
 * (abi_bdims_fill), batch their product, and stride_in/stride_out are
 * unused; the kernel must be v3. bdims NULL: one dimension (batch,
 * stride_in, stride_out), which a v2 or a v3 kernel runs. A v4 kernel (the
 * pack family) needs tdims (abi_tdims_fill); a v2 or v3 kernel refuses it. */
typedef struct {
	unsigned grid[3], block[3];
	unsigned dyn_smem;              /* bytes of dynamic shared memory */
	const void *in;
	size_t in_bytes;
	void *out;
	size_t out_bytes;
	uint32_t rows, cols, ld_in, ld_out;
	uint32_t batch;                 /* matrices */
	uint64_t stride_in, stride_out; /* elements between matrices */
	const uint8_t *bdims;           /* NULL, or ABI_BDIMS_BYTES of v3 records */
	const uint8_t *tdims;           /* NULL, or ABI_TDIMS_BYTES of v4's tile dims */
	uint32_t misalign;              /* bytes added to both base addresses, to
					 * test pointers offset from alignment */
	uint64_t branch_budget;         /* backward branches a thread may take
					 * between barriers; 0: 2^26 */
	uint64_t max_instructions;      /* launch-wide; 0: the default above */
	uint64_t max_barriers;          /* barrier intervals, launch-wide; 0: default */
	emu_stats *stats;               /* optional: filled on return */
} emu_launch;

/* Run a loaded program. EMU_OK, or EMU_FAULT / EMU_UNSUPPORTED with a
 * one-line message in diag. Spending the launch's budget of instructions or
 * barriers is an EMU_FAULT that names the kernel, the budget and where the
 * kernel stopped. */
int emu_run(const emu_prog *p, const emu_launch *l, strbuf *diag);

/* Load `ptx` (whose metadata is m) and run it on the shape, buffers and
 * misalignment in *l, over the grid meta_grid_dims gives it (which honours
 * PTXPOSE_GRID_MAX); l->grid, block and dyn_smem are filled in here. */
int emu_transpose_launch(const char *ptx, const px_meta *m, emu_launch *l, strbuf *diag);
/* The same with a program loaded once (emu_load) for many launches. */
int emu_prog_launch(const emu_prog *p, const px_meta *m, emu_launch *l, strbuf *diag);

#endif
