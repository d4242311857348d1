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

int fstx_commit(fstx *t, strbuf *err)
{
	int created = 0, any = 0, i;
	const char *failed = NULL, *why = NULL;
	fs_file *files = calloc((size_t)t->n + 1, sizeof *files);
	size_t n = 0, bad = 0;
	if (!files) {
		errno = ENOMEM;
		failed = t->dir;
		goto fail;
	}
	for (i = 0; i < t->n; i++) {
		int d = differs(&t->f[i]);
		if (d < 0) {
			failed = t->f[i].path;
			why = d == NOT_REGULAR ? "it is there and is not a regular file" : NULL;
			goto fail;
		}
		if ((t->f[i].changed = d))
			files[n++] = (fs_file){t->f[i].path, t->f[i].data, t->f[i].len};
		any |= d;
	}
	if (any && (created = make_dir(t->dir)) < 0) {
		failed = t->dir;
		why = errno == ENOTDIR ? "it is there and is not a folder" : NULL;
		goto fail;
	}
	/* every changed file or none, by fsio's one mechanism */
	if (n && fs_write_all_hook(files, n, &bad, t->fault, t->ud)) {
		failed = files[bad].path;
		goto fail;
	}
	free(files);
	return 0;
fail:;
	int e = errno;
	if (created == 1)
		rmdir(t->dir);
	sb_add(err, "cannot write ");
	sb_add_esc(err, failed, strlen(failed), NULL);
	sb_printf(err, ": %s", why ? why : strerror(e));
	free(files);
	for (i = 0; i < t->n; i++)
		t->f[i].changed = 0;
	return -1;
}
