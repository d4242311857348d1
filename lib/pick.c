/* pick: rank a registry's kernels for a problem by the cost model. */
#include "lib/pick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int skinny_beyond(const model_kernel *k, const model_problem *p)
{
	if (!strcmp(k->family, "skinny_tall"))
		return p->cols > (uint64_t)PICK_SKINNY_RANGE * k->tn;
	if (!strcmp(k->family, "skinny_wide"))
		return p->rows > (uint64_t)PICK_SKINNY_RANGE * k->tm;
	return 0;
}

/* Whether every matrix of p has its pointer `align`, its pitch `ld` and its
 * stride (batches) a multiple of a bytes. */
static int side_aligned(unsigned align, uint64_t ld, uint64_t stride, const model_problem *p, unsigned a)
{
	return align % a == 0 && ld * p->es % a == 0 && (p->batch <= 1 || stride * p->es % a == 0);
}

/* A kernel with fast_k= (the register skinny kernels, gen/tp_skinny_reg.c)
 * has no path between its fast one and moving element by element (wide:
 * 7-18% of the copy on an H100): it is ranked only where K x es and the
 * run side (wide: the output; tall: the input) are multiples of fast_k
 * bytes, every matrix's line side is fast_align-aligned, and (wide) K x
 * es is at most PICK_FAST_K_MAX_BYTES and the long side's partial tile,
 * on the element path, holds at most 1/PICK_FAST_K_EDGE of it. */
static int fast_k_unfit(const model_kernel *k, const model_problem *p)
{
	if (!k->fast_k)
		return 0;
	int tall = !strcmp(k->family, "skinny_tall");
	uint64_t kk = tall ? p->cols : p->rows;
	unsigned a = k->fast_align ? k->fast_align : 1;
	if (tall)
		return kk * p->es % k->fast_k || !side_aligned(p->align_in, p->ld_in, p->stride_in, p, k->fast_k) ||
		       !side_aligned(p->align_out, p->ld_out, p->stride_out, p, a);
	return kk * p->es > PICK_FAST_K_MAX_BYTES || kk * p->es % k->fast_k ||
	       !side_aligned(p->align_out, p->ld_out, p->stride_out, p, k->fast_k) ||
	       !side_aligned(p->align_in, p->ld_in, p->stride_in, p, a) ||
	       (k->tn && p->cols % k->tn * PICK_FAST_K_EDGE > p->cols);
}

/* A flat kernel (gen/tp_flat.c) is made for packed batches of small
 * matrices: it is ranked only where at least PICK_FLAT_MIN of them fill a
 * chunk (per_block elements); one matrix a block is what the tile kernels
 * do already, with their own vector paths. It stays correct for every
 * problem. */
static int flat_unfit(const model_kernel *k, const model_problem *p)
{
	uint64_t rc = p->rows * p->cols;
	int packed = p->ld_in == p->cols && p->ld_out == p->rows &&
		     (p->batch <= 1 || (p->stride_in == rc && p->stride_out == rc));
	return k->flat && (!packed || rc * PICK_FLAT_MIN > k->per_block);
}

/* A kernel the table has no row of its own for, where a candidate of its
 * family (and width) has one: the fit has not seen it, and the shared `*`
 * thetas would price it below the siblings whose own were fitted (the
 * gathering flat kernels at 28-91% of flat_b's speed on the H200,
 * picked for every tiny batch before their first timing). */
static int unfitted(const pick_cand *c, int m, int i, const kreg *r, const model_params *params)
{
	const kreg_kernel *k = kreg_get(r, c[i].index);
	if (!k->mk.family[0] || model_params_fitted(params, k->mk.name))
		return 0;
	for (int j = 0; j < m; j++) {
		const kreg_kernel *s = kreg_get(r, c[j].index);
		if (j != i && !strcmp(s->mk.family, k->mk.family) && model_params_fitted(params, s->mk.name))
			return 1;
	}
	return 0;
}

int pick_runs_on(const model_kernel *k, const model_device *d)
{
	return !d->cc_major || k->sm <= 10 * d->cc_major + d->cc_minor;
}

/* The kernel ABI the plan ranks for p: v4's pack kernels where the plan
 * prefers the pack tile (lib/nd_pack.h) and use_pack found one that holds
 * it, else v3 for a batch of several dims, v2 for the rest. 1: k is not
 * of it, or cannot run p (meta_takes: its op, a pack tile it holds). */
static int abi_unfit(const kreg_kernel *k, const model_problem *p, int pack)
{
	char why[320];
	const char *abi = meta_get(&k->meta, "abi");
	return strcmp(abi, pack ? "4" : p->nbd > 1 ? "3" : "2") ||
	       *meta_takes(&k->meta, p->op, p->nbd, p->pack.vol, why, sizeof why);
}

/* The pack kernels serve a preferred pack tile where the registry has one
 * of the width that holds it, runs on d and fits its shared memory; else
 * the 2-D core's kernels. */
