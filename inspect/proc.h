/* proc: run an external tool without a shell and capture what it prints;
 * temporary folders under $TMPDIR. Internal to inspect/. */
#ifndef INSPECT_PROC_H
#define INSPECT_PROC_H

#include <stddef.h>

#include "common/strbuf.h"

/* Limits on one tool run: $PTXPOSE_TOOL_TIMEOUT seconds (default 300, 1 to
 * 86400), and what it prints, stdout and stderr together. */
#define INS_TOOL_TIMEOUT_DEFAULT 300u
#define INS_TOOL_TIMEOUT_MAX 86400u
#define INS_TOOL_OUTPUT_MAX ((size_t)64 << 20)

/* The timeout in seconds: 0, or -1 with a reason for a bad
 * PTXPOSE_TOOL_TIMEOUT. */
int ins_proc_timeout(unsigned *seconds, char *err, size_t errlen);

/* Run argv[0] (a path, or a name looked up in PATH) with argv, stdin from
 * /dev/null, stdout into out and stderr into errout (either may be NULL to
 * drop it), in a process group of its own. Returns the exit status (128+N
 * for a signal), or -1 with errno set and a reason in err: the program could
 * not be started (ENOENT: not found), PTXPOSE_TOOL_TIMEOUT is bad (EINVAL),
 * or it was killed, with its group, for running past the timeout
 * (ETIMEDOUT) or printing more than INS_TOOL_OUTPUT_MAX (EFBIG). */
int ins_proc_run(char *const argv[], strbuf *out, strbuf *errout,
		 char *err, size_t errlen);

/* Make a fresh private folder $TMPDIR/ptxpose.XXXXXX (TMPDIR defaults to
 * /tmp). Returns 0, or -1 with a reason. */
int ins_tmpdir_make(char *dir, size_t dirlen, char *err, size_t errlen);

/* Remove the folder and the plain files in it. */
void ins_tmpdir_remove(const char *dir);

#endif
