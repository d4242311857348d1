/* opcodes: one decoder per mnemonic of the subset (docs/DESIGN.md). Each
 * consumes the modifiers it understands; any left over makes the
 * instruction unsupported (decode.c), so nothing is skipped silently. */
#include <stdio.h>
#include <string.h>

#include "emu/decode.h"

static int type_ok(dec *D, const dec_type *t, const char *classes)
{
	if (strchr(classes, t->cls))
		return 0;
	char why[64];
	snprintf(why, sizeof why, "%s types are outside the subset here",
		 t->cls == 'f' ? "floating-point" : t->cls == 'p' ? ".pred" : t->cls == 'b' ? ".b" : "these");
	return dec_unsupported(D, why);
}

/* The instruction's type; decoders take it after their other modifiers,
 * so a modifier left over is reported here, before any operand error. */
static int need_type(dec *D, dec_type *t, const char *classes)
{
	if (!dec_take_type(D, t))
		return dec_unsupported(D, "no type");
	return dec_done(D) || type_ok(D, t, classes) ? -1 : 0;
}

static void set_type(emu_ins *i, const dec_type *t)
{
	i->w = (uint8_t)t->bytes;
	i->sgn = t->cls == 's';
	i->mask = dec_mask(t->bytes);
}

/* d, a, b (, c) all of the type's width */
static int dabc(dec *D, int n, int bytes)
{
	emu_ins *i = D->ins;
	if (dec_nopd(D, n) || dec_dst(D, 0, bytes, 0, &i->d) || dec_src(D, 1, bytes, 0, &i->a))
		return -1;
	if (n > 2 && dec_src(D, 2, bytes, 0, &i->b))
		return -1;
	return n > 3 ? dec_src(D, 3, bytes, 0, &i->c) : 0;
}

static int d_mov(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	const emu_rins *r = D->r;
	if (need_type(D, &t, "busfp") || dec_nopd(D, 2))
		return -1;
	set_type(i, &t);
	int unpack = r->opd[0].kind == EMU_RO_VEC;
	if (!unpack && r->opd[1].kind != EMU_RO_VEC) {
		i->op = EMU_OP_MOV;
		return dec_dst(D, 0, t.bytes, 0, &i->d) || dec_src(D, 1, t.bytes, DEC_VAR, &i->a) ? -1 : 0;
	}
	const emu_ropd *v = &r->opd[unpack ? 0 : 1];
	if (t.bytes < 2 || v->nvec < 2 || t.bytes % v->nvec)
		return dec_unsupported(D, "vector form needs 2 or 4 elements that split the type evenly");
	i->op = unpack ? EMU_OP_UNPACK : EMU_OP_PACK;
	i->sub = v->nvec;
	i->w2 = (uint8_t)(t.bytes / v->nvec);
	for (int k = 0; k < v->nvec; k++)
		if (dec_reg_name(D, v->vec[k], i->w2, 0, &i->v[k]))
			return -1;
	return unpack ? dec_src(D, 1, t.bytes, DEC_NOIMM, &i->a) : dec_dst(D, 0, t.bytes, 0, &i->d);
}

static int d_arith(dec *D)
{
	static const struct { const char *m; int op; const char *cls; } ops[] = {
		{"add", EMU_OP_ADD, "us"}, {"sub", EMU_OP_SUB, "us"}, {"div", EMU_OP_DIV, "us"},
		{"rem", EMU_OP_REM, "us"}, {"min", EMU_OP_MIN, "us"}, {"max", EMU_OP_MAX, "us"},
		{"and", EMU_OP_AND, "bp"}, {"or", EMU_OP_OR, "bp"}, {"xor", EMU_OP_XOR, "bp"},
		{"not", EMU_OP_NOT, "bp"},
	};
	dec_type t;
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (!strcmp(D->base, ops[k].m)) {
			D->ins->op = (uint8_t)ops[k].op;
			if (need_type(D, &t, ops[k].cls))
				return -1;
			set_type(D->ins, &t);
			return dabc(D, ops[k].op == EMU_OP_NOT ? 2 : 3, t.bytes);
		}
	return dec_unsupported(D, NULL);
}

