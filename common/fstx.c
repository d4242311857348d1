/* fstx: several files into one folder, all or none, across a crash too
 * (fstx.h; the journal: fstx_log.h). */
#define _DEFAULT_SOURCE /* flock */
#include "common/fstx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsio.h"
#include "common/fstx_log.h"

#define FSTX_STR_(x) #x
#define FSTX_STR(x) FSTX_STR_(x)

typedef struct {
	char *name;         /* the plain name */
	char *path;         /* folder/name */
	const char *data;   /* the caller's bytes */
	size_t len;
	int changed;        /* its bytes differ: it gets written */
} fstx_file;

struct fstx {
	char *dir;
	fstx_file *f;       /* sorted by name */
	int n, cap;
	fs_fault_fn fault;
	void *ud;
};

fstx *fstx_new(const char *dir)
{
	fstx *t = calloc(1, sizeof *t);
	if (t && !(t->dir = strdup(*dir ? dir : "."))) {
		free(t);
		t = NULL;
	}
	return t;
}

static void drop_file(fstx_file *f)
{
	free(f->name);
	free(f->path);
}

void fstx_free(fstx *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n; i++)
		drop_file(&t->f[i]);
	free(t->f);
	free(t->dir);
	free(t);
}

void fstx_set_fault(fstx *t, fs_fault_fn fn, void *ud)
{
	t->fault = fn;
	t->ud = ud;
}

int fstx_count(const fstx *t) { return t->n; }
const char *fstx_base(const fstx *t, int i) { return t->f[i].name; }
const char *fstx_path(const fstx *t, int i) { return t->f[i].path; }
const char *fstx_data(const fstx *t, int i, size_t *len)
{
	*len = t->f[i].len;
	return t->f[i].data;
}
int fstx_changed(const fstx *t, int i) { return t->f[i].changed; }

int fstx_name(const char *name, size_t len, strbuf *err)
{
	size_t skip = len > 2 && name[0] == '.' && name[1] == '/' ? 2 : 0;
	const char *s = name + skip, *why = NULL;
	size_t n = len - skip;
	if (!n)
		why = "it is empty";
	else if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		why = "it names a folder";
	else if (n > FSTX_NAME_MAX)
		why = "it is longer than " FSTX_STR(FSTX_NAME_MAX) " bytes";
	else if ((n == sizeof FSTX_LOG - 1 && !memcmp(s, FSTX_LOG, n)) ||
		 (n > sizeof FSTX_NEW && s[0] == '.' && (!memcmp(s + n - sizeof FSTX_NEW + 1, FSTX_NEW, sizeof FSTX_NEW - 1) ||
							  !memcmp(s + n - sizeof FSTX_OLD + 1, FSTX_OLD, sizeof FSTX_OLD - 1))))
		why = "fstx keeps names like it for a commit's own files";
	for (size_t i = 0; i < n && !why; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '/')
			why = "it has a '/' (files go in the output folder itself)";
		else if (c == 0)
			why = "it has a NUL byte";
		else if (c < 0x20 || c == 0x7f)
			why = "it has a control character";
	}
	if (!why)
		return (int)skip;
	sb_addc(err, '\'');
	sb_add_esc(err, name, len, NULL);
	sb_printf(err, "' is not a plain file name: %s", why);
	return -1;
}

