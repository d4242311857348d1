/* gpu: the GPU path of run, check and bench (gpu.h). */
#include "cli/gpu.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void on_log(void *user, unsigned kind, const char *text)
{
	cli_gpu *g = user;
	if (kind == PTXPOSE_LOG_NOTE)
		cli_log_stderr(NULL, text);
	else
		sb_add(&g->jit, text);
}

static px_status make_handle(cli_gpu *g, char *err, size_t errlen)
{
	ptxpose_status st = ptxpose_create(&g->h, 0);
	unsigned kinds = PTXPOSE_LOG_JIT_ERROR | (g->verbose ? PTXPOSE_LOG_NOTE | PTXPOSE_LOG_JIT_INFO : 0);
	if (!st)
		st = ptxpose_set_log(g->h, on_log, g, kinds);
	ptxpose_device_info dev;
	if (!st && !(st = ptxpose_device_get(g->h, &dev)))
		snprintf(g->device, sizeof g->device, "%s", dev.name);
	return st ? rig_api_fail(st, err, errlen) : PX_OK;
}

px_status cli_gpu_open(cli_gpu *g, int verbose, char *err, size_t errlen)
{
	memset(g, 0, sizeof *g);
	g->verbose = verbose;
	g->log = (px_log){cli_log_stderr, NULL};
	sb_init(&g->jit);
	px_status st = make_handle(g, err, errlen);
	if (!st)
		st = drv_open(&g->drv, g->h, verbose ? &g->log : NULL, err, errlen);
	if (!st)
		st = rig_new(g->drv, &g->rig, err, errlen);
	return st;
}

void cli_gpu_close(cli_gpu *g)
{
	rig_free(g->rig); /* its buffers while the context is current */
	if (g->h)
		ptxpose_destroy(g->h);
	drv_close(g->drv);
	sb_free(&g->jit);
	memset(g, 0, sizeof *g);
}

px_status cli_gpu_reset(cli_gpu *g, char *err, size_t errlen)
{
	/* the handle's modules go first, then the context they lived in */
	ptxpose_destroy(g->h);
	g->h = NULL;
	g->gen++;
	px_status st = drv_reset(g->drv, err, errlen);
	rig_drop(g->rig); /* after the reset: dropped, never freed */
	return st ? st : make_handle(g, err, errlen);
}

px_status cli_gpu_link(cli_gpu *g, const px_file *f, char *err, size_t errlen)
{
	ptxpose_status st = ptxpose_register_ptx(g->h, f->ptx, strlen(f->ptx), NULL);
	/* the smallest problem links the kernel: a JIT error belongs to the file */
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = f->meta.elem_bits / 8;
	if (f->meta.op == META_OP_COPY) { /* a row copy serves tiled copies: 2x2x2, its two outer dims swapped */
		d.rank = 3;
		d.extents[0] = d.extents[1] = d.extents[2] = 2;
		d.perm[0] = 1, d.perm[1] = 0, d.perm[2] = 2;
	} else if (f->meta.grid == META_GRID_PACK) { /* a pack kernel moves N-d tiles: 2x2x2 reversed */
		d.rank = 3;
		d.extents[0] = d.extents[1] = d.extents[2] = 2;
		d.perm[0] = 2, d.perm[1] = 1, d.perm[2] = 0;
	} else {
		d.rows = d.cols = 1;
	}
	d.kernel = f->meta.kernel;
	ptxpose_plan probe = NULL;
	if (!st)
		st = ptxpose_plan_create(g->h, &probe, &d);
	if (probe)
		ptxpose_plan_destroy(probe);
	return st ? rig_api_fail(st, err, errlen) : PX_OK;
}

/* An address's alignment in bytes, up to 256. */
static unsigned align_of(uint64_t p)
{
	unsigned a = 1;
	while (a < 256 && !(p & a))
		a <<= 1;
	return a;
}

px_status cli_gpu_plan(cli_gpu *g, const char *kernel, const rig_shape *s, ptxpose_plan *out, char *err,
		       size_t errlen)
{
	uint64_t in, o;
	rig_ptrs(g->rig, &in, &o);
	ptxpose_desc d = s->p;
	d.align_in = align_of(in);
	d.align_out = align_of(o);
	d.kernel = kernel;
	d.mode = g->plan_mode;
	ptxpose_status st = ptxpose_plan_create(g->h, out, &d);
	return st ? rig_api_fail(st, err, errlen) : PX_OK;
}

const char *cli_gpu_jit(cli_gpu *g)
{
	return sb_str(&g->jit);
}

void cli_gpu_jit_clear(cli_gpu *g)
{
	sb_reset(&g->jit);
}
