/* nd_pack: the pack kernels' tile for a reduced transpose (lib/nd_pack.h). */
#include "lib/nd_pack.h"

#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(((nd_pack *)0)->ext) / sizeof(uint64_t) == ABI_TDIMS, "ptxpose_tool_pack's tile dims");
_Static_assert(sizeof(((nd_pack *)0)->b_ext) / sizeof(uint64_t) == ABI_BDIMS, "ptxpose_tool_pack's batch dims");

#define PACK_MIN_RUN_BYTES 8   /* the shortest run the targets fall to */
#define PACK_MIN_TILES 1024    /* growth stops before the tiles fall under this */
#define PACK_TILES_MAX 0x7fffffffull

typedef struct {
	unsigned n;
	uint64_t ext[ND_MAX_RANK];
	int64_t s_in[ND_MAX_RANK], s_out[ND_MAX_RANK];
	unsigned in_order[ND_MAX_RANK], out_order[ND_MAX_RANK]; /* fastest first */
} dims;

static void order_by(const int64_t *s, unsigned n, unsigned *o)
{
	for (unsigned i = 0; i < n; i++)
		o[i] = i;
	for (unsigned i = 1; i < n; i++) /* insertion sort, ascending stride; ties keep dim order */
		for (unsigned j = i; j > 0 && s[o[j]] < s[o[j - 1]]; j--) {
			unsigned t = o[j];
			o[j] = o[j - 1], o[j - 1] = t;
		}
}

static void dims_of(const nd_problem *p, dims *d)
{
	d->n = p->rank;
	for (unsigned i = 0; i < p->rank; i++)
		d->ext[i] = p->ext[i], d->s_in[i] = p->s_in[i];
	for (unsigned k = 0; k < p->rank; k++)
		d->s_out[p->perm[k]] = p->s_out[k];
	order_by(d->s_in, d->n, d->in_order);
	order_by(d->s_out, d->n, d->out_order);
}

/* One side: its fastest dims into the tile (t[d] = the tile extent, 0
 * outside) until their product reaches target; the last one split where
 * its extent is over slack times what is still needed. */
static void take(const dims *d, const unsigned *order, uint64_t target, unsigned slack, uint64_t *t)
{
	uint64_t acc = 1;
	for (unsigned j = 0; j < d->n && acc < target; j++) {
		unsigned k = order[j];
		uint64_t e = d->ext[k], need = (target + acc - 1) / acc;
		if (t[k] == e || e <= slack * need) {
			t[k] = e;
			acc *= e;
			continue;
		}
		uint64_t nb = e / need, tt = (e + nb - 1) / nb; /* even tiles: the last one the shortest */
		t[k] = tt > t[k] ? tt : t[k];
		acc *= t[k];
		break;
	}
}

static uint64_t volume(const dims *d, const uint64_t *t)
{
	uint64_t v = 1;
	for (unsigned k = 0; k < d->n; k++)
		v *= t[k] ? t[k] : 1;
	return v;
}

static uint64_t tiles_of(const dims *d, const uint64_t *t)
{
	uint64_t n = 1;
	for (unsigned k = 0; k < d->n && n <= PACK_TILES_MAX; k++)
		n *= t[k] ? (d->ext[k] + t[k] - 1) / t[k] : d->ext[k];
	return n;
}

/* The dims split in the tile. */
static unsigned splits(const dims *d, const uint64_t *t)
{
	unsigned n = 0;
	for (unsigned k = 0; k < d->n; k++)
		n += t[k] && t[k] < d->ext[k];
	return n;
}

/* One side's next dim outside the tile taken whole where the tile still
 * fits cap and the tiles stay plenty, else split to fill cap (a dim not yet
 * split, while fewer than 2 are); 1 if it grew. */
static int grow_side(const dims *d, const unsigned *o, uint64_t cap, uint64_t *t)
{
	unsigned j = 0;
	while (j < d->n && t[o[j]] == d->ext[o[j]])
		j++;
	if (j == d->n)
		return 0;
	unsigned k = o[j];
	uint64_t was = t[k], rest = volume(d, t) / (was ? was : 1), e = d->ext[k];
	t[k] = e;
	if (rest * e <= cap && tiles_of(d, t) >= PACK_MIN_TILES)
		return 1;
	uint64_t fit = cap / rest, nb = fit ? (e + fit - 1) / fit : 0, tt = nb ? (e + nb - 1) / nb : 0;
	t[k] = tt;
	if (!was && tt >= 2 && tt * rest <= cap && splits(d, t) <= 2 && tiles_of(d, t) >= PACK_MIN_TILES)
		return 1;
	t[k] = was;
	return 0;
}

/* Grow each side in turn (grow_side) while the tile fits cap and the tiles
 * stay plenty. */
static void grow(const dims *d, uint64_t cap, uint64_t *t)
{
	for (int grew = 1; grew;)
		grew = grow_side(d, d->in_order, cap, t) | grow_side(d, d->out_order, cap, t);
}

