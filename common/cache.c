/* cache: where the cache lives, and switching it off when it cannot be used. */
#include "common/cache_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void cache_note(const cache *c, const char *fmt, ...)
{
	if (!c->log)
		return;
	char msg[CACHE_PATH_MAX + 256];
	int n = snprintf(msg, sizeof msg, "cache: ");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	c->log(c->log_ctx, msg);
}

static int open_tmp(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
}

static const cache_io system_io = {open_tmp, write, rename};

/* The folder from the environment into c->dir; 0, or -1 (off) with a
 * reason in why ("" when switched off on purpose). */
static int from_env(cache *c, char *why, size_t n)
{
	const char *v = getenv("PTXPOSE_CACHE");
	why[0] = '\0';
	if (v && *v) {
		if (!strcasecmp(v, "off"))
			return -1;
		if (snprintf(c->dir, sizeof c->dir, "%s", v) < (int)sizeof c->dir)
			return 0;
		snprintf(why, n, "PTXPOSE_CACHE is %zu bytes long, more than a cache folder's path may be (%zu)",
			 strlen(v), sizeof c->dir - 1);
		return -1;
	}
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	int len;
	if (x && x[0] == '/') /* the XDG spec: relative paths are ignored */
		len = snprintf(c->dir, sizeof c->dir, "%s/ptxpose", x);
	else if (h && *h)
		len = snprintf(c->dir, sizeof c->dir, "%s/.cache/ptxpose", h);
	else {
		snprintf(why, n, "no folder for it: neither PTXPOSE_CACHE, XDG_CACHE_HOME nor HOME is set");
		return -1;
	}
	if (len >= (int)sizeof c->dir) {
		snprintf(why, n, "its folder's path is too long");
		return -1;
	}
	return 0;
}

/* mkdir -p, the folders it makes private (0700). */
static int make_dirs(char *path)
{
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char keep = *p;
		*p = '\0';
		int rc = mkdir(path, 0700);
		*p = keep;
		if (rc && errno != EEXIST)
			return -1;
		if (!keep)
			return 0;
	}
}

cache *cache_open(const cache_config *cfg)
{
	cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	atomic_flag_clear(&c->write_noted);
	c->log = cfg->log;
	c->log_ctx = cfg->log_ctx;
	c->io = cfg->io ? *cfg->io : system_io;
	c->max_blob = cfg->max_blob ? cfg->max_blob : CACHE_BLOB_DEFAULT;
	char why[256];
	why[0] = '\0';
	if (cfg->off) {
		c->dir[0] = '\0';
		return c;
	}
	if (cfg->dir ? snprintf(c->dir, sizeof c->dir, "%s", cfg->dir) >= (int)sizeof c->dir
			: from_env(c, why, sizeof why)) {
		if (why[0] || cfg->dir)
			cache_note(c, "off: %s", why[0] ? why : "its folder's path is too long");
		c->dir[0] = '\0';
		return c;
	}
	struct stat st;
	if (!c->dir[0] || make_dirs(c->dir) || stat(c->dir, &st)) {
		cache_note(c, "%s: cannot make the folder (%s); continuing without a cache", c->dir, strerror(errno));
		c->dir[0] = '\0';
	} else if (!S_ISDIR(st.st_mode)) {
		cache_note(c, "%s is not a folder; continuing without a cache", c->dir);
		c->dir[0] = '\0';
	}
	return c;
}

void cache_close(cache *c)
{
	free(c);
}

int cache_enabled(const cache *c)
{
	return c->dir[0] != '\0';
}

const char *cache_dir(const cache *c)
{
	return c->dir;
}