static int use_pack(const kreg *r, const model_device *d, const model_problem *p)
{
	for (int i = 0; p->pack.prefer && i < kreg_count(r); i++) {
		const kreg_kernel *k = kreg_get(r, i);
		int fits = !k->mk.smem_block || (uint64_t)k->mk.smem_block + d->smem_reserved <= d->smem_per_sm;
		if (k->mk.es == p->es && !k->mk.study && !abi_unfit(k, p, 1) && pick_runs_on(&k->mk, d) && fits)
			return 1;
	}
	return 0;
}

px_status pick_rank(const kreg *r, const model_device *d, const model_params *params, const model_problem *p,
		    pick_result *out, char *err, size_t errlen)
{
	int n = kreg_count(r);
	pick_cand *c = calloc((size_t)n + 1, sizeof *c);
	double *us = calloc((size_t)n + 1, sizeof *us);
	int *order = calloc((size_t)n + 1, sizeof *order);
	px_status st = c && us && order ? PX_OK : PX_ENOMEM;
	out->n = 0;
	out->c = NULL;
	out->unsure = 0;
	int m = 0, wide = 0, pack = use_pack(r, d, p);
	const kreg_kernel *big = NULL; /* the first of the width that does not fit */
	for (int i = 0; !st && i < n; i++) {
		const kreg_kernel *k = kreg_get(r, i);
		if (k->mk.es != p->es || k->mk.study) /* a study kernel runs only when named */
			continue;
		if (abi_unfit(k, p, pack)) /* its ABI, its op (row copies: tiled copies), a pack tile it holds */
			continue;
		if (!pick_runs_on(&k->mk, d)) /* its PTX needs a newer GPU */
			continue;
		if (flat_unfit(&k->mk, p) || fast_k_unfit(&k->mk, p))
			continue;
		wide++;
		/* a tile larger than the device's shared memory cannot launch */
		if (k->mk.smem_block && (uint64_t)k->mk.smem_block + d->smem_reserved > d->smem_per_sm) {
			big = big ? big : k;
			continue;
		}
		c[m].index = i;
		model_features_of(d, &k->mk, p, params, &c[m].f);
		model_estimate_of(params, &k->mk, &c[m].f, &c[m].e);
		c[m].beyond = skinny_beyond(&k->mk, p) ? PICK_AFTER_RANGE : 0;
		us[m] = c[m].e.us;
		m++;
	}
	for (int i = 0; i < m; i++)
		if (!c[i].beyond && unfitted(c, m, i, r, params))
			c[i].beyond = PICK_AFTER_UNFITTED;
	int inside = 0;
	double top = 0;
	for (int i = 0; i < m; i++) {
		inside += !c[i].beyond;
		top = us[i] > top ? us[i] : top;
	}
	for (int i = 0; i < m && inside; i++)
		if (c[i].beyond)
			us[i] += 2 * top + 1; /* after every other kernel, in their own order */
	if (!st && !m && big)
		snprintf(err, errlen, "no kernel for %u-bit elements fits this device's shared memory: %s needs %u bytes a "
				      "block (its tile and dyn_smem), more than the %u a block may have (%d of the %d "
				      "kernels given are for %u-bit elements)", 8 * p->es, big->meta.kernel, big->mk.smem_block,
			 d->smem_per_sm > d->smem_reserved ? d->smem_per_sm - d->smem_reserved : 0, wide, n, 8 * p->es);
	else if (!st && !m)
		snprintf(err, errlen, "no kernel for %u-bit elements among the %d given", 8 * p->es, n);
	st = !st && !m ? PX_EUNAVAIL : st;
	if (!st && !(out->c = malloc((size_t)m * sizeof *out->c)))
		st = PX_ENOMEM;
	if (!st) {
		out->unsure = model_rank(us, m, params->unsure_margin, order);
		for (int i = 0; i < m; i++)
			out->c[i] = c[order[i]];
		out->n = m;
	}
	if (st == PX_ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(c);
	free(us);
	free(order);
	return st;
}

void pick_free(pick_result *res)
{
	free(res->c);
	res->c = NULL;
	res->n = 0;
}

void pick_device(const cu_devinfo *info, model_device *d)
{
	char err[256];
	model_device_builtin("h100", d, err, sizeof err);
	snprintf(d->name, sizeof d->name, "%.95s", info->name);
	d->cc_major = (unsigned)info->cc_major;
	d->cc_minor = (unsigned)info->cc_minor;
	if (info->sm_count > 0)
		d->sm_count = (unsigned)info->sm_count;
	if (info->l2_bytes > 0)
		d->l2_bytes = (uint64_t)info->l2_bytes;
	if (info->smem_per_sm > 0)
		d->smem_per_sm = (unsigned)info->smem_per_sm;
	if (info->smem_reserved > 0)
		d->smem_reserved = (unsigned)info->smem_reserved;
	if (info->regs_per_sm > 0)
		d->regs_per_sm = (unsigned)info->regs_per_sm;
	if (info->threads_per_sm > 0)
		d->threads_per_sm = (unsigned)info->threads_per_sm;
	if (info->blocks_per_sm > 0)
		d->blocks_per_sm = (unsigned)info->blocks_per_sm;
	if (info->mem_clock_khz > 0 && info->bus_bits > 0)
		d->bw_gbps = 2.0 * info->mem_clock_khz * 1e3 * (info->bus_bits / 8) / 1e9;
}