/* Then split dims doubled (the input's first), while the tile fits cap and
 * the tiles stay plenty: longer runs, fewer tiles to walk. */
static void grow_splits(const dims *d, uint64_t cap, uint64_t *t)
{
	for (int grew = 1; grew;) {
		grew = 0;
		for (unsigned j = 0; j < d->n; j++) {
			unsigned k = d->in_order[j];
			if (!t[k] || t[k] == d->ext[k])
				continue;
			uint64_t was = t[k], e = d->ext[k], nb = e / (2 * was);
			t[k] = nb ? (e + nb - 1) / nb : e;
			if (volume(d, t) > cap || tiles_of(d, t) < PACK_MIN_TILES)
				t[k] = was;
			else
				grew = 1;
		}
	}
}

/* Elements of the tile contiguous from its start on one side. */
static unsigned run_of(const dims *d, const unsigned *order, const int64_t *s, const uint64_t *t)
{
	uint64_t run = 1, want = 1;
	for (unsigned j = 0; j < d->n; j++) {
		unsigned k = order[j];
		if (!t[k] || s[k] != (int64_t)want)
			break;
		run *= t[k];
		if (t[k] < d->ext[k])
			break;
		want *= d->ext[k];
	}
	return (unsigned)run;
}

/* At most ABI_TDIMS dims, and offsets below 2^31 bytes on both sides. */
static int fits_records(const dims *d, const uint64_t *t, unsigned es)
{
	uint64_t in = 0, out = 0;
	unsigned n = 0;
	for (unsigned k = 0; k < d->n; k++)
		if (t[k]) {
			n++;
			in += (t[k] - 1) * (uint64_t)d->s_in[k] * es; /* each < 2^63 / 2^15: nd_check's bound */
			out += (t[k] - 1) * (uint64_t)d->s_out[k] * es;
		}
	return n <= ABI_TDIMS && in < (1ull << 31) && out < (1ull << 31);
}

static int refuse(char *why, size_t whylen, const char *fmt, unsigned long long v)
{
	snprintf(why, whylen, fmt, v);
	return -1;
}

static void put(nd_pack *pk, uint64_t ext, uint64_t full, int64_t s_in, int64_t s_out)
{
	pk->ext[pk->n] = ext, pk->full[pk->n] = full;
	pk->s_in[pk->n] = (uint64_t)s_in, pk->s_out[pk->n] = (uint64_t)s_out;
	pk->n++;
}

/* The tile's dims (splits first) and the batch (splits' outer dims last). */
static int fill(const dims *d, const uint64_t *t, unsigned es, nd_pack *pk, char *why, size_t whylen)
{
	memset(pk, 0, sizeof *pk);
	int split[2] = {-1, -1};
	unsigned ns = 0, nt = 0;
	for (unsigned k = 0; k < d->n; k++)
		if (t[k] && t[k] < d->ext[k]) {
			if (ns == 2)
				return refuse(why, whylen, "pack: %llu dims split (at most 2)", 3ull);
			if (d->ext[k] > 0x7fffffffu)
				return refuse(why, whylen, "pack: a split dim of %llu elements (at most 2^31-1)", d->ext[k]);
			split[ns++] = (int)k;
		}
	for (unsigned k = 0; k < d->n; k++)
		nt += t[k] != 0;
	if (nt > ABI_TDIMS)
		return refuse(why, whylen, "pack: a tile of %llu dims (at most 6)", nt);
	uint64_t span_in = 0, span_out = 0;
	for (unsigned s = 0; s < ns; s++) { /* splits first, in order */
		unsigned k = (unsigned)split[s];
		put(pk, t[k], d->ext[k], d->s_in[k], d->s_out[k]);
	}
	for (unsigned k = 0; k < d->n; k++)
		if (t[k] && t[k] == d->ext[k])
			put(pk, t[k], t[k], d->s_in[k], d->s_out[k]);
	for (unsigned j = 0; j < pk->n; j++) {
		span_in += (pk->ext[j] - 1) * pk->s_in[j] * es;
		span_out += (pk->ext[j] - 1) * pk->s_out[j] * es;
		if (span_in >= 1ull << 31 || span_out >= 1ull << 31)
			return refuse(why, whylen, "pack: a tile spanning %llu bytes or more (tile offsets take 31 bits)",
				      1ull << 31);
	}
	if (d->n - nt + ns > ABI_BDIMS)
		return refuse(why, whylen, "pack: a batch of %llu dims (at most 6)", d->n - nt + ns);
	/* the batch: dims outside the tile slowest first (canonical order), then split 1's outer, split 0's */
	for (unsigned k = 0; k < d->n; k++)
		if (!t[k]) {
			pk->b_ext[pk->nbatch] = d->ext[k], pk->b_in[pk->nbatch] = (uint64_t)d->s_in[k];
			pk->b_out[pk->nbatch++] = (uint64_t)d->s_out[k];
		}
	for (int s = (int)ns - 1; s >= 0; s--) {
		unsigned k = (unsigned)split[s];
		pk->b_ext[pk->nbatch] = (d->ext[k] + t[k] - 1) / t[k];
		pk->b_in[pk->nbatch] = t[k] * (uint64_t)d->s_in[k];
		pk->b_out[pk->nbatch++] = t[k] * (uint64_t)d->s_out[k];
	}
	pk->nsplit = ns;
	pk->vol = volume(d, t);
	pk->tiles = tiles_of(d, t);
	if (pk->tiles > PACK_TILES_MAX)
		return refuse(why, whylen, "pack: %llu tiles or more (the kernels walk at most 2^31-1)", PACK_TILES_MAX + 1);
	return 0;
}

