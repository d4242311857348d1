/* model_feat: the features of one launch, from the kernel's tiles and the
 * problem's shape and alignment.
 *
 * Bytes are counted in whole 32-byte sectors: a tile reads segments of
 * input rows (TN elements each) and writes segments of output rows (TM
 * elements each); a segment starting s bytes into a sector touches
 * ceil((s + len) / 32) sectors. Where segments start, modulo 32, follows
 * from the pointers' alignment, the row pitches, the tile width and the
 * batch stride; the model averages over that distribution. */
#include "lib/model.h"

#include <math.h>
#include <string.h>

/* ---- sectors -------------------------------------------------------------- */

/* Where segments start, in bytes modulo 32, as a distribution. */
typedef struct {
	double h[32];
} resid;

/* The segments at at + k * step for k < count, each equally likely. The
 * residues repeat with a period dividing 32, so 32 terms are enough. */
static void spread(resid *r, uint64_t step, uint64_t count)
{
	unsigned s32 = (unsigned)(step % 32), m = count < 32 ? (unsigned)count : 32;
	if (m <= 1 || !s32)
		return;
	double nh[32] = {0};
	for (unsigned s = 0; s < 32; s++)
		if (r->h[s] > 0)
			for (unsigned k = 0; k < m; k++)
				nh[(s + k * s32) % 32] += r->h[s] / m;
	memcpy(r->h, nh, sizeof nh);
}

/* One side of memory: the input (segments along input rows, one per tile
 * column) or the output (along output rows, one per tile row). */
typedef struct {
	unsigned base;        /* the pointer's offset into its sector */
	uint64_t row_step;    /* bytes between rows (the pitch) */
	uint64_t tile_step;   /* bytes between a row's segments (the tile's extent) */
	uint64_t mat_step;    /* bytes between matrices */
	uint64_t nmat;
} side;

/* Sector bytes of nrows x ntiles segments of len bytes, the first at row
 * row0, segment tile0, over every matrix. */
static double seg_bytes(const side *sd, uint64_t row0, uint64_t nrows, uint64_t tile0, uint64_t ntiles,
			uint64_t len)
{
	if (!nrows || !ntiles || !len)
		return 0;
	resid r = {{0}};
	uint64_t at = sd->base + (row0 % 32) * (sd->row_step % 32) + (tile0 % 32) * (sd->tile_step % 32);
	r.h[at % 32] = 1;
	spread(&r, sd->row_step, nrows);
	spread(&r, sd->tile_step, ntiles);
	spread(&r, sd->mat_step, sd->nmat);
	double sectors = 0;
	for (unsigned s = 0; s < 32; s++)
		sectors += r.h[s] * (double)((s + len + 31) / 32);
	return 32.0 * sectors * (double)nrows * (double)ntiles * (double)sd->nmat;
}

/* Read and write sector bytes of the input region rows [r0, r0+nr) x
 * columns [c0, c0+nc), c0 and r0 on tile boundaries: the read side cut
 * into segments at tile columns, the write side at tile rows. */
static void region(const side *in, const side *out, const model_kernel *k, uint64_t r0, uint64_t nr,
		   uint64_t c0, uint64_t nc, double *rd, double *wr)
{
	*rd = seg_bytes(in, r0, nr, c0 / k->tn, nc / k->tn, (uint64_t)k->tn * k->es) +
	      seg_bytes(in, r0, nr, c0 / k->tn + nc / k->tn, 1, nc % k->tn * k->es);
	*wr = seg_bytes(out, c0, nc, r0 / k->tm, nr / k->tm, (uint64_t)k->tm * k->es) +
	      seg_bytes(out, c0, nc, r0 / k->tm + nr / k->tm, 1, nr % k->tm * k->es);
}

/* ---- paths ---------------------------------------------------------------- */

static unsigned sector_offset(unsigned align)
{
	return align < 32 ? align : 0; /* the least aligned address of that alignment */
}

