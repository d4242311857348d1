#include "common/fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(char *err, size_t errlen, const char *fmt, const char *path, const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, path, what);
}

static const char *kind_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a plain file";
}

/* An fd open for reading on a regular file, or -1 with errno and err set.
 * O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever. */
static int open_regular(const char *path, struct stat *st, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		say(err, errlen, "%s: cannot read: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	int e = 0;
	if (fstat(fd, st) != 0) {
		e = errno;
		say(err, errlen, "%s: cannot read: %s", path, strerror(e));
	} else if (!S_ISREG(st->st_mode)) {
		e = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
		say(err, errlen, "%s: not a regular file (%s)", path, kind_name(st->st_mode));
	}
	if (!e)
		return fd;
	close(fd);
	errno = e;
	return -1;
}

static void too_large(const char *path, size_t max, char *err, size_t errlen)
{
	char lim[40];
	if (max >= (1u << 20) && max % (1u << 20) == 0)
		snprintf(lim, sizeof lim, "%zu MiB", max >> 20);
	else
		snprintf(lim, sizeof lim, "%zu bytes", max);
	say(err, errlen, "%s: larger than %s, the most an input file may hold", path, lim);
	errno = EFBIG;
}

char *fs_read_input(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = open_regular(path, &st, err, errlen);
	if (fd < 0)
		return NULL;
	if (st.st_size < 0 || (unsigned long long)st.st_size > max) {
		close(fd);
		too_large(path, max, err, errlen);
		return NULL;
	}
	/* room for the size fstat saw, one byte more to notice growth, and the NUL */
	size_t cap = (size_t)st.st_size + 2, n = 0;
	char *buf = malloc(cap);
	int e = buf ? 0 : ENOMEM;
	while (!e) {
		if (n + 1 == cap) {
			size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			char *p = ncap > cap ? realloc(buf, ncap) : NULL;
			if (!p) {
				e = ncap > cap ? ENOMEM : EFBIG;
				break;
			}
			buf = p;
			cap = ncap;
		}
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			e = errno;
		else if (got == 0)
			break;
		else if ((n += (size_t)got) > max)
			e = EFBIG;
	}
	close(fd);
	if (e) {
		free(buf);
		if (e == EFBIG)
			too_large(path, max, err, errlen);
		else
			say(err, errlen, "%s: cannot read: %s", path, strerror(e));
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *fs_read(const char *path, size_t *len)
{
	return fs_read_input(path, (size_t)1 << 30, len, NULL, 0);
}

/* "dir/.base.WHAT.XXXXXX" beside path: a name mkstemp can fill in, hidden
 * from globs such as *.ptx. */
static char *beside(const char *path, const char *what)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path + 1) : 0, n = strlen(path) + strlen(what) + 16;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%.*s.%s.%s.XXXXXX", (int)dl, path, path + dl, what);
	return p;
}

static int write_fd(int fd, const char *data, size_t len)
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

typedef struct {
	fs_fault_fn fault;
	void *ud;
} hook;

/* A test's simulated failure of `step` on path, as an errno value; 0: none. */
static int faulted(const hook *h, const char *step, const char *path)
{
	return h->fault ? h->fault(h->ud, step, path) : 0;
}

/* A new temporary beside `path` holding data, fsync'd; NULL with errno. */
static char *write_temp(const hook *h, const char *path, const char *data, size_t len)
{
	char *tmp = beside(path, "tmp");
	int fd = tmp ? mkstemp(tmp) : -1;
	if (fd < 0) {
		int e = tmp ? errno : ENOMEM;
		free(tmp);
		errno = e;
		return NULL;
	}
	int err = faulted(h, "write", path);
	if (!err && write_fd(fd, data, len))
		err = errno;
	if (!err && fchmod(fd, 0644) != 0)
		err = errno;
	if (!err && fsync(fd) != 0)
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	if (err) {
		unlink(tmp);
		free(tmp);
		errno = err;
		return NULL;
	}
	return tmp;
}

/* A hard link to the file at path under a fresh name beside it, so that a
 * failed transaction can put it back; NULL when there is no file there, or
 * when the file system makes no hard links (rollback then cannot restore it). */
static char *keep_old(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	char *bak = beside(path, "old");
	int fd = bak ? mkstemp(bak) : -1;
	if (fd >= 0)
		close(fd);
	if (fd < 0 || unlink(bak) != 0 || link(path, bak) != 0) {
		free(bak);
		bak = NULL;
	}
	return bak;
}

/* fsync the folders of the files renamed, each once in a row: the renames
 * are durable once it is done (best effort). */
static void sync_dirs(const fs_file *files, size_t n)
{
	char prev[4096] = "", dir[4096];
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(files[i].path, '/');
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - files[i].path) : 1, slash ? files[i].path : ".");
		if (!dir[0])
			snprintf(dir, sizeof dir, "/");
		if (!strcmp(dir, prev))
			continue;
		snprintf(prev, sizeof prev, "%s", dir);
		int fd = open(dir, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
	}
}

int fs_write_all_hook(const fs_file *files, size_t n, size_t *failed, fs_fault_fn fault, void *ud)
{
	hook h = {fault, ud};
	char **tmp = calloc(n + 1, sizeof *tmp), **bak = calloc(n + 1, sizeof *bak);
	int *had = calloc(n + 1, sizeof *had);
	size_t i = 0, done = 0;
	int err = tmp && bak && had ? 0 : ENOMEM;
	for (; i < n && !err; i++)
		if (!(tmp[i] = write_temp(&h, files[i].path, files[i].data, files[i].len)))
			err = errno;
	if (!err) {
		for (i = 0; i < n && !err; i++) {
			had[i] = fs_exists(files[i].path);
			bak[i] = keep_old(files[i].path);
			int e = faulted(&h, "rename", files[i].path);
			if (e || rename(tmp[i], files[i].path) != 0)
				err = e ? e : errno;
			else
				free(tmp[i]), tmp[i] = NULL, done = i + 1;
		}
	}
	for (size_t j = 0; err && j < done; j++) {
		/* undo: the old file back, or no file where there was none */
		if (bak[j] && rename(bak[j], files[j].path) == 0)
			free(bak[j]), bak[j] = NULL;
		else if (!had[j])
			unlink(files[j].path);
	}
	for (size_t j = 0; j < n && tmp && bak; j++) {
		if (tmp[j])
			unlink(tmp[j]);
		if (bak[j])
			unlink(bak[j]);
		free(tmp[j]);
		free(bak[j]);
	}
	free(tmp);
	free(bak);
	free(had);
	if (!err) {
		sync_dirs(files, n);
		return 0;
	}
	if (failed)
		*failed = i ? i - 1 : 0;
	errno = err;
	return -1;
}

int fs_write_all(const fs_file *files, size_t n, size_t *failed)
{
	return fs_write_all_hook(files, n, failed, NULL, NULL);
}

int fs_write_atomic(const char *path, const char *data, size_t len)
{
	fs_file f = {path, data, len};
	return fs_write_all(&f, 1, NULL);
}

int fs_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int fs_is_generated(const char *path)
{
	struct stat st;
	int fd = open_regular(path, &st, NULL, 0);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	char line[512];
	int found = 0;
	for (int i = 0; i < 5 && fgets(line, sizeof line, f); i++)
		if (strstr(line, FS_GENERATED_MARK)) {
			found = 1;
			break;
		}
	fclose(f);
	return found;
}
