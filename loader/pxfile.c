/* pxfile: a ptxpose PTX file: its text, its metadata, and the cross-checks
 * between the metadata and the PTX that it describes. */
#include "loader/pxfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "loader/abi.h"

/* The next non-comment line's directive `dir` (".entry"): a pointer just
 * past it, or NULL. *from advances past the line. */
static const char *find_directive(const char **from, const char *dir)
{
	size_t dl = strlen(dir);
	for (const char *p = *from; *p;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		*from = nl ? nl + 1 : end;
		if (end - q < 2 || q[0] != '/' || q[1] != '/') {
			for (; q + dl <= end; q++)
				if (!strncmp(q, dir, dl) && (q == p || q[-1] == ' ' || q[-1] == '\t') &&
				    (q + dl == end || q[dl] == ' ' || q[dl] == '\t'))
					return q + dl;
		}
		p = *from;
	}
	return NULL;
}

static size_t ident_len(const char *p)
{
	size_t n = 0;
	while (p[n] && !strchr(" \t\r\n(", p[n]))
		n++;
	return n;
}

/* The bytes of each parameter of the list that starts at p (after the
 * entry's name): a scalar's width, an array's size. The count, or -1 when
 * the list cannot be read so. */
static int param_bytes(const char *p, unsigned *bytes, int max)
{
	static const struct { const char *w; unsigned b; } types[] = {
		{".u64", 8}, {".s64", 8}, {".b64", 8}, {".u32", 4}, {".s32", 4}, {".b32", 4}, {".b8", 1}, {".u8", 1},
	};
	p += strspn(p, " \t\r\n");
	if (*p++ != '(')
		return -1;
	int n = 0;
	for (;;) {
		size_t len = strcspn(p, ",)");
		if (!p[len] || n == max)
			return -1;
		unsigned b = 0;
		/* the type within this parameter's text alone: a search of the rest
		 * of the file (strstr) reads far past it, and under ASan measures
		 * the whole file first at every call */
		for (size_t t = 0; t < sizeof types / sizeof types[0] && !b; t++) {
			size_t wl = strlen(types[t].w);
			for (size_t k = 0; k + wl <= len && !b; k++)
				if (!memcmp(p + k, types[t].w, wl) && strchr(" \t\r\n[", p[k + wl]))
					b = types[t].b;
		}
		const char *br = memchr(p, '[', len);
		if (br)
			b *= (unsigned)strtoul(br + 1, NULL, 10);
		if (!b)
			return -1;
		bytes[n++] = b;
		if (p[len] == ')')
			return n;
		p += len + 1;
	}
}

/* An abi=3 or abi=4 file's entry takes that kernel ABI's parameters
 * (loader/abi.h); `params` points past the entry's name. */
static px_status check_params(const px_file *f, const char *params, char *err, size_t errlen)
{
	const char *v = meta_get(&f->meta, "abi");
	int version = !v ? 0 : !strcmp(v, "3") ? ABI_VERSION_V3 : !strcmp(v, "4") ? ABI_VERSION_V4 : 0;
	if (!version)
		return PX_OK;
	int want = abi_nparams(version);
	unsigned bytes[ABI_NPARAMS_V4 + 1];
	int n = param_bytes(params, bytes, ABI_NPARAMS_V4 + 1), ok = n == want;
	for (int k = 0; ok && k < n; k++)
		ok = bytes[k] == abi_bytes[k];
	if (ok)
		return PX_OK;
	char list[384];
	snprintf(err, errlen, "%s: metadata says abi=%d but the parameters of %s are not kernel ABI v%d's %s", f->path,
		 version, f->meta.kernel, version, abi_describe(version, list, sizeof list));
	return PX_EINPUT;
}