int nd_pack_choose(const nd_reduced *r, unsigned cap, nd_pack *pk, char *why, size_t whylen)
{
	if (r->cls == ND_COPY) {
		snprintf(why, whylen, "pack: the problem is a %s", nd_class_name(r->cls));
		return -1;
	}
	dims d;
	dims_of(&r->p, &d);
	unsigned es = r->p.elem_bytes;
	uint64_t t[ND_MAX_RANK], v = 0;
	/* runs of 128 bytes a side, else 64, ... 8; dims taken whole up to twice
	 * what a run needs, else split exactly */
	for (unsigned bytes = ND_PACK_RUN_BYTES; bytes >= PACK_MIN_RUN_BYTES; bytes /= 2) {
		uint64_t target = (bytes + es - 1) / es;
		for (unsigned slack = 2; slack >= 1; slack--) {
			memset(t, 0, sizeof t);
			take(&d, d.in_order, target, slack, t);
			take(&d, d.out_order, target, slack, t);
			if ((v = volume(&d, t)) <= cap && fits_records(&d, t, es))
				goto fits;
		}
	}
	return refuse(why, whylen, "pack: no tile with runs of 8 bytes or more fits: %llu elements (the kernels hold "
				   "2048, offsets below 2^31 bytes, at most 6 dims)", v);
fits:;
	uint64_t t0[ND_MAX_RANK];
	memcpy(t0, t, sizeof t);
	grow(&d, cap, t);
	grow_splits(&d, cap, t);
	if (fill(&d, t, es, pk, why, whylen)) { /* grown past what the records take: the tile as taken */
		memcpy(t, t0, sizeof t);
		if (fill(&d, t, es, pk, why, whylen))
			return -1;
	}
	pk->run_in = run_of(&d, d.in_order, d.s_in, t);
	pk->run_out = run_of(&d, d.out_order, d.s_out, t);
	int n = snprintf(why, whylen, "pack tile");
	for (unsigned j = 0; j < pk->n && n > 0 && (size_t)n < whylen; j++)
		n += snprintf(why + n, whylen - (size_t)n, "%s%llu%s", j ? "x" : " ", (unsigned long long)pk->ext[j],
			      pk->ext[j] < pk->full[j] ? "(split)" : "");
	if (n > 0 && (size_t)n < whylen)
		snprintf(why + n, whylen - (size_t)n, " = %llu of %u, runs %llu B in / %llu B out, %llu tiles",
			 (unsigned long long)pk->vol, cap, (unsigned long long)(pk->run_in * es),
			 (unsigned long long)(pk->run_out * es), (unsigned long long)pk->tiles);
	return 0;
}

int nd_pack_tdims(const nd_pack *pk, unsigned es, uint8_t out[ABI_TDIMS_BYTES], char *err, size_t errlen)
{
	abi_tdim d[ABI_TDIMS];
	if (!pk->n || pk->n > ABI_TDIMS) {
		snprintf(err, errlen, "pack: a tile of %llu dims (1 to %d)", (unsigned long long)pk->n, ABI_TDIMS);
		return -1;
	}
	for (unsigned j = 0; j < pk->n; j++) {
		if (pk->full[j] > UINT32_MAX || pk->s_in[j] > INT64_MAX || pk->s_out[j] > INT64_MAX) {
			snprintf(err, errlen, "pack: tile dim %u of extent %llu, strides %llu and %llu (past the records)", j,
				 (unsigned long long)pk->full[j], (unsigned long long)pk->s_in[j],
				 (unsigned long long)pk->s_out[j]);
			return -1;
		}
		d[j] = (abi_tdim){(uint32_t)pk->ext[j], (uint32_t)pk->full[j], (int64_t)pk->s_in[j], (int64_t)pk->s_out[j]};
	}
	return abi_tdims_fill((unsigned)pk->n, d, es, out, NULL, err, errlen);
}

int nd_pack_preferred(const nd_reduced *r)
{
	if (r->cls == ND_TILED_COPY) /* the row copy's rows: its fastest outer dim */
		return r->nbatch && r->run.ext * r->p.elem_bytes <= ND_PACK_PREFER_RUN_BYTES &&
		       r->batch[r->nbatch - 1].ext <= ND_PACK_PREFER_ROWS;
	return r->nbatch >= 2 && (r->rows < r->cols ? r->rows : r->cols) <= ND_PACK_PREFER_EXT;
}
