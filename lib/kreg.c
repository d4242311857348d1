/* kreg: the kernel registry (kreg.h): built-ins parsed once a process,
 * $PTXPOSE_PTX, registered texts; a name given again replaces. */
#include "lib/kreg.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fsio.h"
#include "common/strbuf.h"
#include "common/cache.h"
#include "loader/pxfile.h"

struct ptxpose_tool_kernels_s {
	kreg_kernel **k;
	int n, cap;
	kreg_kernel **retired;  /* replaced ones, freed with the registry */
	int nretired;
};

/* ---- one kernel ------------------------------------------------------------ */

static void kernel_free(kreg_kernel *k)
{
	if (!k)
		return;
	free(k->source);
	free(k->file);
	free(k->meta_text);
	free(k->owned);
	free(k);
}

/* A kernel for a checked text: metadata, the model's view, its strings. */
static px_status kernel_make(kreg_kernel **out, const char *name, const char *ptx, size_t len, unsigned regs,
			     uint64_t hash, const char *source, const char *file, char *err, size_t errlen)
{
	*out = NULL;
	kreg_kernel *k = calloc(1, sizeof *k);
	px_file f;
	if (!k) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	px_status st = px_file_parse(&f, name, ptx, len, err, errlen);
	char why[256];
	if (!st && model_kernel_init(&k->mk, &f.meta, regs, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", name, why);
		st = PX_EINPUT;
	}
	strbuf meta;
	sb_init(&meta);
	for (int i = 0; !st && i < f.meta.nkv; i++)
		sb_printf(&meta, "%s%s=%s", i ? " " : "", f.meta.key[i], f.meta.val[i]);
	if (!st && (!(k->source = strdup(source)) || !(k->file = strdup(file)) ||
		    !(k->meta_text = strdup(sb_str(&meta))) || meta.oom)) {
		snprintf(err, errlen, "out of memory");
		st = PX_ENOMEM;
	}
	sb_free(&meta);
	if (st) {
		kernel_free(k);
		return st;
	}
	k->meta = f.meta;
	k->ptx = ptx;
	k->len = len;
	k->regs = regs;
	k->hash = hash ? hash : cache_hash(CACHE_HASH_INIT, ptx, len);
	*out = k;
	return PX_OK;
}

/* ---- the built-ins, once a process -------------------------------------------- */

static struct {
	pthread_once_t once;
	kreg_kernel **k;
	px_status st;
	char err[512];
} builtins = {.once = PTHREAD_ONCE_INIT};

static void parse_builtins(void)
{
	if (!(builtins.k = calloc(kreg_nbuiltins + 1, sizeof *builtins.k))) {
		builtins.st = PX_ENOMEM;
		snprintf(builtins.err, sizeof builtins.err, "out of memory");
		return;
	}
	for (size_t i = 0; i < kreg_nbuiltins && !builtins.st; i++) {
		const kreg_builtin *b = &kreg_builtins[i];
		char name[300];
		snprintf(name, sizeof name, "built-in %s", b->file);
		builtins.st = kernel_make(&builtins.k[i], name, b->ptx, b->len, b->regs, b->hash, "built in", b->file,
					  builtins.err, sizeof builtins.err);
		if (!builtins.st)
			builtins.k[i]->shared = 1;
	}
}

/* ---- the registry ------------------------------------------------------------- */

px_status kreg_new(kreg **out, char *err, size_t errlen)
{
	if (!(*out = calloc(1, sizeof **out))) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	return PX_OK;
}

static int is_builtin(const kreg_kernel *k)
{
	return k->shared;
}

void kreg_free(kreg *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->n; i++)
		if (!is_builtin(r->k[i]))
			kernel_free(r->k[i]);
	for (int i = 0; i < r->nretired; i++)
		if (!is_builtin(r->retired[i]))
			kernel_free(r->retired[i]);
	free(r->k);
	free(r->retired);
	free(r);
}

int kreg_count(const kreg *r) { return r->n; }
const kreg_kernel *kreg_get(const kreg *r, int i) { return r->k[i]; }

px_status kreg_set_regs(kreg *r, int i, unsigned regs)
{
	kreg_kernel *k = r->k[i];
	if (k->shared) { /* this registry's own copy; the text stays the built-in one */
		kreg_kernel *c = malloc(sizeof *c);
		if (!c)
			return PX_ENOMEM;
		*c = *k;
		c->shared = 0;
		c->source = strdup(k->source), c->file = strdup(k->file), c->meta_text = strdup(k->meta_text);
		if (!c->source || !c->file || !c->meta_text) {
			kernel_free(c);
			return PX_ENOMEM;
		}
		r->k[i] = k = c;
	}
	k->regs = k->mk.regs = regs;
	k->mk.regs_known = 1;
	return PX_OK;
}

