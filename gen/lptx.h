/* lptx: the `ptx` Lua module and the host that runs generator scripts.
 *
 * Files a script writes with ptx.write are held in memory and written
 * (atomically, one by one) only after the whole script has succeeded, so a
 * failing script changes nothing on disk. */
#ifndef GEN_LPTX_H
#define GEN_LPTX_H

#include "common/strbuf.h"

typedef struct {
	const char *outdir;   /* where relative names go */
	int force;            /* replace files that ptxpose did not generate */
	int verbose;          /* full traceback on errors */
} lptx_opts;

enum { LPTX_OK = 0, LPTX_SCRIPT = 1, LPTX_IO = 2 };

/* Run a script. On success `report` lists each file written or unchanged.
 * On failure `err` gets one line ("scripts/v.lua:12: tile: ...") and the
 * return is LPTX_SCRIPT (script or generator error) or LPTX_IO. */
int lptx_run(const char *script, const lptx_opts *o, strbuf *report, strbuf *err);

#endif
