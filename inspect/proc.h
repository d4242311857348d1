/* proc: run an external tool without a shell and capture what it prints;
 * temporary folders under $TMPDIR. Internal to inspect/. */
#ifndef INSPECT_PROC_H
#define INSPECT_PROC_H

#include <stddef.h>

#include "common/strbuf.h"

/* Run argv[0] (a path, or a name looked up in PATH) with argv, stdin from
 * /dev/null, stdout into out and stderr into errout (either may be NULL to
 * drop it). Returns the exit status (128+N for a signal), or -1 when the
 * program could not be started, with errno set (ENOENT: not found) and a
 * reason in err. */
int ins_proc_run(char *const argv[], strbuf *out, strbuf *errout,
		 char *err, size_t errlen);

/* Make a fresh private folder $TMPDIR/ptxpose.XXXXXX (TMPDIR defaults to
 * /tmp). Returns 0, or -1 with a reason. */
int ins_tmpdir_make(char *dir, size_t dirlen, char *err, size_t errlen);

/* Remove the folder and the plain files in it. */
void ins_tmpdir_remove(const char *dir);

#endif