/* mul.{lo,hi,wide}, mad.{lo,hi,wide} */
static int d_mul(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	int mad = !strcmp(D->base, "mad");
	int lo = dec_take(D, "lo"), hi = !lo && dec_take(D, "hi"), wide = !lo && !hi && dec_take(D, "wide");
	if (!lo && !hi && !wide)
		return dec_unsupported(D, "needs .lo, .hi or .wide");
	if (need_type(D, &t, "us"))
		return -1;
	set_type(i, &t);
	if (wide) {
		if (t.bytes != 2 && t.bytes != 4)
			return dec_unsupported(D, ".wide takes 16- or 32-bit types");
		i->op = mad ? EMU_OP_MAD_WIDE : EMU_OP_MUL_WIDE;
		i->mask = dec_mask(2 * t.bytes);
		if (dec_nopd(D, mad ? 4 : 3) || dec_dst(D, 0, 2 * t.bytes, 0, &i->d) ||
		    dec_src(D, 1, t.bytes, 0, &i->a) || dec_src(D, 2, t.bytes, 0, &i->b))
			return -1;
		return mad ? dec_src(D, 3, 2 * t.bytes, 0, &i->c) : 0;
	}
	i->op = mad ? (lo ? EMU_OP_MAD_LO : EMU_OP_MAD_HI) : (lo ? EMU_OP_MUL_LO : EMU_OP_MUL_HI);
	return dabc(D, mad ? 4 : 3, t.bytes);
}

static int d_shift(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	int shl = !strcmp(D->base, "shl");
	i->op = shl ? EMU_OP_SHL : EMU_OP_SHR;
	if (need_type(D, &t, shl ? "b" : "bus"))
		return -1;
	if (t.bytes < 2)
		return dec_unsupported(D, "8-bit shifts do not exist");
	set_type(i, &t);
	if (dec_nopd(D, 3) || dec_dst(D, 0, t.bytes, 0, &i->d) || dec_src(D, 1, t.bytes, 0, &i->a))
		return -1;
	return dec_src(D, 2, 4, 0, &i->b); /* the amount is .u32 */
}

static int d_setp(dec *D)
{
	static const struct { const char *m; int cmp; int unsig; } cmps[] = {
		{"eq", EMU_CMP_EQ, 0}, {"ne", EMU_CMP_NE, 0}, {"lt", EMU_CMP_LT, 0}, {"le", EMU_CMP_LE, 0},
		{"gt", EMU_CMP_GT, 0}, {"ge", EMU_CMP_GE, 0}, {"lo", EMU_CMP_LT, 1}, {"ls", EMU_CMP_LE, 1},
		{"hi", EMU_CMP_GT, 1}, {"hs", EMU_CMP_GE, 1},
	};
	emu_ins *i = D->ins;
	dec_type t;
	int cmp = -1, unsig = 0;
	for (size_t k = 0; k < sizeof cmps / sizeof cmps[0] && cmp < 0; k++)
		if (dec_take(D, cmps[k].m))
			cmp = cmps[k].cmp, unsig = cmps[k].unsig;
	if (cmp < 0)
		return dec_unsupported(D, "no supported comparison");
	i->sub2 = dec_take(D, "and") ? EMU_BOOL_AND : dec_take(D, "or") ? EMU_BOOL_OR
		: dec_take(D, "xor") ? EMU_BOOL_XOR : EMU_BOOL_NONE;
	if (need_type(D, &t, "bus"))
		return -1;
	if (t.cls == 'b' && cmp != EMU_CMP_EQ && cmp != EMU_CMP_NE)
		return dec_unsupported(D, ".b types compare only eq/ne");
	if (t.cls == 's' && unsig)
		return dec_unsupported(D, "lo/ls/hi/hs are unsigned comparisons");
	set_type(i, &t);
	i->op = EMU_OP_SETP;
	i->sub = (uint8_t)cmp;
	const emu_ropd *d = &D->r->opd[0];
	if (dec_nopd(D, i->sub2 ? 4 : 3) || dec_dst(D, 0, 0, 0, &i->d) || dec_src(D, 1, t.bytes, 0, &i->a) ||
	    dec_src(D, 2, t.bytes, 0, &i->b))
		return -1;
	i->d2 = i->d;
	if (d->has_pipe && dec_reg_name(D, d->pipe, 0, 0, &i->d2))
		return -1;
	i->w2 = d->has_pipe;
	if (!i->sub2)
		return 0;
	const emu_ropd *c = &D->r->opd[3];
	if (c->kind != EMU_RO_NAME || c->has_pipe)
		return dec_err(D, "the last operand of setp.CMP.BOOL must be a predicate");
	i->cneg = c->neg;
	return dec_reg_name(D, c->name, 0, 0, &i->c);
}

