#include "gen/tp_geom.h"

#include <string.h>

#include "gen/tp_tile.h"

const char *const tp_smem_names[] = {"none", "plain", "padded", "swizzle", NULL};

unsigned tp_row_step(const tp_params *p)
{
	unsigned shear = tp_tile_of(p)->shear;
	return shear ? p->tm - shear / (p->elem / 8) : p->tm;
}

static void map_init(tp_map *m, unsigned fast, unsigned nthr, unsigned k, int write_map)
{
	m->fast = fast;
	for (unsigned i = 0; i < k; i++) {
		unsigned along = (i * nthr) % fast, across = (i * nthr) / fast;
		/* read mapping: fast axis = block columns; write: block rows */
		m->dr[i] = write_map ? along : across;
		m->dc[i] = write_map ? across : along;
	}
}

void tp_geom_init(tp_geom *g, const tp_params *p)
{
	const tp_tile *t = tp_tile_of(p);
	memset(g, 0, sizeof *g);
	g->es = p->elem / 8;
	g->v = p->vec;
	g->gbytes = g->es * g->v;
	g->nthr = p->tx * p->ty;
	g->nbr = p->tm / p->vec;
	g->nbc = p->tn / p->vec;
	g->k = g->nbr * g->nbc / g->nthr;
	if (g->k > TP_MAX_K)
		g->k = TP_MAX_K; /* refused by tp_validate before use */
	map_init(&g->rd, g->nbc, g->nthr, g->k, 0);
	map_init(&g->wr, g->nbr, g->nthr, g->k, 1);
	if (t->smem == TP_SMEM_NONE)
		return;
	g->srows = t->major_in ? p->tm : p->tn;
	g->sgran = t->major_in ? g->nbc : g->nbr;
	g->pitch = g->sgran + (t->smem == TP_SMEM_PADDED);
	/* plain keeps the natural row order; padded and swizzled interleave the
	 * v rows of a block so that a warp's v-row stride lands in distinct banks */
	g->permute = t->smem != TP_SMEM_PLAIN && g->v > 1;
	if (t->smem == TP_SMEM_SWIZZLE) {
		if (t->swizzle_mask) {
			g->swz = t->swizzle_mask;
		} else {
			/* one wavefront is 128 bytes: XOR over as many granules */
			unsigned per_wave = 128 / g->gbytes;
			g->swz = (g->sgran < per_wave ? g->sgran : per_wave) - 1;
		}
	}
	g->smem_bytes = g->srows * g->pitch * g->gbytes;
}

void tp_map_block(const tp_geom *g, const tp_map *m, int write_map, unsigned t,
		  unsigned k, unsigned *rb, unsigned *gc)
{
	unsigned along = t % m->fast, across = t / m->fast;
	*rb = (write_map ? along : across) + m->dr[k];
	*gc = (write_map ? across : along) + m->dc[k];
}

unsigned tp_srow(const tp_geom *g, unsigned r)
{
	if (!g->permute)
		return r;
	return (r % g->v) * (g->srows / g->v) + r / g->v;
}

unsigned tp_saddr(const tp_geom *g, unsigned r, unsigned gcol)
{
	unsigned s = tp_srow(g, r);
	return (s * g->pitch + (gcol ^ (((s >> g->swz_shr) << g->swz_shl) & g->swz))) * g->gbytes;
}