/* Where `name` is or would go in the sorted list; *found when it is there. */
static int find(const fstx *t, const char *name, size_t n, int *found)
{
	int lo = 0, hi = t->n;
	*found = 0;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const char *m = t->f[mid].name;
		int c = strncmp(m, name, n);
		if (!c && m[n])
			c = 1;
		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int fstx_add(fstx *t, const char *name, size_t namelen, const char *data, size_t len, strbuf *err)
{
	int skip = fstx_name(name, namelen, err);
	if (skip < 0)
		return -1;
	const char *s = name + skip;
	size_t n = namelen - (size_t)skip;
	int found, at = find(t, s, n, &found);
	if (found) {
		sb_printf(err, "%s/", t->dir);
		sb_add_esc(err, s, n, NULL);
		sb_add(err, " is written twice");
		return -1;
	}
	if (t->n == FSTX_MAX_FILES) {
		sb_printf(err, "more than %d files", FSTX_MAX_FILES);
		return -1;
	}
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		fstx_file *f = realloc(t->f, (size_t)cap * sizeof *f);
		if (!f)
			goto oom;
		t->f = f;
		t->cap = cap;
	}
	fstx_file nf = {.name = strndup(s, n), .path = malloc(strlen(t->dir) + n + 2), .data = data, .len = len};
	if (!nf.name || !nf.path) {
		drop_file(&nf);
		goto oom;
	}
	sprintf(nf.path, "%s/%s", t->dir, nf.name);
	memmove(&t->f[at + 1], &t->f[at], (size_t)(t->n - at) * sizeof *t->f);
	t->f[at] = nf;
	t->n++;
	return 0;
oom:
	sb_add(err, "out of memory");
	return -1;
}

#define NOT_REGULAR -2

/* Does the target hold other bytes than f's (or not exist)? -1: errno;
 * NOT_REGULAR: it is a folder, a device, a FIFO... */
static int differs(const fstx_file *f)
{
	struct stat st;
	if (stat(f->path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? 1 : -1; /* the folder is made (or refused) later */
	if (!S_ISREG(st.st_mode))
		return NOT_REGULAR;
	size_t len;
	char *old = fs_read(f->path, &len);
	if (!old)
		return -1;
	int d = len != f->len || memcmp(old, f->data, len);
	free(old);
	return d;
}

/* Create the folder unless it is there. 1 created, 0 there, -1 errno
 * (ENOTDIR: something else is there). */
static int make_dir(const char *dir)
{
	struct stat st;
	if (!stat(dir, &st)) {
		errno = ENOTDIR;
		return S_ISDIR(st.st_mode) ? 0 : -1;
	}
	if (errno != ENOENT)
		return -1;
	return mkdir(dir, 0755) ? -1 : 1;
}

/* The folder locked against another commit into it (best effort): its fd,
 * or -1. */
static int lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_CLOEXEC | O_DIRECTORY);
	if (fd >= 0)
		while (flock(fd, LOCK_EX) && errno == EINTR)
			;
	return fd;
}

/* A new file at path holding data, fsync'd; -1 with errno. */
static int put_file(const char *path, const char *data, size_t len)
{
	unlink(path); /* never through a link that another name shares */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), e = 0;
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < len && !e;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno != EINTR)
			e = errno;
		off += w > 0 ? (size_t)w : 0;
	}
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (e) {
		unlink(path);
		errno = e;
	}
	return e ? -1 : 0;
}

/* The old file at f's path kept at `old` (a hard link, else a copy), for
 * an undo; *had: there was one. -1 with errno. */
static int keep_old(const fstx_file *f, const char *old, int *had)
{
	struct stat st;
	unlink(old);
	if (!(*had = !lstat(f->path, &st)))
		return errno == ENOENT ? 0 : -1;
	if (!link(f->path, old))
		return 0;
	size_t len;
	char *bytes = fs_read(f->path, &len);
	int rc = bytes ? put_file(old, bytes, len) : -1;
	free(bytes);
	return rc;
}

/* fsio's temporaries and copies of the files queued, left by a crash of
 * an older ptxpose (.NAME.tmp.XXXXXX, .NAME.old.XXXXXX): removed. */
static void sweep_fsio(const fstx *t)
{
	DIR *d = opendir(t->dir);
	if (!d)
		return;
	strbuf path;
	sb_init(&path);
	for (struct dirent *e; (e = readdir(d));) {
		const char *s = e->d_name;
		size_t n = strlen(s);
		int found = 0;
		if (s[0] == '.' && n > 12 && (!strncmp(s + n - 11, ".tmp.", 5) || !strncmp(s + n - 11, ".old.", 5)))
			find(t, s + 1, n - 12, &found);
		if (found) {
			sb_reset(&path);
			sb_printf(&path, "%s/%s", t->dir, s);
			unlink(sb_str(&path));
		}
	}
	closedir(d);
	sb_free(&path);
}

