/* fstx: a set of files written into one folder as a single transaction,
 * all of them or none, across a crash too.
 *
 * Names are checked when they are queued (plain file names only), the
 * folder is created at commit, and the files whose bytes change are
 * written beside their targets first, the old ones kept, then a journal
 * names them (the commit point), then they are renamed onto their targets
 * (common/fstx_log.h). A failure before the journal removes what was
 * written; a rename that fails after it puts the old files back. A process
 * killed mid-commit leaves the journal: the next commit into the folder
 * runs it to its end first (all new files once the journal was written,
 * all old before), and removes what a commit leaves beside the files
 * (.NAME.ptxpose-new, .NAME.ptxpose-old, and fsio's .NAME.tmp.XXXXXX and
 * .NAME.old.XXXXXX of the files it writes). Between the kill and that
 * commit the folder may show some files new and some old. Commits into one
 * folder take turns (flock). A folder the commit created is removed again
 * on failure. */
#ifndef COMMON_FSTX_H
#define COMMON_FSTX_H

#include <stddef.h>

#include "common/fsio.h"
#include "common/strbuf.h"

#define FSTX_MAX_FILES 4096 /* files in one transaction */
#define FSTX_NAME_MAX 200   /* bytes in one name (a copy beside it adds 14) */

typedef struct fstx fstx;

/* A transaction for files in folder `dir` (its parent must exist). NULL
 * when out of memory. */
fstx *fstx_new(const char *dir);
void fstx_free(fstx *t);

/* Check that `name` (len bytes, not NUL-terminated) is a plain file name:
 * not empty, no '/', no NUL or other control character, not "." or "..",
 * at most FSTX_NAME_MAX bytes, none of the commit's own names (.ptxpose-journal,
 * .NAME.ptxpose-new, .NAME.ptxpose-old). A leading "./" is allowed and dropped:
 * returns the number of bytes dropped (0 or 2), or -1 with the reason
 * appended to err ("'a/b.ptx' is not a plain file name: it has a '/'"). */
int fstx_name(const char *name, size_t len, strbuf *err);

/* Queue `len` bytes at `data` as file `name` of the folder. The bytes are
 * not copied: they must stay put until fstx_commit or fstx_free. Returns 0,
 * or -1 with the reason in err: a bad name, a name queued twice ("a.ptx"
 * and "./a.ptx" are the same), too many files, out of memory. */
int fstx_add(fstx *t, const char *name, size_t namelen, const char *data, size_t len, strbuf *err);

/* The queued files in name order: i from 0 to fstx_count() - 1. */
int fstx_count(const fstx *t);
/* The name of file i, as checked ("./" dropped). */
const char *fstx_base(const fstx *t, int i);
/* The path of file i: "folder/name". */
const char *fstx_path(const fstx *t, int i);
/* Its bytes, as queued. */
const char *fstx_data(const fstx *t, int i, size_t *len);

/* First finish a commit that a crash left in the folder, then write every
 * queued file, as above. Files whose bytes are already there are left
 * alone (no temporary, no rename). Returns 0, or -1 with "cannot write
 * PATH: reason" (or "cannot read DIR/.ptxpose-journal: ...") in err and the
 * folder as it was. */
int fstx_commit(fstx *t, strbuf *err);

/* After a commit: 1 when file i was written, 0 when it was left alone. */
int fstx_changed(const fstx *t, int i);

/* For tests: `fn` (common/fsio.h's fs_fault_fn) is called before each step
 * of the commit: "write" (a file's new copy, the target's path),
 * "journal" (the folder), "rename" (onto a target), "done" (the journal's
 * removal); a nonzero return makes that step fail with that errno value. */
void fstx_set_fault(fstx *t, fs_fault_fn fn, void *ud);

#endif