static int d_selp(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	if (need_type(D, &t, "busf"))
		return -1;
	set_type(i, &t);
	i->op = EMU_OP_SELP;
	if (dec_nopd(D, 4) || dec_dst(D, 0, t.bytes, 0, &i->d) || dec_src(D, 1, t.bytes, 0, &i->a) ||
	    dec_src(D, 2, t.bytes, 0, &i->b))
		return -1;
	return dec_src(D, 3, 0, DEC_NOIMM, &i->c);
}

static int d_cvt(dec *D)
{
	dec_type dt, st;
	emu_ins *i = D->ins;
	if (!dec_take_type(D, &dt) || !dec_take_type(D, &st))
		return dec_unsupported(D, "needs a destination and a source type");
	if (dec_done(D) || type_ok(D, &dt, "us") || type_ok(D, &st, "us"))
		return -1;
	i->op = EMU_OP_CVT;
	i->w = (uint8_t)dt.bytes;
	i->sub2 = dt.cls == 's';
	i->w2 = (uint8_t)st.bytes;
	i->sgn = st.cls == 's';
	if (dec_nopd(D, 2) || dec_dst(D, 0, dt.bytes, DEC_WIDER, &i->d) || dec_src(D, 1, st.bytes, DEC_WIDER, &i->a))
		return -1;
	i->mask = dec_mask(D->s->regs[i->d].bytes);
	return 0;
}

static int d_cvta(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	dec_take(D, "to");
	if (!dec_take(D, "global"))
		return dec_unsupported(D, "only the global state space: generic shared/local addresses are outside the subset");
	if (need_type(D, &t, "ub"))
		return -1;
	if (t.bytes != 8)
		return dec_unsupported(D, "needs .u64");
	set_type(i, &t);
	i->op = EMU_OP_MOV; /* global and generic addresses are the same here */
	return dabc(D, 2, 8);
}

static int d_prmt(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	if (need_type(D, &t, "b"))
		return -1;
	if (t.bytes != 4)
		return dec_unsupported(D, "needs .b32");
	set_type(i, &t);
	i->op = EMU_OP_PRMT;
	return dabc(D, 4, 4);
}

/* bfi.b32/b64 f, a, b, pos, len; bfe.{u,s}{32,64} d, a, pos, len */
static int d_bitfield(dec *D)
{
	dec_type t;
	emu_ins *i = D->ins;
	int bfi = !strcmp(D->base, "bfi");
	if (need_type(D, &t, bfi ? "b" : "us"))
		return -1;
	if (t.bytes < 4)
		return dec_unsupported(D, "needs a 32- or 64-bit type");
	set_type(i, &t);
	i->op = bfi ? EMU_OP_BFI : EMU_OP_BFE;
	if (dec_nopd(D, bfi ? 5 : 4) || dec_dst(D, 0, t.bytes, 0, &i->d) || dec_src(D, 1, t.bytes, 0, &i->a))
		return -1;
	if (bfi)
		return dec_src(D, 2, t.bytes, 0, &i->b) || dec_src(D, 3, 4, 0, &i->c) || dec_src(D, 4, 4, 0, &i->e) ? -1 : 0;
	return dec_src(D, 2, 4, 0, &i->c) || dec_src(D, 3, 4, 0, &i->e) ? -1 : 0;
}

/* ld/st: the state space, hints, vector width and type, then the data
 * operand(s) and the address. */
