/* fstx: several files into one folder, all or none (fstx.h). */
#include "common/fstx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsio.h"

#define FSTX_STR_(x) #x
#define FSTX_STR(x) FSTX_STR_(x)

typedef struct {
	char *name;         /* the plain name */
	char *path;         /* folder/name */
	const char *data;   /* the caller's bytes */
	size_t len;
	char *tmp;          /* the temporary, while it exists */
	char *old;          /* a hard link to the file it replaces, while it exists */
	int existed;        /* the target was there before the commit */
	int changed;        /* its bytes differ: it gets written */
	int renamed;        /* the temporary is now the target */
} fstx_file;

struct fstx {
	char *dir;
	fstx_file *f;       /* sorted by name */
	int n, cap;
	fstx_fault_fn fault;
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
	free(f->tmp);
	free(f->old);
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

void fstx_set_fault(fstx *t, fstx_fault_fn fn, void *ud)
{
	t->fault = fn;
	t->ud = ud;
}

int fstx_count(const fstx *t) { return t->n; }
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
	sb_add_escaped(err, name, len);
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
		sb_add_escaped(err, s, n);
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

/* A test's simulated failure of `step` on f, as an errno value; 0: none. */
static int faulted(fstx *t, const char *step, const fstx_file *f)
{
	return t->fault ? t->fault(t->ud, step, f->path) : 0;
}

#define NOT_REGULAR -2

/* Does the target hold other bytes than f's (or not exist)? -1: errno;
 * NOT_REGULAR: it is a folder, a device, a FIFO... */
static int differs(fstx_file *f)
{
	struct stat st;
	if (stat(f->path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? 1 : -1; /* the folder is made (or refused) later */
	if (!S_ISREG(st.st_mode))
		return NOT_REGULAR;
	f->existed = 1;
	size_t len;
	char *old = fs_read(f->path, &len);
	if (!old)
		return -1;
	int d = len != f->len || memcmp(old, f->data, len);
	free(old);
	return d;
}

/* "folder/.name.tmp.XXXXXX" or "folder/.name.old.N" beside the target. */
static char *beside(const fstx *t, const fstx_file *f, const char *what)
{
	size_t n = strlen(t->dir) + strlen(f->name) + 32;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/.%s.%s", t->dir, f->name, what);
	return p;
}

static int write_all(int fd, const char *data, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* Write f's bytes to a fresh temporary beside its target. -1: errno. */
static int write_tmp(fstx *t, fstx_file *f)
{
	if (!(f->tmp = beside(t, f, "tmp.XXXXXX")))
		return -1;
	int fd = mkstemp(f->tmp);
	if (fd < 0) {
		free(f->tmp);
		f->tmp = NULL;
		return -1;
	}
	int e = faulted(t, "write", f);
	if (!e && write_all(fd, f->data, f->len))
		e = errno;
	if (!e && fchmod(fd, 0644))
		e = errno;
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	errno = e;
	return e ? -1 : 0;
}

/* Keep the file f replaces under another name (a hard link), so that a
 * failed commit can put it back. Where the file system has no hard links,
 * f->old stays NULL and a failure later cannot restore it. */
static int keep_old(const fstx *t, fstx_file *f)
{
	for (unsigned k = 0; k < 1000; k++) {
		char what[32];
		snprintf(what, sizeof what, "old.%ld.%u", (long)getpid(), k);
		free(f->old);
		if (!(f->old = beside(t, f, what)))
			return -1;
		if (!link(f->path, f->old))
			return 0;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(f->old);
	f->old = NULL;
	errno = e;
	return e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS || e == EMLINK ? 0 : -1;
}

/* Undo whatever the commit did to f. */
static void undo(fstx_file *f)
{
	if (f->renamed) {
		if (f->old) {
			if (!rename(f->old, f->path)) {
				free(f->old);
				f->old = NULL;
			}
		} else if (!f->existed) {
			unlink(f->path);
		}
		f->renamed = 0;
	}
	if (f->tmp)
		unlink(f->tmp);
	if (f->old)
		unlink(f->old);
	free(f->tmp);
	free(f->old);
	f->tmp = f->old = NULL;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY);
	if (fd >= 0) {
		fsync(fd); /* best effort: the renames are durable once it is done */
		close(fd);
	}
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

int fstx_commit(fstx *t, strbuf *err)
{
	int created = 0, any = 0, i;
	const char *failed = NULL, *why = NULL;
	for (i = 0; i < t->n; i++) {
		int d = differs(&t->f[i]);
		if (d < 0) {
			failed = t->f[i].path;
			why = d == NOT_REGULAR ? "it is there and is not a regular file" : NULL;
			goto fail;
		}
		t->f[i].changed = d;
		any |= d;
	}
	if (any && (created = make_dir(t->dir)) < 0) {
		failed = t->dir;
		why = errno == ENOTDIR ? "it is there and is not a folder" : NULL;
		goto fail;
	}
	for (i = 0; i < t->n; i++)
		if (t->f[i].changed && write_tmp(t, &t->f[i])) {
			failed = t->f[i].path;
			goto fail;
		}
	for (i = 0; i < t->n; i++)
		if (t->f[i].changed && t->f[i].existed && keep_old(t, &t->f[i])) {
			failed = t->f[i].path;
			goto fail;
		}
	for (i = 0; i < t->n; i++) {
		fstx_file *f = &t->f[i];
		if (!f->changed)
			continue;
		int e = faulted(t, "rename", f);
		if (e || rename(f->tmp, f->path)) {
			errno = e ? e : errno;
			failed = f->path;
			goto fail;
		}
		f->renamed = 1;
		free(f->tmp);
		f->tmp = NULL;
	}
	for (i = 0; i < t->n; i++) {
		t->f[i].renamed = 0; /* done: undo() only drops the old copies */
		undo(&t->f[i]);
	}
	if (any)
		sync_dir(t->dir);
	return 0;
fail:;
	int e = errno;
	for (i = 0; i < t->n; i++)
		undo(&t->f[i]);
	if (created == 1)
		rmdir(t->dir);
	sb_add(err, "cannot write ");
	sb_add_escaped(err, failed, strlen(failed));
	sb_printf(err, ": %s", why ? why : strerror(e));
	return -1;
}
