/* ptxas: assemble PTX with `ptxas -v` and read its resource report. */
#include "inspect/inspect.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "inspect/proc.h"
#include "inspect/toolcache.h"

void ins_cubin_free(ins_cubin *c)
{
	free(c->data);
	c->data = NULL;
	c->len = 0;
}

int ins_arch_valid(const char *arch)
{
	if (strncmp(arch, "sm_", 3))
		return 0;
	const char *p = arch + 3;
	int digits = 0;
	while (isdigit((unsigned char)p[digits]))
		digits++;
	if (digits < 2 || digits > 3 || p[0] == '0')
		return 0;
	p += digits;
	return !*p || ((*p == 'a' || *p == 'f') && !p[1]);
}

/* The first occurrence of word in [p, end), or NULL. */
static const char *find_in(const char *p, const char *end, const char *word)
{
	size_t wl = strlen(word);
	for (; p + wl <= end; p++)
		if (!strncmp(p, word, wl))
			return p;
	return NULL;
}

/* The decimal number that ends just before pos (spaces skipped), or -1. */
static long number_ending_at(const char *line, const char *pos)
{
	while (pos > line && pos[-1] == ' ')
		pos--;
	const char *d = pos;
	while (d > line && isdigit((unsigned char)d[-1]))
		d--;
	return d < pos ? strtol(d, NULL, 10) : -1;
}

/* "22 registers": the number before word on the line [line, end), or -1. */
static long number_before(const char *line, const char *end, const char *word)
{
	const char *w = find_in(line, end, word);
	return w ? number_ending_at(line, w) : -1;
}

static void keep_max(unsigned *field, long v)
{
	if (v >= 0 && (unsigned long)v > *field)
		*field = (unsigned)v;
}

/* "... Compiling entry function 'NAME' for 'sm_90'" */
static void entry_name(const char *line, const char *end, ins_res *r)
{
	const char *p = find_in(line, end, "entry function '");
	if (!p)
		return;
	p += strlen("entry function '");
	const char *q = memchr(p, '\'', (size_t)(end - p));
	if (!q)
		return;
	if (r->nfunc++ == 0)
		snprintf(r->function, sizeof r->function, "%.*s", (int)(q - p), p);
}

int ins_ptxas_parse(const char *log, ins_res *r)
{
	memset(r, 0, sizeof *r);
	int have_regs = 0;
	for (const char *p = log; *p;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		entry_name(p, end, r);
		if (find_in(p, end, "Used ") && number_before(p, end, "registers") >= 0) {
			have_regs = 1;
			keep_max(&r->registers, number_before(p, end, "registers"));
			keep_max(&r->barriers, number_before(p, end, "barriers"));
			keep_max(&r->smem_bytes, number_before(p, end, "bytes smem"));
			/* constant banks: "384 bytes cmem[0], 8 bytes cmem[2]" */
			long cmem = 0;
			for (const char *c = p; (c = find_in(c, end, "bytes cmem[")); c++) {
				cmem += number_ending_at(p, c) > 0 ? number_ending_at(p, c) : 0;
				r->have_cmem = 1;
			}
			keep_max(&r->cmem_bytes, cmem);
		}
		keep_max(&r->stack_bytes, number_before(p, end, "bytes stack frame"));
		keep_max(&r->spill_store_bytes, number_before(p, end, "bytes spill stores"));
		keep_max(&r->spill_load_bytes, number_before(p, end, "bytes spill loads"));
		p = nl ? nl + 1 : end;
	}
	return have_regs ? 0 : -1;
}

static int classify_failure(const char *arch, const strbuf *log, char *err, size_t errlen)
{
	const char *t = sb_str(log);
	if (strstr(t, "is not defined for option 'gpu-name'") || strstr(t, "Unsupported gpu architecture")) {
		snprintf(err, errlen, "ptxas does not support --arch %s", arch);
		return INS_EARCH;
	}
	/* first error line, for the one-line reason */
	const char *e = strstr(t, "error");
	if (!e)
		e = strstr(t, "fatal");
	if (!e)
		e = t;
	const char *ls = e;
	while (ls > t && ls[-1] != '\n')
		ls--;
	const char *le = strchr(ls, '\n');
	int n = le ? (int)(le - ls) : (int)strlen(ls);
	snprintf(err, errlen, "%.*s", n > 300 ? 300 : n, ls);
	if (!*err)
		snprintf(err, errlen, "ptxas failed without a message");
	return INS_EASM;
}