static int d_ldst(dec *D)
{
	emu_ins *i = D->ins;
	const emu_rins *r = D->r;
	int st = !strcmp(D->base, "st");
	char space = dec_take(D, "global") ? 'g' : dec_take(D, "shared") ? 's'
		: (!st && dec_take(D, "param")) ? 'p' : 'g'; /* no space: generic = global here */
	dec_take_hints(D, st);
	int n = dec_take(D, "v2") ? 2 : dec_take(D, "v4") ? 4 : 1;
	dec_type t;
	if (need_type(D, &t, "busf"))
		return -1;
	set_type(i, &t);
	i->sub = (uint8_t)n;
	i->op = st ? (space == 's' ? EMU_OP_ST_SHARED : EMU_OP_ST_GLOBAL)
		: (space == 's' ? EMU_OP_LD_SHARED : space == 'p' ? EMU_OP_LD_PARAM : EMU_OP_LD_GLOBAL);
	if (dec_nopd(D, 2) || dec_addr(D, st ? 0 : 1, space))
		return -1;
	const emu_ropd *v = &r->opd[st ? 1 : 0];
	if ((n > 1) != (v->kind == EMU_RO_VEC) || (n > 1 && v->nvec != n))
		return dec_err(D, "'%.*s' needs %s", r->op.len, r->op.s,
			       n > 1 ? (n == 2 ? "a {a, b} operand" : "a {a, b, c, d} operand") : "a scalar operand");
	if (n == 1 && (st ? dec_src(D, 1, t.bytes, DEC_WIDER, &i->v[0]) : dec_dst(D, 0, t.bytes, DEC_WIDER, &i->v[0])))
		return -1;
	for (int k = 0; k < n && n > 1; k++)
		if (dec_reg_name(D, v->vec[k], t.bytes, DEC_WIDER, &i->v[k]))
			return -1;
	if (!st) {
		int rb = D->s->regs[i->v[0]].bytes;
		for (int k = 1; k < n; k++)
			if (D->s->regs[i->v[k]].bytes != rb)
				return dec_err(D, "the registers of a vector load must have one width");
		i->mask = dec_mask(rb);
	}
	if (space == 'p' && (i->imm < 0 || (uint64_t)i->imm + (uint64_t)t.bytes * n > D->p->param_bytes))
		return dec_err(D, "ld.param reads outside the parameter list (%u bytes)", D->p->param_bytes);
	return 0;
}

static int d_bar(dec *D)
{
	emu_ins *i = D->ins;
	if (!strcmp(D->base, "bar") && dec_take(D, "warp")) {
		if (!dec_take(D, "sync"))
			return dec_unsupported(D, "only bar.warp.sync");
		return dec_warpsync(D);
	}
	if (!dec_take(D, "sync"))
		return dec_unsupported(D, "only bar.sync");
	if (!strcmp(D->base, "barrier"))
		dec_take(D, "aligned");
	if (D->r->nopd == 2)
		return dec_unsupported(D, "a thread count is outside the subset");
	const emu_ropd *o = &D->r->opd[0];
	if (dec_nopd(D, 1))
		return -1;
	if (o->kind != EMU_RO_IMM || o->imm < 0 || o->imm > 15)
		return dec_err(D, "bar.sync needs a barrier number 0 to 15");
	i->op = EMU_OP_BAR;
	i->imm = o->imm;
	return 0;
}

static int d_bra(dec *D)
{
	dec_take(D, "uni");
	D->ins->op = EMU_OP_BRA;
	return dec_nopd(D, 1) || dec_label(D, 0) ? -1 : 0;
}

static int d_exit(dec *D)
{
	dec_take(D, "uni");
	D->ins->op = EMU_OP_EXIT;
	return dec_nopd(D, 0);
}

int dec_opcode(dec *D)
{
	static const struct { const char *m; int (*fn)(dec *); } table[] = {
		{"add", d_arith}, {"and", d_arith}, {"bar", d_bar}, {"barrier", d_bar}, {"bfe", d_bitfield},
		{"bfi", d_bitfield}, {"bra", d_bra},
		{"cvt", d_cvt}, {"cvta", d_cvta}, {"div", d_arith}, {"exit", d_exit}, {"ld", d_ldst},
		{"mad", d_mul}, {"max", d_arith}, {"min", d_arith}, {"mov", d_mov}, {"mul", d_mul},
		{"not", d_arith}, {"or", d_arith}, {"prmt", d_prmt}, {"rem", d_arith}, {"ret", d_exit},
		{"selp", d_selp}, {"setp", d_setp}, {"shl", d_shift}, {"shr", d_shift}, {"st", d_ldst},
		{"sub", d_arith}, {"xor", d_arith},
	};
	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
		if (!strcmp(D->base, table[k].m))
			return table[k].fn(D);
	return dec_opwarp(D);
}
