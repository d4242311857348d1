/* emu: load a program (lex, parse, decode) and run a transpose with it. */
#include "emu/emu.h"

#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

int emu_load(const char *ptx, emu_prog **out, strbuf *diag)
{
	*out = NULL;
	emu_tok *toks = emu_lex(ptx, diag);
	if (!toks)
		return EMU_UNSUPPORTED;
	emu_src src;
	memset(&src, 0, sizeof src);
	emu_prog *p = calloc(1, sizeof *p);
	int rc = EMU_UNSUPPORTED;
	if (!p)
		sb_add(diag, "out of memory");
	else if (!emu_parse(toks, &src, diag) && !emu_decode(&src, p, diag))
		rc = EMU_OK;
	emu_src_free(&src);
	free(toks);
	if (rc != EMU_OK) {
		emu_free(p);
		return rc;
	}
	*out = p;
	return EMU_OK;
}

void emu_free(emu_prog *p)
{
	if (!p)
		return;
	free(p->code);
	free(p->init);
	free(p->vars);
	free(p->text);
	free(p->poison);
	free(p);
}

const char *emu_entry(const emu_prog *p) { return p->entry; }

int emu_transpose(const char *ptx, const px_meta *m,
		  const void *in, size_t in_bytes, void *out, size_t out_bytes,
		  uint32_t rows, uint32_t cols, uint32_t ld_in, uint32_t ld_out,
		  strbuf *diag)
{
	emu_launch l = {.in = in, .in_bytes = in_bytes, .out = out, .out_bytes = out_bytes, .rows = rows,
			.cols = cols, .ld_in = ld_in, .ld_out = ld_out, .batch = 1};
	return emu_transpose_launch(ptx, m, &l, diag);
}

int emu_prog_launch(const emu_prog *p, const px_meta *m, emu_launch *l, strbuf *diag)
{
	if (strcmp(p->entry, m->kernel)) {
		sb_printf(diag, "the metadata names kernel %s but the file's entry is %s", m->kernel, p->entry);
		return EMU_UNSUPPORTED;
	}
	char err[256];
	l->dyn_smem = m->dyn_smem;
	memcpy(l->block, m->block, sizeof l->block);
	if (meta_grid_dims(m, l->rows, l->cols, l->batch, l->grid, err, sizeof err)) {
		sb_add(diag, err);
		return EMU_FAULT;
	}
	return emu_run(p, l, diag);
}

int emu_transpose_launch(const char *ptx, const px_meta *m, emu_launch *l, strbuf *diag)
{
	emu_prog *p;
	int rc = emu_load(ptx, &p, diag);
	if (rc != EMU_OK)
		return rc;
	rc = emu_prog_launch(p, m, l, diag);
	emu_free(p);
	return rc;
}
