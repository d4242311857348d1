/* lptx: the `ptx` Lua module and the host that runs generator scripts.
 *
 * A script runs in the sandbox of gen/lsbx.h. The files it writes with
 * ptx.write are checked at the call (plain file names only) and held in
 * memory; only once the whole script has succeeded are they written, as
 * one transaction (common/fstx.h): all of them or none. The script runs in
 * a child process (lsbx_fork) that is killed at the time limit whatever it
 * is doing; the files are written by the parent. */
#ifndef GEN_LPTX_H
#define GEN_LPTX_H

#include <stddef.h>

#include "common/strbuf.h"
#include "gen/lsbx.h"

#define LPTX_SCRIPT_MAX ((size_t)16 << 20) /* bytes of script text */

/* Where the files go instead of the folder (fuzzing, tests): called once a
 * file, in name order, after the script succeeded. Nonzero fails the run. */
typedef int (*lptx_sink)(void *ud, const char *path, const char *data, size_t len);

typedef struct {
	const char *outdir;   /* where the files go (created if missing, at the end) */
	int force;            /* replace files that ptxpose did not generate */
	int verbose;          /* full traceback on errors */
	lsbx_limits limits;   /* memory and time; zeros: the defaults */
	lptx_sink sink;       /* optional: files go here, and outdir is not read */
	void *sink_ud;
	int in_process;       /* run the script in this process (a fuzzer sees its
			       * coverage) under the sandbox's own limits only; by
			       * default it runs in a child killed at the time limit */
} lptx_opts;

enum { LPTX_OK = 0, LPTX_SCRIPT = 1, LPTX_IO = 2 };

/* Run the script at path `script`. On success `report` lists each file
 * written or unchanged. On failure `err` gets one line
 * ("scripts/v.lua:12: transpose k: tile: ...") and the return is
 * LPTX_SCRIPT (script or generator error, a limit reached) or LPTX_IO
 * (the script cannot be read, a file cannot be written). */
int lptx_run(const char *script, const lptx_opts *o, strbuf *report, strbuf *err);

/* The same with the script's text in memory; `name` names it in messages
 * and in the files' headers. */
int lptx_run_text(const char *name, const char *text, size_t len, const lptx_opts *o, strbuf *report,
		  strbuf *err);

#endif
