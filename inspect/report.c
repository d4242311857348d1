/* report: everything `sass` and `list` show about one PTX file. */
#include "inspect/inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"

static int finish(ins_report *r, int st)
{
	r->status = st;
	return st;
}

/* An empty file or one with a NUL byte is no PTX text: say so here rather
 * than pass ptxas's "Ptx assembly aborted". 1 (with err) or 0. */
static int not_text(const char *path, const char *ptx, size_t len, char *err, size_t errlen)
{
	const char *nul = memchr(ptx, '\0', len);
	size_t blank = strspn(ptx, " \t\r\n");
	if (nul)
		snprintf(err, errlen, "%s: a NUL byte at offset %zu: not PTX text", path, (size_t)(nul - ptx));
	else if (blank == len)
		snprintf(err, errlen, "%s: %s: no PTX in it", path, len ? "only blanks" : "an empty file");
	return nul || blank == len;
}

int ins_inspect(const ins_tools *tools, const ins_input *in, const char *arch, ins_report *r)
{
	const char *path = in->path;
	memset(r, 0, sizeof *r);
	sb_init(&r->log);
	sb_init(&r->sass_text);
	sb_init(&r->listing);
	snprintf(r->path, sizeof r->path, "%s", path);
	snprintf(r->arch, sizeof r->arch, "%s", arch);

	size_t len = 0;
	char *ptx = in->ptx ? NULL : fs_read_input(path, FS_INPUT_MAX, &len, r->err, sizeof r->err);
	if (!ptx && !in->ptx)
		return finish(r, INS_EINPUT);
	if (ptx && not_text(path, ptx, len, r->err, sizeof r->err)) {
		free(ptx);
		return finish(r, INS_EINPUT);
	}
	r->have_meta = meta_parse(in->ptx ? in->ptx : ptx, &r->meta, r->meta_err, sizeof r->meta_err) == 0;
	free(ptx);

	if (!tools->ptxas[0])  /* the metadata only (list --no-ptxas) */
		return finish(r, INS_OK);
	ins_cubin cubin = {0}, *want = tools->cuobjdump[0] ? &cubin : NULL;
	int st = in->ptx ? ins_ptxas_text(tools->ptxas, in->ptx, arch, &r->res, want, &r->log, r->err, sizeof r->err)
			 : ins_ptxas(tools->ptxas, path, arch, &r->res, want, &r->log, r->err, sizeof r->err);
	if (st != INS_OK)
		return finish(r, st);
	r->have_res = 1;
	if (tools->cuobjdump[0]) {
		st = ins_cuobjdump(tools->cuobjdump, &cubin, &r->sass_text, r->err, sizeof r->err);
		ins_cubin_free(&cubin);
		if (st != INS_OK)
			return finish(r, st);
		ins_sass_parse(sb_str(&r->sass_text), &r->sass, &r->listing);
		r->have_sass = 1;
		ins_ipb_report(r, in->tile);
	}
	return finish(r, INS_OK);
}

void ins_report_free(ins_report *r)
{
	sb_free(&r->log);
	sb_free(&r->sass_text);
	sb_free(&r->listing);
}