uint64_t kreg_set_hash(const kreg *r)
{
	uint64_t h = CACHE_HASH_INIT;
	for (int i = 0; i < r->n; i++)
		h = cache_hash(h, &r->k[i]->hash, sizeof r->k[i]->hash);
	return h;
}

int kreg_find(const kreg *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->k[i]->meta.kernel, name))
			return i;
	return -1;
}

/* Add k (the registry takes it), replacing a kernel of the same name. */
static px_status put(kreg *r, kreg_kernel *k, int *index, char *err, size_t errlen)
{
	int at = kreg_find(r, k->meta.kernel);
	if (at >= 0) {
		kreg_kernel **p = realloc(r->retired, (size_t)(r->nretired + 1) * sizeof *p);
		if (!p)
			goto oom;
		r->retired = p;
		r->retired[r->nretired++] = r->k[at];
		r->k[at] = k;
	} else {
		if (r->n == r->cap) {
			int cap = r->cap ? 2 * r->cap : 64;
			kreg_kernel **p = realloc(r->k, (size_t)cap * sizeof *p);
			if (!p)
				goto oom;
			r->k = p;
			r->cap = cap;
		}
		at = r->n++;
		r->k[at] = k;
	}
	if (index)
		*index = at;
	return PX_OK;
oom:
	if (!is_builtin(k))
		kernel_free(k);
	snprintf(err, errlen, "out of memory");
	return PX_ENOMEM;
}

px_status kreg_add_builtins(kreg *r, char *err, size_t errlen)
{
	pthread_once(&builtins.once, parse_builtins);
	if (builtins.st) {
		snprintf(err, errlen, "%s", builtins.err);
		return builtins.st;
	}
	px_status st = PX_OK;
	for (size_t i = 0; i < kreg_nbuiltins && !st; i++)
		st = put(r, builtins.k[i], NULL, err, errlen);
	return st;
}

/* The text copied; file: where it came from ("" for registered text). */
static px_status add_text(kreg *r, const char *name, const char *ptx, size_t len, const char *source,
			  const char *file, int *index, char *err, size_t errlen)
{
	char *copy = malloc(len + 1);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	memcpy(copy, ptx, len);
	copy[len] = '\0';
	kreg_kernel *k;
	px_status st = kernel_make(&k, name, copy, len, 0, 0, source, file, err, errlen);
	if (st) {
		free(copy);
		return st;
	}
	k->owned = copy;
	return put(r, k, index, err, errlen);
}

px_status kreg_add_text(kreg *r, const char *name, const char *ptx, size_t len, const char *source,
			int *index, char *err, size_t errlen)
{
	return add_text(r, name, ptx, len, source, "", index, err, errlen);
}

static px_status add_file(kreg *r, const char *path, const char *how, char *err, size_t errlen)
{
	size_t len;
	char *text = fs_read_input(path, FS_INPUT_MAX, &len, err, errlen);
	if (!text)
		return PX_EINPUT;
	strbuf src;
	sb_init(&src);
	sb_printf(&src, "%s%s%s", how ? how : "", how ? ": " : "", path);
	px_status st = add_text(r, path, text, len, sb_str(&src), path, NULL, err, errlen);
	sb_free(&src);
	free(text);
	return st;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* The *.ptx of a folder, sorted, each added. */
static px_status add_dir(kreg *r, const char *dir, const char *how, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot read the folder", dir);
		return PX_EINPUT;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	px_status st = PX_OK;
	for (struct dirent *e; !st && (e = readdir(d));) {
		if (e->d_name[0] == '.' || !ends_with(e->d_name, ".ptx"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			char **p = realloc(names, cap * sizeof *p);
			if (!p) {
				st = PX_ENOMEM;
				break;
			}
			names = p;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len)))
			st = PX_ENOMEM;
		else
			snprintf(names[n++], len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
	}
	closedir(d);
	if (st)
		snprintf(err, errlen, "out of memory");
	else if (!n)
		snprintf(err, errlen, "%s: no .ptx files", dir), st = PX_EINPUT;
	if (!st)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n && !st; i++)
		st = add_file(r, names[i], how, err, errlen);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return st;
}

px_status kreg_add_path(kreg *r, const char *path, const char *how, char *err, size_t errlen)
{
	struct stat st;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return add_dir(r, path, how, err, errlen);
	return add_file(r, path, how, err, errlen);
}

px_status kreg_add_env(kreg *r, char *err, size_t errlen)
{
	const char *v = getenv("PTXPOSE_PTX");
	if (!v || !*v)
		return PX_OK;
	char *list = strdup(v), *save = NULL;
	if (!list) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	px_status st = PX_OK;
	char why[1024];
	for (char *p = strtok_r(list, ":", &save); p && !st; p = strtok_r(NULL, ":", &save))
		if ((st = kreg_add_path(r, p, "PTXPOSE_PTX", why, sizeof why)))
			snprintf(err, errlen, "PTXPOSE_PTX: %s", why);
	free(list);
	return st;
}