/* With $PTXPOSE_TOOL_CACHE: *key for this run (0 when the file cannot be
 * read: no caching), and 1 when the cache holds its result, filled in as
 * ptxas would have. Only for a log that starts empty: an entry is all of it.
 * The key leaves out the input's path, so that the same PTX under another
 * name (a file, a copy, a module sass writes to a temporary file) is
 * assembled once: ptxas's object does not depend on it, and an output that
 * names the path (a warning) is not kept (ins_ptxas). */
static int cached_ptxas(const char *ptxas, const char *in, const char *archopt, uint64_t *key,
			ins_res *res, ins_cubin *cubin, strbuf *log)
{
	size_t srclen;
	char *src;
	if (!ins_tc_dir() || log->len || !(src = fs_read(in, &srclen)))
		return 0;
	const char *parts[] = {"-v", archopt, src};
	size_t lens[] = {3, strlen(archopt) + 1, srclen};
	*key = ins_tc_key(ptxas, parts, lens, 3);
	free(src);
	unsigned char *data;
	size_t len;
	if (!ins_tc_get(*key, log, &data, &len))
		return 0;
	if (ins_ptxas_parse(sb_str(log), res)) { /* not what was kept: run ptxas */
		free(data);
		sb_reset(log);
		memset(res, 0, sizeof *res);
		return 0;
	}
	if (cubin) {
		cubin->data = data;
		cubin->len = len;
	} else {
		free(data);
	}
	return 1;
}

int ins_ptxas(const char *ptxas, const char *path, const char *arch,
	      ins_res *res, ins_cubin *cubin, strbuf *log, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	if (cubin)
		cubin->data = NULL, cubin->len = 0;
	char dir[INS_PATH_MAX], obj[INS_PATH_MAX + 16], in[INS_PATH_MAX + 8], archopt[40];
	if (ins_tmpdir_make(dir, sizeof dir, err, errlen))
		return INS_ETOOL;
	snprintf(obj, sizeof obj, "%s/out.cubin", dir);
	/* a leading '-' would read as an option */
	snprintf(in, sizeof in, "%s%s", path[0] == '-' ? "./" : "", path);
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	char *argv[] = {(char *)ptxas, "-v", archopt, "-o", obj, in, NULL};
	uint64_t key = 0;
	int cached = cached_ptxas(ptxas, in, archopt, &key, res, cubin, log);
	if (cached) {
		ins_tmpdir_remove(dir);
		return INS_OK;
	}
	int rc = ins_proc_run(argv, log, log, err, errlen);
	int st = INS_OK;
	if (rc < 0) {
		st = errno == ENOENT ? INS_ENOTOOL : INS_ETOOL;
	} else if (rc != 0) {
		st = classify_failure(arch, log, err, errlen);
	} else if (ins_ptxas_parse(sb_str(log), res)) {
		snprintf(err, errlen, "ptxas -v printed no 'Used N registers' line");
		st = INS_ETOOL;
	} else if (cubin || key) {
		size_t len;
		/* capped as its printed output is */
		unsigned char *data = (unsigned char *)fs_read_input(obj, INS_TOOL_OUTPUT_MAX, &len, NULL, 0);
		if (!data) {
			snprintf(err, errlen, "ptxas wrote no object: %s",
				 errno == EFBIG ? "more than 64 MiB" : strerror(errno));
			st = INS_ETOOL;
		} else {
			if (key && !strstr(sb_str(log), in))
				ins_tc_put(key, sb_str(log), log->len, data, len);
			if (cubin) {
				cubin->data = data;
				cubin->len = len;
			} else {
				free(data);
			}
		}
	}
	ins_tmpdir_remove(dir);
	return st;
}

int ins_ptxas_text(const char *ptxas, const char *ptx, const char *arch,
		   ins_res *res, ins_cubin *cubin, strbuf *log, char *err, size_t errlen)
{
	char dir[INS_PATH_MAX], path[INS_PATH_MAX + 16];
	if (ins_tmpdir_make(dir, sizeof dir, err, errlen))
		return INS_ETOOL;
	snprintf(path, sizeof path, "%s/input.ptx", dir);
	int st;
	if (fs_write_atomic(path, ptx, strlen(ptx))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		st = INS_ETOOL;
	} else {
		st = ins_ptxas(ptxas, path, arch, res, cubin, log, err, errlen);
	}
	ins_tmpdir_remove(dir);
	return st;
}
