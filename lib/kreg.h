/* kreg: the kernels a plan chooses from. The built-in ones are the
 * committed ptx/ of the source tree, compiled into the library
 * (build/embed/ptx_kernels.c, written by configure.py's kernels rule with
 * the registers ptxas reports for sm_90 at build time); $PTXPOSE_PTX adds
 * or replaces some; ptxpose_register_ptx adds more to one handle.
 *
 * A kernel of a name already present replaces it at the same index; the
 * replaced one stays allocated until the registry is freed (plans and
 * ptxpose_kernel_info strings may point into it).
 *
 * Thread safety: none here; the handle locks around it (lib/api.h). The
 * built-ins are parsed once a process, under pthread_once. */
#ifndef LIB_KREG_H
#define LIB_KREG_H

#include <stddef.h>
#include <stdint.h>

#include "loader/meta.h"
#include "lib/model.h"
#include "loader/status.h"

/* One entry of build/embed/ptx_kernels.c. */
typedef struct {
	const char *file;  /* "fast_b32.ptx" */
	unsigned regs;     /* ptxas -v for sm_90 at build time; 0: ptxas was not there */
	size_t len;
	const char *ptx;
	uint64_t hash;     /* cache_hash of the text (common/cache.h), computed by configure.py */
} kreg_builtin;

extern const kreg_builtin kreg_builtins[];
extern const size_t kreg_nbuiltins;

typedef struct {
	px_meta meta;
	model_kernel mk;     /* what the cost model needs (regs included) */
	const char *ptx;     /* NUL-terminated */
	size_t len;
	unsigned regs;       /* from ptxas; 0: unknown (the model estimates) */
	uint64_t hash;       /* cache_hash of the text */
	char *source;        /* "built in", "PTXPOSE_PTX: dir/a.ptx", "registered", a path */
	char *file;          /* the file it came from: "fast_b32.ptx" (built in), a path, "" (registered) */
	char *meta_text;     /* every key=value, space-separated */
	char *owned;         /* the text when it is not built in */
	int shared;          /* one of the process's built-ins: every registry's, never freed */
} kreg_kernel;

typedef struct ptxpose_tool_kernels_s kreg; /* include/ptxpose_tools.h calls it ptxpose_tool_kernels */

/* An empty registry. PX_ENOMEM. */
px_status kreg_new(kreg **out, char *err, size_t errlen);
void kreg_free(kreg *r);

/* The built-in kernels. PX_EINPUT when one does not parse (a build that
 * embedded a broken file), naming it. */
px_status kreg_add_builtins(kreg *r, char *err, size_t errlen);

/* $PTXPOSE_PTX: folders (their *.ptx, sorted) or .ptx files, separated by
 * ':'; unset or empty adds nothing. PX_EINPUT naming the file or folder. */
px_status kreg_add_env(kreg *r, char *err, size_t errlen);

/* A folder's *.ptx files (sorted) or one file. `how` prefixes each kernel's
 * source ("PTXPOSE_PTX": "PTXPOSE_PTX: dir/a.ptx"); NULL: the path alone. */
px_status kreg_add_path(kreg *r, const char *path, const char *how, char *err, size_t errlen);

/* A PTX text of len bytes (copied), checked as px_file_parse does, named
 * `name` in messages. *index (if not NULL) gets its index. */
px_status kreg_add_text(kreg *r, const char *name, const char *ptx, size_t len, const char *source,
			int *index, char *err, size_t errlen);

int kreg_count(const kreg *r);
/* A hash of the kernel set: every kernel's text, in the registry's order
 * (the on-disk plan cache's key: measured plans are for these kernels). */
uint64_t kreg_set_hash(const kreg *r);
const kreg_kernel *kreg_get(const kreg *r, int i);
/* The index of the kernel of that entry name, or -1. */
int kreg_find(const kreg *r, const char *name);
/* Set kernel i's register count (`ptxpose plan --ptxas`): a built-in one
 * is copied into this registry first, the process's stays as it is. */
px_status kreg_set_regs(kreg *r, int i, unsigned regs);

#endif
