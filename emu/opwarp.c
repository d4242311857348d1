/* opwarp: decoders of the warp-synchronous instructions (PTX ISA):
 * shfl.sync, vote.sync, activemask, bar.warp.sync, ldmatrix, stmatrix and
 * movmatrix. Each marks the program, so a faulting CTA is not replayed a
 * thread at a time (cta.c). */
#include <stdio.h>
#include <string.h>

#include "emu/decode.h"

static int need_sync(dec *D, int aligned)
{
	if (!dec_take(D, "sync"))
		return dec_unsupported(D, "only the .sync form");
	if (aligned && !dec_take(D, "aligned"))
		return dec_unsupported(D, "needs .sync.aligned");
	D->p->warp_ops = 1;
	return 0;
}

/* The type modifier `want` ("b32", "pred", "b16") and nothing left over. */
static int need(dec *D, const char *want)
{
	if (!dec_take(D, want)) {
		char why[64];
		snprintf(why, sizeof why, "needs .%s", want);
		return dec_unsupported(D, why);
	}
	return dec_done(D);
}

/* shfl.sync.MODE.b32 d[|p], a, b, c, membermask */
static int d_shfl(dec *D)
{
	static const char *const modes[] = {"up", "down", "bfly", "idx"};
	emu_ins *i = D->ins;
	int mode = -1;
	for (int k = 0; k < 4 && mode < 0; k++)
		if (dec_take(D, modes[k]))
			mode = k;
	if (need_sync(D, 0))
		return -1;
	if (mode < 0)
		return dec_unsupported(D, "needs .up, .down, .bfly or .idx");
	if (need(D, "b32") || dec_nopd(D, 5) || dec_dst(D, 0, 4, 0, &i->d) || dec_src(D, 1, 4, 0, &i->a) ||
	    dec_src(D, 2, 4, 0, &i->b) || dec_src(D, 3, 4, 0, &i->c) || dec_src(D, 4, 4, 0, &i->e))
		return -1;
	const emu_ropd *d = &D->r->opd[0];
	i->op = EMU_OP_SHFL;
	i->sub = (uint8_t)mode;
	i->w = 4;
	i->mask = dec_mask(4);
	i->w2 = d->has_pipe;
	return d->has_pipe ? dec_reg_name(D, d->pipe, 0, 0, &i->d2) : 0;
}

/* vote.sync.{all,any,uni}.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask */
static int d_vote(dec *D)
{
	static const char *const kinds[] = {"all", "any", "uni", "ballot"};
	emu_ins *i = D->ins;
	int kind = -1;
	for (int k = 0; k < 4 && kind < 0; k++)
		if (dec_take(D, kinds[k]))
			kind = k;
	if (need_sync(D, 0))
		return -1;
	if (kind < 0)
		return dec_unsupported(D, "needs .all, .any, .uni or .ballot");
	if (need(D, kind == EMU_VOTE_BALLOT ? "b32" : "pred") || dec_nopd(D, 3) ||
	    dec_dst(D, 0, kind == EMU_VOTE_BALLOT ? 4 : 0, 0, &i->d) || dec_src(D, 2, 4, 0, &i->e))
		return -1;
	const emu_ropd *a = &D->r->opd[1];
	if (a->kind != EMU_RO_NAME || a->has_pipe)
		return dec_err(D, "operand 2 of '%.*s' must be a predicate", D->r->op.len, D->r->op.s);
	i->op = EMU_OP_VOTE;
	i->sub = (uint8_t)kind;
	i->cneg = a->neg;
	return dec_reg_name(D, a->name, 0, 0, &i->a);
}

static int d_activemask(dec *D)
{
	emu_ins *i = D->ins;
	D->p->warp_ops = 1;
	i->op = EMU_OP_ACTIVEMASK;
	return need(D, "b32") || dec_nopd(D, 1) ? -1 : dec_dst(D, 0, 4, 0, &i->d);
}

/* bar.warp.sync membermask (d_bar hands it here) */
int dec_warpsync(dec *D)
{
	emu_ins *i = D->ins;
	D->p->warp_ops = 1;
	i->op = EMU_OP_WARPSYNC;
	return dec_done(D) || dec_nopd(D, 1) ? -1 : dec_src(D, 0, 4, 0, &i->e);
}

/* .m8n8, .x1/.x2/.x4 (ldmatrix, stmatrix), .trans, .shared, .b16 */
static int matrix_mods(dec *D, int num)
{
	emu_ins *i = D->ins;
	if (need_sync(D, 1))
		return -1;
	if (!dec_take(D, "m8n8"))
		return dec_unsupported(D, "only the .m8n8 shape");
	i->sub = 1;
	if (num) {
		i->sub = dec_take(D, "x1") ? 1 : dec_take(D, "x2") ? 2 : dec_take(D, "x4") ? 4 : 0;
		if (!i->sub)
			return dec_unsupported(D, "needs .x1, .x2 or .x4");
		if (!dec_take(D, "shared") && !dec_take(D, "shared::cta"))
			return dec_unsupported(D, "needs .shared: generic addresses are outside the subset");
	}
	i->sub2 = (uint8_t)dec_take(D, "trans");
	if (!num && !i->sub2)
		return dec_unsupported(D, "needs .trans");
	i->w = 4;
	i->mask = dec_mask(4);
	return need(D, "b16");
}

/* ldmatrix ... {d0[, d1, d2, d3]}, [addr]; stmatrix ... [addr], {r0[, ...]} */
static int d_matrix(dec *D)
{
	emu_ins *i = D->ins;
	int st = D->base[0] == 's';
	if (matrix_mods(D, 1) || dec_nopd(D, 2) || dec_addr(D, st ? 0 : 1, 's'))
		return -1;
	i->op = st ? EMU_OP_STMATRIX : EMU_OP_LDMATRIX;
	const emu_ropd *v = &D->r->opd[st ? 1 : 0];
	if (i->sub == 1 && v->kind == EMU_RO_NAME)
		return st ? dec_src(D, 1, 4, DEC_NOIMM, &i->v[0]) : dec_dst(D, 0, 4, 0, &i->v[0]);
	if (v->kind != EMU_RO_VEC || v->nvec != i->sub)
		return dec_err(D, "'%.*s' needs %d registers in braces", D->r->op.len, D->r->op.s, i->sub);
	for (int k = 0; k < i->sub; k++)
		if (dec_reg_name(D, v->vec[k], 4, 0, &i->v[k]))
			return -1;
	return 0;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a */
static int d_movmatrix(dec *D)
{
	emu_ins *i = D->ins;
	i->op = EMU_OP_MOVMATRIX;
	return matrix_mods(D, 0) || dec_nopd(D, 2) || dec_dst(D, 0, 4, 0, &i->d) ? -1 : dec_src(D, 1, 4, DEC_NOIMM, &i->a);
}

int dec_opwarp(dec *D)
{
	static const struct { const char *m; int (*fn)(dec *); } table[] = {
		{"activemask", d_activemask}, {"ldmatrix", d_matrix}, {"movmatrix", d_movmatrix},
		{"shfl", d_shfl}, {"stmatrix", d_matrix}, {"vote", d_vote},
	};
	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
		if (!strcmp(D->base, table[k].m))
			return table[k].fn(D);
	return dec_unsupported(D, NULL);
}
