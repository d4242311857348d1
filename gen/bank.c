#include "gen/bank.h"

#include <stdio.h>
#include <string.h>

#include "gen/tp_tile.h"

#define NBANKS 32

unsigned bank_wavefronts(const unsigned *addr, unsigned nlanes, unsigned bytes)
{
	/* 1- and 2-byte accesses: lanes in one word share it, like readers of one word */
	unsigned words = bytes < 4 ? 1 : bytes / 4, parts = words, per = NBANKS / parts, total = 0;
	for (unsigned part = 0; part * per < nlanes; part++) {
		/* distinct words seen per bank within this part of the warp */
		unsigned seen[NBANKS][NBANKS];
		unsigned nseen[NBANKS] = {0}, worst = 0;
		for (unsigned l = part * per; l < (part + 1) * per && l < nlanes; l++)
			for (unsigned w = 0; w < words; w++) {
				unsigned word = addr[l] / 4 + w, bank = word % NBANKS, dup = 0;
				for (unsigned i = 0; i < nseen[bank]; i++)
					dup |= seen[bank][i] == word;
				if (!dup && nseen[bank] < NBANKS)
					seen[bank][nseen[bank]++] = word;
				if (nseen[bank] > worst)
					worst = nseen[bank];
			}
		total += worst;
	}
	return total;
}

/* Tile row and granule column of the shared access (block k, slot s) of
 * thread t in phase `load` (0: the stores after the global loads, 1: the
 * loads before the global stores). */
static unsigned access_addr(const tp_params *p, const tp_geom *g, int load,
			    unsigned t, unsigned k, unsigned s)
{
	unsigned rb, gc;
	tp_map_block(g, load ? &g->wr : &g->rd, load, t, k, &rb, &gc);
	if (tp_tile_of(p)->major_in)
		return tp_saddr(g, rb * g->v + s, gc);
	return tp_saddr(g, gc * g->v + s, rb);
}

void bank_model(const tp_params *p, const tp_geom *g, bank_report *r)
{
	memset(r, 0, sizeof *r);
	if (tp_tile_of(p)->smem == TP_SMEM_NONE)
		return;
	for (int load = 0; load < 2; load++) {
		bank_acc *a = &r->acc[r->n++];
		snprintf(a->id, sizeof a->id, "%s", load ? "smem_ld" : "smem_st");
		a->store = !load;
		a->bytes = g->gbytes;
		a->ideal = g->gbytes / 4;
		for (unsigned w = 0; w * 32 < g->nthr; w++)
			for (unsigned k = 0; k < g->k; k++)
				for (unsigned s = 0; s < g->v; s++) {
					unsigned addr[32];
					for (unsigned l = 0; l < 32; l++)
						addr[l] = access_addr(p, g, load, w * 32 + l, k, s);
					unsigned wf = bank_wavefronts(addr, 32, g->gbytes);
					a->requests++;
					a->total += wf;
					if (wf > a->worst)
						a->worst = wf;
				}
	}
}

void bank_pick_swizzle(const tp_params *p, tp_geom *g)
{
	const tp_tile *t = tp_tile_of(p);
	if (t->smem != TP_SMEM_SWIZZLE || t->swizzle_mask)
		return;
	unsigned best = ~0u, bshr = 0, bshl = 0;
	for (unsigned shl = 0; shl < 4; shl++)
		for (unsigned shr = 0; shr < 4; shr++) {
			g->swz_shr = shr, g->swz_shl = shl;
			bank_report r;
			bank_model(p, g, &r);
			unsigned cost = r.acc[0].total + r.acc[1].total;
			if (cost < best)
				best = cost, bshr = shr, bshl = shl;
		}
	g->swz_shr = bshr, g->swz_shl = bshl;
}

void bank_geom(const tp_params *p, tp_geom *g)
{
	tp_geom_init(g, p);
	bank_pick_swizzle(p, g);
}
