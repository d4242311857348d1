/* cuobjdump: disassemble a cubin held in memory. */
#include "inspect/inspect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fsio.h"
#include "inspect/proc.h"
#include "inspect/toolcache.h"

/* The first line of text, trimmed, for a one-line reason. */
static void first_line(const char *text, char *err, size_t errlen, const char *prefix)
{
	while (*text == '\n' || *text == ' ')
		text++;
	int n = (int)strcspn(text, "\n");
	snprintf(err, errlen, "%s%.*s", prefix, n > 300 ? 300 : n, text);
}

int ins_cuobjdump(const char *cuobjdump, const ins_cubin *cubin, strbuf *out,
		  char *err, size_t errlen)
{
	/* $PTXPOSE_TOOL_CACHE: the listing of the same object by the same tool */
	uint64_t key = 0;
	if (ins_tc_dir() && !out->len) {
		const char *parts[] = {"-sass", (const char *)cubin->data};
		size_t lens[] = {6, cubin->len};
		key = ins_tc_key(cuobjdump, parts, lens, 2);
		if (ins_tc_get(key, out, NULL, NULL))
			return INS_OK;
	}
	char dir[INS_PATH_MAX], obj[INS_PATH_MAX + 16];
	if (ins_tmpdir_make(dir, sizeof dir, err, errlen))
		return INS_ETOOL;
	snprintf(obj, sizeof obj, "%s/in.cubin", dir);
	int st = INS_OK;
	strbuf eb;
	sb_init(&eb);
	if (fs_write_atomic(obj, (const char *)cubin->data, cubin->len)) {
		snprintf(err, errlen, "cannot write %s: %s", obj, strerror(errno));
		st = INS_ETOOL;
	} else {
		char *argv[] = {(char *)cuobjdump, "-sass", obj, NULL};
		int rc = ins_proc_run(argv, out, &eb, err, errlen);
		if (rc < 0) {
			st = errno == ENOENT ? INS_ENOTOOL : INS_ETOOL;
		} else if (strstr(sb_str(&eb), "'nvdisasm'")) {
			/* CUDA 13's cuobjdump runs nvdisasm from its own folder or PATH */
			snprintf(err, errlen, "cuobjdump (%s) cannot find nvdisasm; install both with: %s",
				 cuobjdump, INS_CUOBJDUMP_INSTALL);
			st = INS_ENOTOOL;
		} else if (rc != 0) {
			first_line(sb_str(&eb), err, errlen, "cuobjdump failed: ");
			st = INS_ETOOL;
		} else if (!strstr(sb_str(out), "Function : ")) {
			snprintf(err, errlen, "cuobjdump -sass printed no function");
			st = INS_ETOOL;
		} else if (key) {
			ins_tc_put(key, sb_str(out), out->len, NULL, 0);
		}
	}
	sb_free(&eb);
	ins_tmpdir_remove(dir);
	return st;
}