static px_status check_entry(const px_file *f, char *err, size_t errlen)
{
	const char *from = f->ptx, *p, *other = NULL;
	size_t other_len = 0, kl = strlen(f->meta.kernel);
	while ((p = find_directive(&from, ".entry"))) {
		p += strspn(p, " \t");
		size_t n = ident_len(p);
		if (n == kl && !strncmp(p, f->meta.kernel, kl))
			return check_params(f, p + n, err, errlen);
		if (!other)
			other = p, other_len = n;
	}
	if (other)
		snprintf(err, errlen, "%s: metadata says kernel=%s but the .entry is %.*s", f->path,
			 f->meta.kernel, (int)(other_len < 128 ? other_len : 128), other);
	else
		snprintf(err, errlen, "%s: metadata says kernel=%s but the file has no .entry", f->path, f->meta.kernel);
	return PX_EINPUT;
}

/* Kernel ABI 2, 3 and 4 (docs/DESIGN.md) are the ones the library and the
 * emulator launch; a file without abi= was written for ABI 1 (six
 * parameters). */
static px_status check_abi(const px_file *f, char *err, size_t errlen)
{
	const char *v = meta_get(&f->meta, "abi");
	if (v && (!strcmp(v, "2") || !strcmp(v, "3") || !strcmp(v, "4")))
		return PX_OK;
	if (!v)
		snprintf(err, errlen, "%s: kernel ABI 1; regenerate it with ptxpose gen", f->path);
	else
		snprintf(err, errlen, "%s: kernel ABI %.20s is not one this ptxpose launches (ABI 2, 3 or 4)", f->path, v);
	return PX_EINPUT;
}

static px_status check_reqntid(const px_file *f, char *err, size_t errlen)
{
	const char *from = f->ptx, *p = find_directive(&from, ".reqntid");
	if (!p)
		return PX_OK;
	unsigned d[3] = {1, 1, 1};
	for (int k = 0; k < 3; k++) {
		p += strspn(p, " \t");
		uint64_t v = 0;
		int n = 0;
		for (; p[n] >= '0' && p[n] <= '9' && v <= 1024; n++)
			v = v * 10 + (uint64_t)(p[n] - '0');
		if (!n || v == 0 || v > 1024) {
			size_t shown = strcspn(p, "\r\n");
			snprintf(err, errlen, "%s: .reqntid needs one to three counts from 1 to 1024, got '%.*s'", f->path,
				 (int)(shown < 40 ? shown : 40), p);
			return PX_EINPUT;
		}
		d[k] = (unsigned)v;
		p += n + strspn(p + n, " \t");
		if (*p != ',')
			break;
		p++;
	}
	const unsigned *b = f->meta.block;
	if (d[0] == b[0] && d[1] == b[1] && d[2] == b[2])
		return PX_OK;
	snprintf(err, errlen, "%s: metadata says block=%ux%ux%u but the PTX has .reqntid %u, %u, %u",
		 f->path, b[0], b[1], b[2], d[0], d[1], d[2]);
	return PX_EINPUT;
}

px_status px_file_parse(px_file *f, const char *name, const char *ptx, size_t len, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	f->path = name;
	f->ptx = (char *)ptx; /* the caller's: px_file_free frees it only where the caller owns it */
	if (strlen(ptx) != len) {
		snprintf(err, errlen, "%s: a NUL byte at offset %zu: PTX is text", name, strlen(ptx));
		return PX_EINPUT;
	}
	char why[256];
	px_status st = PX_OK;
	if (meta_parse(f->ptx, &f->meta, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s", name, why);
		st = PX_EINPUT;
	}
	if (!st)
		st = check_abi(f, err, errlen);
	if (!st)
		st = check_entry(f, err, errlen);
	if (!st)
		st = check_reqntid(f, err, errlen);
	return st;
}

px_status px_file_load(px_file *f, const char *path, char *err, size_t errlen)
{
	size_t len;
	char *ptx = fs_read_input(path, FS_INPUT_MAX, &len, err, errlen);
	memset(f, 0, sizeof *f);
	if (!ptx)
		return PX_EINPUT;
	px_status st = px_file_parse(f, path, ptx, len, err, errlen);
	if (st)
		px_file_free(f);
	return st;
}

void px_file_free(px_file *f)
{
	free(f->ptx);
	f->ptx = NULL;
}
