/* fstx: a set of files written into one folder as a single transaction,
 * all of them or none.
 *
 * Names are checked when they are queued (plain file names only), the
 * folder is created at commit, and the files whose bytes change are written
 * by fs_write_all (common/fsio.h): temporaries beside the targets first, all
 * renamed once every one is written, and on any failure the temporaries
 * removed and the targets already replaced given their old file back. A
 * folder the commit created is removed again. */
#ifndef COMMON_FSTX_H
#define COMMON_FSTX_H

#include <stddef.h>

#include "common/fsio.h"
#include "common/strbuf.h"

#define FSTX_MAX_FILES 4096 /* files in one transaction */
#define FSTX_NAME_MAX 200   /* bytes in one name (a temporary adds 16) */

typedef struct fstx fstx;

/* A transaction for files in folder `dir` (its parent must exist). NULL
 * when out of memory. */
fstx *fstx_new(const char *dir);
void fstx_free(fstx *t);

/* Check that `name` (len bytes, not NUL-terminated) is a plain file name:
 * not empty, no '/', no NUL or other control character, not "." or "..",
 * at most FSTX_NAME_MAX bytes. A leading "./" is allowed and dropped:
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

/* Write every queued file, as above. Files whose bytes are already there
 * are left alone (no temporary, no rename). Returns 0, or -1 with
 * "cannot write PATH: reason" in err and the folder as it was. */
int fstx_commit(fstx *t, strbuf *err);

/* After a commit: 1 when file i was written, 0 when it was left alone. */
int fstx_changed(const fstx *t, int i);

/* For tests: fs_write_all_hook's hook (common/fsio.h) for the commit's
 * writes: `fn` is called before each step on a file, "write" (its temporary)
 * or "rename" (onto its target); a nonzero return makes that step fail with
 * that errno value. */
void fstx_set_fault(fstx *t, fs_fault_fn fn, void *ud);

#endif
