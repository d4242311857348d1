/* ipb: instructions per byte moved, a static estimate from the SASS.
 *
 *     instructions x warps a block / bytes a block moves in one pass
 *
 * where one pass is one tile of the block's loop (grid=tile), or per_block
 * elements (grid=linear), read once and written once. Every instruction of
 * the kernel is counted once: our kernels keep vector, element and edge
 * paths inside the tile loop, so for them the figure bounds from above what
 * an interior tile executes (but for the small-dimension kernels' element
 * path of a run, a loop counted once); for a straight-line kernel that moves
 * one tile a block it is what the block executes. */
#include "inspect/inspect.h"

#include <stdio.h>
#include <string.h>

int ins_ipb_of(unsigned instructions, const ins_tile *t, ins_ipb *out)
{
	memset(out, 0, sizeof *out);
	out->tile = *t;
	out->instructions = instructions;
	if (!t->rows || !t->cols || !t->threads || t->threads > 1024 || !t->elem_bits || t->elem_bits % 8) {
		snprintf(out->why, sizeof out->why,
			 "no figure for a %ux%u tile of %u-bit elements and %u threads", t->rows, t->cols,
			 t->elem_bits, t->threads);
		return -1;
	}
	out->warps = (t->threads + 31) / 32;
	out->bytes = 2 * (uint64_t)t->rows * t->cols * (t->elem_bits / 8);
	out->value = (double)instructions * out->warps / (double)out->bytes;
	out->have = 1;
	return 0;
}

void ins_tile_of_meta(const px_meta *m, ins_tile *t, char *source, size_t n)
{
	t->elem_bits = m->elem_bits;
	t->threads = meta_threads(m);
	if (m->grid == META_GRID_LINEAR || m->grid == META_GRID_FLAT) {
		t->rows = 1;
		t->cols = (unsigned)m->per_block;  /* at most 2^30 (meta_parse) */
		snprintf(source, n, "per_block=%u of the metadata", t->cols);
		return;
	}
	t->rows = m->tile_rows;
	t->cols = m->tile_cols;
	const char *kmax = meta_get(m, "kmax");
	if (meta_get(m, "skinny") && kmax)
		snprintf(source, n, "tile=%ux%u of the metadata, a full tile (K = kmax = %s)", t->rows, t->cols, kmax);
	else
		snprintf(source, n, "tile=%ux%u of the metadata", t->rows, t->cols);
}

void ins_ipb_report(ins_report *r, const ins_tile *given)
{
	ins_ipb *x = &r->ipb;
	ins_tile t;
	char source[sizeof x->source];
	if (r->have_meta) {
		ins_tile_of_meta(&r->meta, &t, source, sizeof source);
	} else if (given) {
		t = *given;
		snprintf(source, sizeof source, "--tile %ux%u --elem %u --threads %u", t.rows, t.cols, t.elem_bits,
			 t.threads);
	} else {
		memset(x, 0, sizeof *x);
		x->instructions = r->sass.total;
		snprintf(x->why, sizeof x->why, "no tile: use --tile --elem --threads");
		return;
	}
	ins_ipb_of(r->sass.total, &t, x);
	snprintf(x->source, sizeof x->source, "%s", source);
}
