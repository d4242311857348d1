/* vfy_emu: a transpose (or an op=copy kernel's row copy) verified in the CPU
 * emulator (emu/) on buffers of the exact sizes, with the GPU path's fill,
 * poison and comparison. */
#include "emu/emu.h"
#include "cli/cli.h"
#include "loader/abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const px_file *f;
	strbuf diag;
	int rc;
	int nd;                 /* an N-d shape: t is the problem the kernel runs */
	ptxpose_tool_problem t;
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

/* The last file's program, decoded once for all its shapes (check runs a
 * file on each shape in turn); keyed by the text itself, not its address. */
static struct {
	char *ptx;
	emu_prog *p;
} cache;

static int run_cached(const px_file *f, emu_launch *l, strbuf *diag)
{
	if (!cache.ptx || strcmp(cache.ptx, f->ptx)) {
		emu_free(cache.p);
		free(cache.ptx);
		cache.p = NULL;
		cache.ptx = NULL;
		emu_prog *p;
		int rc = emu_load(f->ptx, &p, diag);
		if (rc != EMU_OK)
			return rc;
		cache.ptx = strdup(f->ptx);
		if (cache.ptx)
			cache.p = p;
		else
			emu_free(p);
		if (!cache.ptx) /* no room to keep it: load it again next time */
			return emu_transpose_launch(f->ptx, &f->meta, l, diag);
	}
	return emu_prog_launch(cache.p, &f->meta, l, diag);
}

static int emu_runner(void *ud, vfy_bufs *b, const rig_shape *s)
{
	emu_job *e = ud;
	emu_launch l = {.in = b->in, .in_bytes = b->in_bytes, .out = b->out, .out_bytes = b->out_bytes,
			.rows = (uint32_t)s->p.rows, .cols = (uint32_t)s->p.cols, .ld_in = (uint32_t)s->p.ld_in,
			.ld_out = (uint32_t)s->p.ld_out, .batch = (uint32_t)s->p.batch, .stride_in = s->p.stride_in,
			.stride_out = s->p.stride_out, .misalign = s->offset * rig_shape_elem_bytes(s)};
	if (e->nd && e->t.copy_elems) { /* the plan's cuMemcpyDtoDAsync, on the host */
		memcpy(b->out, b->in, e->t.copy_elems * e->t.es);
		return 0;
	}
	abi_args a;
	if (e->nd) { /* the reduced problem's kernel arguments, on the N-d buffers */
		const char *abi = meta_get(&e->f->meta, "abi");
		if (ptxpose_tool_launch_args(&e->t, abi ? atoi(abi) : ABI_VERSION, &a, sizeof a)) {
			sb_printf(&e->diag, "%s", ptxpose_last_error());
			e->rc = EMU_UNSUPPORTED;
			return 1;
		}
		l.rows = a.rows, l.cols = a.cols, l.ld_in = a.ld_in, l.ld_out = a.ld_out, l.batch = a.batch;
		l.stride_in = a.stride_in, l.stride_out = a.stride_out;
		if (e->t.nbd > 1 || !strcmp(abi ? abi : "", "4"))
			l.bdims = a.bdims;
		if (!strcmp(abi ? abi : "", "4"))
			l.tdims = a.tdims;
	}
	emu_stats st = {0};
	l.stats = &st;
	e->rc = run_cached(e->f, &l, &e->diag);
	stats_note(&st);
	return e->rc != EMU_OK;
}

px_status cli_emulate(const px_file *f, const rig_shape *s, uint64_t seed, vfy_result *res, int *emu_rc,
		      char *err, size_t errlen)
{
	emu_job e = {.f = f, .rc = EMU_OK, .nd = s->p.rank > 0};
	px_status st;
	*emu_rc = EMU_UNSUPPORTED; /* a class not emulated yet: exit 3, as plan's */
	if (e.nd && (st = cli_emulate_nd(f, s, &e.t, NULL, 0, err, errlen)))
		return st;
	if (!e.nd && f->meta.grid == META_GRID_PACK) { /* a 2-D shape has no pack tile */
		meta_takes(&f->meta, 0, 0, 0, err, errlen);
		return PX_EUNAVAIL;
	}
	*emu_rc = EMU_OK;
	sb_init(&e.diag);
	/* the metadata says what the kernel computes, so which reference */
	st = f->meta.op == META_OP_COPY && !s->p.rank ? vfy_copy_case(s, seed, emu_runner, &e, res, err, errlen)
						: vfy_host_case(s, seed, emu_runner, &e, res, err, errlen);
	if (st == PX_EUNAVAIL)
		snprintf(err, errlen, "emulator: %s", sb_str(&e.diag));
	*emu_rc = e.rc;
	sb_free(&e.diag);
	return st;
}

px_status cli_emulate_nd(const px_file *f, const rig_shape *s, ptxpose_tool_problem *t, char *why, size_t wlen,
			 char *err, size_t errlen)
{
	px_status st = rig_shape_reduce(s, t, why, wlen, err, errlen);
	if (st)
		return st;
	char pending[256];
	if (f && *rig_kernel_pending(&f->meta, t, pending, sizeof pending)) {
		snprintf(err, errlen, "not emulated: %s", pending);
		return PX_EUNAVAIL;
	}
	if (!t->copy_elems && f && f->meta.elem_bits != t->es * 8) {
		snprintf(err, errlen, "not emulated: the problem reduces to %u-byte elements, %s has elem=%u", t->es,
			 f->meta.kernel, f->meta.elem_bits);
		return PX_EUNAVAIL;
	}
	return PX_OK;
}