/* Undo what a commit did before its journal: its new and old copies, and
 * the folder if it made it. */
static void drop_copies(fstx *t, char **nw, char **old, int n, int created)
{
	for (int i = 0; i < n; i++) {
		if (nw[i])
			unlink(nw[i]);
		if (old[i])
			unlink(old[i]);
	}
	if (created == 1)
		rmdir(t->dir);
}

int fstx_commit(fstx *t, strbuf *err)
{
	int created = 0, any = 0, i, n = 0, lock = -1;
	const char *failed = NULL, *why = NULL;
	char **nw = calloc((size_t)t->n + 1, sizeof *nw), **old = calloc((size_t)t->n + 1, sizeof *old),
	     **names = calloc((size_t)t->n + 1, sizeof *names);
	int *had = calloc((size_t)t->n + 1, sizeof *had), rc = -1;
	struct stat st;
	if (!nw || !old || !names || !had) {
		errno = ENOMEM;
		failed = t->dir;
		goto fail;
	}
	if (!stat(t->dir, &st) && S_ISDIR(st.st_mode)) { /* an earlier commit's crash: finished first */
		lock = lock_dir(t->dir);
		if (fstx_log_run(t->dir, NULL, NULL, err))
			goto out;
		sweep_fsio(t);
	}
	for (i = 0; i < t->n; i++) {
		int d = differs(&t->f[i]);
		if (d < 0) {
			failed = t->f[i].path;
			why = d == NOT_REGULAR ? "it is there and is not a regular file" : NULL;
			goto fail;
		}
		any |= t->f[i].changed = d;
	}
	if (!any) {
		rc = 0;
		goto out;
	}
	if ((created = make_dir(t->dir)) < 0) {
		failed = t->dir;
		why = errno == ENOTDIR ? "it is there and is not a folder" : NULL;
		goto fail;
	}
	if (lock < 0)
		lock = lock_dir(t->dir);
	for (i = 0; i < t->n; i++) {
		fstx_file *f = &t->f[i];
		if (!f->changed)
			continue;
		failed = f->path;
		names[n] = f->name;
		if (!(nw[n] = fstx_beside(t->dir, f->name, FSTX_NEW)) || !(old[n] = fstx_beside(t->dir, f->name, FSTX_OLD))) {
			errno = ENOMEM;
			n++;
			goto fail;
		}
		int e = t->fault ? t->fault(t->ud, "write", f->path) : 0;
		n++;
		if (e || put_file(nw[n - 1], f->data, f->len) || keep_old(f, old[n - 1], &had[n - 1])) {
			errno = e ? e : errno;
			goto fail;
		}
	}
	failed = t->dir;
	int e = t->fault ? t->fault(t->ud, "journal", t->dir) : 0;
	fstx_sync_dir(t->dir);
	if (e || fstx_log_put(t->dir, 1, names, had, n)) { /* the commit point */
		errno = e ? e : errno;
		goto fail;
	}
	rc = fstx_log_run(t->dir, t->fault, t->ud, err);
	goto out;
fail:;
	e = errno;
	drop_copies(t, nw, old, n, created);
	sb_add(err, "cannot write ");
	sb_add_esc(err, failed, strlen(failed), NULL);
	sb_printf(err, ": %s", why ? why : strerror(e));
out:
	if (rc)
		for (i = 0; i < t->n; i++)
			t->f[i].changed = 0;
	for (i = 0; nw && old && i < n; i++) {
		free(nw[i]);
		free(old[i]);
	}
	free(nw);
	free(old);
	free(names);
	free(had);
	if (lock >= 0)
		close(lock);
	return rc;
}
