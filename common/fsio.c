#include "common/fsio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fs_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = p;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				int e = errno ? errno : EIO;
				free(buf);
				buf = NULL;
				errno = e;
			}
			break;
		}
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int fs_write_atomic(const char *path, const char *data, size_t len)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return -1;
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", 12);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	int err = 0;
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		off += (size_t)w;
	}
	if (!err && fchmod(fd, 0644) != 0)
		err = errno;
	if (!err && fsync(fd) != 0)
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) != 0)
		err = errno;
	if (err) {
		unlink(tmp);
		free(tmp);
		errno = err;
		return -1;
	}
	free(tmp);
	return 0;
}

int fs_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int fs_is_generated(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
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
