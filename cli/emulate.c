/* vfy_emu: a transpose verified in the CPU emulator (emu/) on buffers of
 * the exact sizes, with the GPU path's fill, poison and comparison. */
#include "emu/emu.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
	const px_file *f;
	strbuf diag;
	int rc;
} emu_job;

/* PTXPOSE_EMU_STATS=FILE: one line a run appended to FILE, "instructions
 * warp_instructions ctas" (bench/emu_speed.sh counts the work with it). */
static void stats_note(const emu_stats *st)
{
	const char *path = getenv("PTXPOSE_EMU_STATS");
	FILE *fp = path && *path ? fopen(path, "a") : NULL;
	if (!fp)
		return;
	fprintf(fp, "%llu %llu %llu\n", (unsigned long long)st->instructions,
		(unsigned long long)st->warp_instructions, (unsigned long long)st->ctas);
	fclose(fp);
}

static int emu_runner(void *ud, vfy_bufs *b, const px_shape *s)
{
	emu_job *e = ud;
	emu_launch l = {.in = b->in, .in_bytes = b->in_bytes, .out = b->out, .out_bytes = b->out_bytes,
			.rows = (uint32_t)s->rows, .cols = (uint32_t)s->cols, .ld_in = (uint32_t)s->ld_in,
			.ld_out = (uint32_t)s->ld_out, .batch = (uint32_t)s->batch, .stride_in = s->stride_in,
			.stride_out = s->stride_out, .misalign = s->offset * px_shape_elem_bytes(s)};
	emu_stats st = {0};
	l.stats = &st;
	e->rc = emu_transpose_launch(e->f->ptx, &e->f->meta, &l, &e->diag);
	stats_note(&st);
	return e->rc != EMU_OK;
}

px_status vfy_emulate(const px_file *f, const px_shape *s, uint64_t seed, vfy_result *res, int *emu_rc,
		      char *err, size_t errlen)
{
	emu_job e = {.f = f, .rc = EMU_OK};
	sb_init(&e.diag);
	px_status st = vfy_host_case(s, seed, emu_runner, &e, res, err, errlen);
	if (st == PX_EUNAVAIL)
		snprintf(err, errlen, "emulator: %s", sb_str(&e.diag));
	*emu_rc = e.rc;
	sb_free(&e.diag);
	return st;
}
