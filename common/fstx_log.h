/* fstx_log: the journal that makes a commit of several files survive a
 * crash (common/fstx.h). Inside fstx only.
 *
 * A commit first writes each new file beside its target as .NAME.ptxpose-new
 * and keeps each old one as .NAME.ptxpose-old (a hard link, else a copy),
 * all fsync'd; then the journal .ptxpose-journal, written atomically, names
 * them: that is the commit point. Then every new file is renamed onto its
 * target, and the olds and the journal removed. Whoever finds a journal
 * (the commit itself, or the next commit into the folder after a crash)
 * runs it to its end: a "commit" journal renames the new files still
 * there; an "abort" journal (a rename failed) puts every old file back.
 * Without a journal, .ptxpose-new and .ptxpose-old files are leftovers of a
 * run that never reached the commit point, or finished it: removed. */
#ifndef COMMON_FSTX_LOG_H
#define COMMON_FSTX_LOG_H

#include "common/fsio.h"
#include "common/strbuf.h"

#define FSTX_LOG ".ptxpose-journal"
#define FSTX_NEW "ptxpose-new"
#define FSTX_OLD "ptxpose-old"

/* "dir/.name.suffix", malloc'd; NULL when out of memory. */
char *fstx_beside(const char *dir, const char *name, const char *suffix);

/* Write the journal of dir: "commit" (commit = 1) or "abort", and the n
 * files by name, had[i] saying whether file i had an old file. 0, or -1
 * with errno. */
int fstx_log_put(const char *dir, int commit, char *const *names, const int *had, int n);

/* Run dir's journal, if there is one, to its end (above), then remove it
 * and sweep the leftovers. fault (may be NULL) is called before each
 * rename ("rename") and before the journal is removed ("done"); nonzero
 * fails the step with that errno. Returns 0 when there was no journal or
 * it committed; -1 with "cannot write PATH: reason" in err when it could
 * not be read (it is left there) or a rename failed (the commit was then
 * undone: the old files are back). */
int fstx_log_run(const char *dir, fs_fault_fn fault, void *ud, strbuf *err);

/* fsync the folder (best effort). */
void fstx_sync_dir(const char *dir);

#endif