/* The share of matrices whose pointers (and pitches) suit the vector path. */
static double fast_share(const model_kernel *k, const model_problem *p)
{
	unsigned a = k->fast_align;
	/* a side the vector path needs packed (a contiguous run, fast_needs=)
	 * has no row pitch to align: the run starts on a granule of its tile */
	if (!a || (!k->fast_packed_in && (p->ld_in * p->es) % a) || (!k->fast_packed_out && (p->ld_out * p->es) % a))
		return 0;
	if ((k->fast_packed_in && p->ld_in != p->cols) || (k->fast_packed_out && p->ld_out != p->rows))
		return 0;
	uint64_t pin = p->align_in >= a ? 0 : p->align_in, pout = p->align_out >= a ? 0 : p->align_out;
	uint64_t n = p->batch < a ? p->batch : a, hits = 0;
	for (uint64_t b = 0; b < n; b++)
		hits += (pin + b * (p->stride_in % a) * p->es) % a == 0 &&
			(pout + b * (p->stride_out % a) * p->es) % a == 0;
	return (double)hits / (double)n;
}

static uint64_t cdiv(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* The input and output sides of problem p under the tiles of kernel k. */
static void sides(const model_kernel *k, const model_problem *p, side *in, side *out)
{
	uint64_t nmat = p->batch < 32 ? p->batch : 32;
	*in = (side){sector_offset(p->align_in), p->ld_in * p->es, (uint64_t)k->tn * k->es,
		     p->stride_in * p->es, nmat};
	*out = (side){sector_offset(p->align_out), p->ld_out * p->es, (uint64_t)k->tm * k->es,
		      p->stride_out * p->es, nmat};
}

/* The distinct bytes of one side in sectors: each row's sectors, or its
 * pitch where rows closer than a sector share them; all matrices. */
static double unique_bytes(const side *sd, uint64_t rows, uint64_t row_len, uint64_t batch)
{
	double per_row = seg_bytes(sd, 0, rows, 0, 1, row_len) / (double)rows / (double)sd->nmat;
	double pitch = (double)sd->row_step;
	return (per_row < pitch ? per_row : pitch) * (double)rows * (double)batch;
}

static void tile_paths(const model_kernel *k, const model_problem *p, model_features *f)
{
	side in, out;
	sides(k, p, &in, &out);
	uint64_t R = p->rows, C = p->cols, B = p->batch;
	/* interior rows and columns: the full tiles, or everything where the
	 * kernel takes partial tiles on its interior path (edge=) */
	uint64_t ir = k->edge_rows ? R / k->tm * k->tm : R, ic = k->edge_cols ? C / k->tn * k->tn : C;
	/* interior tile rows; a sheared kernel's (gen/tp_shear.c) start every
	 * step rows, each tm rows long, so the interior ends at the last of
	 * them that fits */
	int sheared = k->step < k->tm;
	uint64_t tr = cdiv(ir, k->tm);
	if (sheared && k->edge_rows) {
		tr = R >= k->tm ? (R - k->tm) / k->step + 1 : 0;
		ir = tr ? (tr - 1) * k->step + k->tm : 0;
	}
	double scale = (double)B / (double)in.nmat;
	double rd, wr, rd2, wr2;
	region(&in, &out, k, 0, ir, 0, ic, &rd, &wr);
	rd *= scale, wr *= scale;
	f->fast_share = fast_share(k, p);
	f->path_bytes[MODEL_VEC] = f->fast_share * (rd + wr);
	/* misaligned interior tiles: realigned words except on the first and
	 * last tile rows (their loads would read past the matrix): the last
	 * interior one when it ends on the matrix's last row */
	int last_ends = sheared ? tr && (tr - 1) * k->step + k->tm == R : ir == R;
	uint64_t re = tr > 1 ? tr - 1 - (uint64_t)last_ends : 0;
	double slow = 1 - f->fast_share, re_share = tr ? (double)re / (double)tr : 0;
	double ld_re = k->realign_ld ? rd * re_share : 0, st_re = k->realign_st ? wr : 0;
	double ov = 1, wr_slow = wr;
	if (sheared && ir) {
		/* tile rows overlap: tm rows read and (aligned or edge tiles)
		 * written every step rows; off alignment each output row's
		 * interior goes out in aligned windows, whole sectors but for its
		 * two ends */
		ov = (double)tr * k->tm / (double)ir;
		wr_slow = 32.0 * (double)(cdiv(ir * k->es, 32) + 1) * (double)ic * (double)B;
		st_re = k->realign_st ? wr_slow : 0;
		f->path_bytes[MODEL_VEC] *= ov;
	}
	f->path_bytes[MODEL_REALIGN] = slow * (ld_re * ov + st_re);
	f->path_bytes[MODEL_ELEM] = slow * ((rd - ld_re) * ov + wr_slow - st_re);
	region(&in, &out, k, 0, ir, ic, C - ic, &rd, &wr);
	region(&in, &out, k, ir, R - ir, 0, C, &rd2, &wr2);
	f->path_bytes[MODEL_EDGE] = scale * (rd + wr + rd2 + wr2) * ov;
	f->tiles = (double)cdiv(R, k->step) * (double)cdiv(C, k->tn) * (double)B;
	f->interior = (double)tr * (double)cdiv(ic, k->tn) * (double)B;
	f->edge = f->tiles - f->interior;
	f->slots = f->edge * k->tm * k->tn;
}

/* grid=linear: one element per thread along input rows; the reads are
 * coalesced rows. A warp's 32 writes land in min(32, cols) output rows,
 * runs of 32 / cols elements where cols < 32, so a write costs es + (32 -
 * es) / run bytes of sectors (32 for a lone element), or the pitch where
 * output rows are closer than a sector. */
static void linear_paths(const model_kernel *k, const model_problem *p, model_features *f)
{
	side in, out;
	sides(k, p, &in, &out);
	double scale = (double)p->batch / (double)in.nmat;
	double rd = scale * seg_bytes(&in, 0, p->rows, 0, 1, p->cols * p->es);
	double run = p->cols < 32 ? 32.0 / (double)p->cols : 1, pitch = (double)(p->ld_out * p->es);
	double per = p->es + (32.0 - p->es) / run;
	double wr = (double)p->rows * (double)p->cols * (double)p->batch * (pitch < per ? pitch : per);
	f->path_bytes[MODEL_ELEM] = rd + wr;
	f->tiles = f->interior = (double)cdiv(p->rows * p->cols, k->per_block) * (double)p->batch;
}

/* grid=flat (gen/tp_flat.c): a block a chunk of whole matrices; a packed
 * batch moves as two contiguous spans of 16-byte vectors, anything else as
 * the linear kernel's elements (the plan leaves those out: lib/pick.c). */
static void flat_paths(const model_kernel *k, const model_problem *p, model_features *f)
{
	uint64_t rc = p->rows * p->cols, per = rc > k->per_block ? 1 : k->per_block / rc;
	int packed = p->ld_in == p->cols && p->ld_out == p->rows &&
		     (p->batch <= 1 || (p->stride_in == rc && p->stride_out == rc));
	if (!packed || rc > k->per_block) {
		linear_paths(k, p, f);
		return;
	}
	f->fast_share = 1;
	f->path_bytes[MODEL_VEC] = 2.0 * 32.0 * (double)cdiv(rc * p->batch * p->es, 32);
	f->tiles = f->interior = (double)cdiv(p->batch, per);
}

/* grid=pack (gen/tp_pack.c): the problem's pack tile (lib/nd_pack.h); each
 * side moves runs of run_in (run_out) elements, a sector-rounded request a
 * run, element by element. */
static void pack_paths(const model_problem *p, model_features *f)
{
	const ptxpose_tool_pack *pk = &p->pack;
	double n = (double)pk->vol * (double)pk->tiles, es = p->es;
	double ri = (double)(pk->run_in ? pk->run_in : 1), ro = (double)(pk->run_out ? pk->run_out : 1);
	f->path_bytes[MODEL_ELEM] = n / ri * 32.0 * ceil(ri * es / 32.0) + n / ro * 32.0 * ceil(ro * es / 32.0);
	f->tiles = f->interior = (double)pk->tiles;
}

/* ---- occupancy, waves, concurrency ---------------------------------------- */

static void launch_grid(const model_kernel *k, const model_problem *p, model_features *f)
{
	uint64_t gx, gy = 1, gz = p->batch < 65535 ? p->batch : 65535;
	if (k->linear) {
		gx = cdiv(p->rows * p->cols, k->per_block);
		gx = gx < 0x7fffffff ? gx : 0x7fffffff;
	} else if (k->pack) { /* loader/meta.c's meta_grid_dims */
		gx = meta_pack_blocks(p->pack.tiles, k->threads), gz = 1;
	} else if (k->flat) { /* loader/meta.c's meta_grid_dims */
		uint64_t rc = p->rows * p->cols;
		gx = cdiv(p->batch, rc > k->per_block ? 1 : k->per_block / rc), gz = 1;
	} else {
		gx = cdiv(p->cols, k->tn);
		gy = cdiv(p->rows, k->step);
		gy = gy < 65535 ? gy : 65535;
	}
	f->grid[0] = (unsigned)gx, f->grid[1] = (unsigned)gy, f->grid[2] = (unsigned)gz;
	f->blocks = gx * gy * gz;
}

static void occupancy(const model_device *d, const model_kernel *k, model_features *f)
{
	unsigned warps = (k->threads + 31) / 32;
	unsigned by[4], regs = (k->regs + 7) / 8 * 8, per_warp = (regs * 32 + 255) / 256 * 256;
	by[0] = d->threads_per_sm / (warps * 32);
	by[1] = k->smem_block ? d->smem_per_sm / (k->smem_block + d->smem_reserved) : d->blocks_per_sm;
	by[2] = d->regs_per_sm / per_warp / warps;
	by[3] = d->blocks_per_sm;
	static const char *const why[4] = {"threads", "smem", "regs", "blocks"};
	int w = 3;
	for (int i = 0; i < 3; i++)
		if (by[i] < by[w])
			w = i;
	f->occ = by[w] ? by[w] : 1;
	f->occ_by = why[w];
}

/* The share of the bandwidth nb resident blocks reach: enough bytes in
 * flight (Little's law), and enough SMs issuing them. */
static double phi_of(const model_device *d, const model_features *f, const model_params *pa, double nb)
{
	double sms = d->sm_count, active = nb < sms ? nb : sms;
	double a = nb * f->inflight_block / (pa->inflight_need * sms);
	double b = pa->sm_share_cap * active / sms;
	double phi = a < b ? a : b;
	return phi < 1 ? phi : 1;
}

static void waves(const model_device *d, const model_kernel *k, const model_params *pa, model_features *f)
{
	double per_wave = (double)d->sm_count * f->occ, blocks = (double)f->blocks;
	f->waves = blocks / per_wave;
	f->inflight_block = k->inflight ? (double)k->inflight : f->requests / (f->tiles > 0 ? f->tiles : 1);
	f->inflight_sm = (double)f->occ * f->inflight_block;
	double full = floor(f->waves), last = blocks - full * per_wave;
	double t = full * per_wave / phi_of(d, f, pa, per_wave);
	if (last > 0)
		t += last / phi_of(d, f, pa, last);
	f->phi = blocks / t;
}

void model_features_of(const model_device *d, const model_kernel *k, const model_problem *p,
		       const model_params *pa, model_features *f)
{
	memset(f, 0, sizeof *f);
	launch_grid(k, p, f);
	if (k->linear)
		linear_paths(k, p, f);
	else if (k->flat)
		flat_paths(k, p, f);
	else if (k->pack)
		pack_paths(p, f);
	else
		tile_paths(k, p, f);
	f->useful = 2.0 * (double)p->rows * (double)p->cols * (double)p->batch * p->es;
	for (int i = 0; i < MODEL_NPATH; i++)
		f->requests += f->path_bytes[i];
	side in, out;
	sides(k, p, &in, &out);
	f->footprint = unique_bytes(&in, p->rows, p->cols * p->es, p->batch) +
		       unique_bytes(&out, p->cols, p->rows * p->es, p->batch);
	if (f->footprint > f->requests)
		f->footprint = f->requests;
	double l2 = (double)d->l2_bytes, lo = pa->l2_lo * l2, hi = pa->l2_hi * l2;
	f->l2_hit = f->footprint <= lo ? 1 : f->footprint >= hi ? 0 : (hi - f->footprint) / (hi - lo);
	occupancy(d, k, f);
	waves(d, k, pa, f);
	/* each path's requests: its share of the DRAM traffic, the rest from the L2 */
	double us = 1.0 / (d->bw_gbps * 1e3 * f->phi); /* microseconds per byte */
	double dram = f->requests > 0 ? f->footprint * (1 - f->l2_hit) / f->requests : 0;
	for (int i = 0; i < MODEL_NPATH; i++) {
		f->x[MF_VEC_DRAM + 2 * i] = f->path_bytes[i] * dram * us;
		f->x[MF_VEC_L2 + 2 * i] = f->path_bytes[i] * (1 - dram) * us;
	}
	f->x[MF_SLOTS] = f->slots / (1e3 * d->sm_count); /* an element slot a nanosecond per SM */
	f->x[MF_TAIL] = f->edge > 0 ? (double)k->tm * k->tn / k->threads / 1e3 : 0;
	f->x[MF_SMEM] = f->tiles * k->smem_wavefronts / (1e3 * d->sm_count);
	f->x[MF_LAUNCH] = 1;
	f->x[MF_WAVES] = ceil(f->waves);
}
