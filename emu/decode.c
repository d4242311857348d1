/* decode: resolve a parsed entry into a program. Registers become slots of
 * a flat per-thread register file; special registers, immediates, shared
 * variable addresses and the always-true guard become extra slots, so every
 * operand at run time is one array index. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"

#define EMU_POISON 0x5ca1ab1e0ddba11ull /* registers before their first write */

uint64_t dec_mask(int bytes) { return bytes >= 8 ? ~0ull : bytes == 0 ? 1 : (1ull << (8 * bytes)) - 1; }

int dec_err(dec *D, const char *fmt, ...)
{
	va_list ap;
	sb_printf(D->diag, "line %d: ", D->r ? D->r->line : D->s->entry_line);
	va_start(ap, fmt);
	sb_vprintf(D->diag, fmt, ap);
	va_end(ap);
	return -1;
}

int dec_unsupported(dec *D, const char *why)
{
	return dec_err(D, "unsupported instruction '%.*s'%s%s%s", D->r->op.len, D->r->op.s,
		       why ? " (" : "", why ? why : "", why ? ")" : "");
}

static int name_eq(emu_name n, const char *s) { return (size_t)n.len == strlen(s) && !memcmp(n.s, s, (size_t)n.len); }

/* ---- modifiers ---- */

int dec_take(dec *D, const char *m)
{
	for (int k = 0; k < D->nmods; k++)
		if (!(D->used & (1u << k)) && !strcmp(D->mods[k], m)) {
			D->used |= 1u << k;
			return 1;
		}
	return 0;
}

int dec_take_type(dec *D, dec_type *t)
{
	static const struct { const char *m; int bytes; char cls; } types[] = {
		{"b8", 1, 'b'}, {"b16", 2, 'b'}, {"b32", 4, 'b'}, {"b64", 8, 'b'},
		{"u8", 1, 'u'}, {"u16", 2, 'u'}, {"u32", 4, 'u'}, {"u64", 8, 'u'},
		{"s8", 1, 's'}, {"s16", 2, 's'}, {"s32", 4, 's'}, {"s64", 8, 's'},
		{"f16", 2, 'f'}, {"bf16", 2, 'f'}, {"f32", 4, 'f'}, {"f64", 8, 'f'},
		{"pred", 0, 'p'},
	};
	for (int k = 0; k < D->nmods; k++) {
		if (D->used & (1u << k))
			continue;
		for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
			if (!strcmp(D->mods[k], types[i].m)) {
				D->used |= 1u << k;
				t->bytes = types[i].bytes;
				t->cls = types[i].cls;
				return 1;
			}
	}
	return 0;
}

void dec_take_hints(dec *D, int store)
{
	static const char *const ld_hints[] = {"nc", "ca", "cg", "cs", "lu", "cv", "volatile", "weak", NULL};
	static const char *const st_hints[] = {"wb", "cg", "cs", "wt", "volatile", "weak", NULL};
	for (const char *const *h = store ? st_hints : ld_hints; *h; h++)
		dec_take(D, *h);
	for (int k = 0; k < D->nmods; k++) {
		const char *m = D->mods[k];
		if ((!strncmp(m, "L1::", 4) || !strncmp(m, "L2::", 4)) && strcmp(m, "L2::cache_hint"))
			D->used |= 1u << k;
	}
}

int dec_done(dec *D)
{
	for (int k = 0; k < D->nmods; k++)
		if (!(D->used & (1u << k))) {
			char why[64];
			snprintf(why, sizeof why, "modifier .%s is outside the subset", D->mods[k]);
			return dec_unsupported(D, why);
		}
	return 0;
}

/* ---- slots ---- */

static int new_slot(dec *D, uint64_t init, int kind, uint16_t *slot)
{
	emu_prog *p = D->p;
	if (p->nslots >= 65535)
		return dec_err(D, "more than 65535 registers and constants");
	if (p->nslots == D->capslots) {
		int cap = D->capslots ? D->capslots * 2 : 256;
		uint64_t *q = realloc(p->init, (size_t)cap * sizeof *q);
		if (q)
			p->init = q;
		uint8_t *b = realloc(D->slot_kind, (size_t)cap);
		if (b)
			D->slot_kind = b;
		if (!q || !b)
			return dec_err(D, "out of memory");
		D->capslots = cap;
	}
	p->init[p->nslots] = init;
	D->slot_kind[p->nslots] = (uint8_t)kind;
	*slot = (uint16_t)p->nslots++;
	return 0;
}

int dec_const(dec *D, uint64_t v, uint16_t *slot)
{
	int have = emu_map_get(&D->consts, &v, sizeof v);
	if (have >= 0) {
		*slot = (uint16_t)have;
		return 0;
	}
	if (new_slot(D, v, SLOT_CONST, slot))
		return -1;
	if (emu_map_put(&D->consts, &v, sizeof v, *slot) == -2)
		return dec_err(D, "out of memory");
	return 0;
}

static int find_reg(const emu_src *s, emu_name n) { return emu_map_get(&s->regmap, n.s, (size_t)n.len); }

static int find_sreg(emu_name n)
{
	static const char *const names[EMU_SR_COUNT] = {
		"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
		"%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
		"%laneid", "%warpid",
	};
	for (int i = 0; i < EMU_SR_COUNT; i++)
		if (name_eq(n, names[i]))
			return i;
	return -1;
}

static int find_var(const dec *D, emu_name n) { return emu_map_get(&D->vars, n.s, (size_t)n.len); }

/* "a 32-bit register", "a predicate register" */
static const char *kind_name(int bytes)
{
	static const char *const w[] = {"a predicate", "an 8-bit", "a 16-bit", "?", "a 32-bit", "?", "?", "?", "a 64-bit"};
	return bytes >= 0 && bytes <= 8 ? w[bytes] : "?";
}

int dec_reg_name(dec *D, emu_name n, int bytes, int flags, uint16_t *slot)
{
	int r = find_reg(D->s, n);
	if (r < 0) {
		if (n.s[0] == '%' && find_sreg(n) < 0)
			return dec_err(D, "register %.*s is not declared (or is an unsupported special register)",
				       n.len, n.s);
		return dec_err(D, "'%.*s' is not a declared register", n.len, n.s);
	}
	int have = D->s->regs[r].bytes;
	int ok = have == bytes || ((flags & DEC_WIDER) && bytes && have > bytes);
	if (!ok)
		return dec_err(D, "%.*s is %s register, but '%.*s' needs %s%s register", n.len, n.s, kind_name(have),
			       D->r->op.len, D->r->op.s, kind_name(bytes), flags & DEC_WIDER ? " or wider" : "");
	*slot = (uint16_t)r;
	return 0;
}

int dec_nopd(dec *D, int n)
{
	if (D->r->nopd != n)
		return dec_err(D, "'%.*s' takes %d operands, found %d", D->r->op.len, D->r->op.s, n, D->r->nopd);
	return 0;
}

int dec_src(dec *D, int k, int bytes, int flags, uint16_t *slot)
{
	const emu_ropd *o = &D->r->opd[k];
	if (o->kind == EMU_RO_IMM && !(flags & DEC_NOIMM))
		return dec_const(D, bytes ? (uint64_t)o->imm & dec_mask(bytes) : o->imm != 0, slot);
	if (o->kind != EMU_RO_NAME || o->has_pipe || (o->neg && bytes))
		return dec_err(D, "operand %d of '%.*s' must be a register%s", k + 1, D->r->op.len, D->r->op.s,
			       flags & DEC_NOIMM ? "" : " or an immediate");
	if (o->neg)
		return dec_err(D, "'!' is allowed only on the last operand of setp.CMP.BOOL");
	if (o->name.s[0] >= '0' && o->name.s[0] <= '9')
		return dec_err(D, "immediate '%.*s' is outside the subset (integers only)", o->name.len, o->name.s);
	int sr = find_sreg(o->name);
	if (sr >= 0) {
		if (bytes != 4)
			return dec_err(D, "%.*s is 32-bit, but '%.*s' needs %s operand", o->name.len, o->name.s,
				       D->r->op.len, D->r->op.s, kind_name(bytes));
		if (D->p->sreg_slot[sr] < 0) {
			uint16_t s;
			if (new_slot(D, 0, SLOT_SREG, &s))
				return -1;
			D->p->sreg_slot[sr] = s;
		}
		*slot = (uint16_t)D->p->sreg_slot[sr];
		return 0;
	}
	int v = find_var(D, o->name);
	if (v >= 0) {
		if (!(flags & DEC_VAR) || bytes < 4)
			return dec_err(D, "shared variable %.*s can only be used as an address here (mov.u32/u64 takes its address)",
				       o->name.len, o->name.s);
		return dec_const(D, D->p->vars[v].off, slot);
	}
	return dec_reg_name(D, o->name, bytes, flags, slot);
}

int dec_dst(dec *D, int k, int bytes, int flags, uint16_t *slot)
{
	const emu_ropd *o = &D->r->opd[k];
	if (o->kind != EMU_RO_NAME || o->neg || find_sreg(o->name) >= 0)
		return dec_err(D, "operand %d of '%.*s' must be a destination register", k + 1, D->r->op.len,
			       D->r->op.s);
	return dec_reg_name(D, o->name, bytes, flags, slot);
}

int dec_addr(dec *D, int k, char space)
{
	const emu_ropd *o = &D->r->opd[k];
	emu_ins *i = D->ins;
	if (o->kind != EMU_RO_ADDR)
		return dec_err(D, "operand %d of '%.*s' must be an address [...]", k + 1, D->r->op.len, D->r->op.s);
	i->imm = o->imm;
	if (!o->has_base)
		return space == 'p' ? dec_err(D, "ld.param needs a parameter name") : dec_const(D, 0, &i->a);
	if (space == 'p') {
		for (int p = 0; p < D->p->nparams; p++)
			if (name_eq(o->name, D->p->params[p].name)) {
				i->imm += D->p->params[p].off;
				return 0;
			}
		return dec_err(D, "'%.*s' is not a parameter of %s", o->name.len, o->name.s, D->p->entry);
	}
	int v = find_var(D, o->name);
	if (v >= 0) {
		if (space != 's')
			return dec_err(D, "shared variable %.*s used in a non-shared access", o->name.len, o->name.s);
		return dec_const(D, D->p->vars[v].off, &i->a);
	}
	int r = find_reg(D->s, o->name);
	if (r >= 0 && (D->s->regs[r].bytes == 8 || (space == 's' && D->s->regs[r].bytes == 4))) {
		i->a = (uint16_t)r;
		return 0;
	}
	if (r >= 0)
		return dec_err(D, "address register %.*s must be 64-bit%s", o->name.len, o->name.s,
			       space == 's' ? " or 32-bit" : "");
	return dec_err(D, "'%.*s' in the address is not a register or a %s variable", o->name.len, o->name.s,
		       space == 's' ? "shared" : "declared");
}

int dec_label(dec *D, int k)
{
	const emu_ropd *o = &D->r->opd[k];
	if (o->kind != EMU_RO_NAME || o->neg)
		return dec_err(D, "'%.*s' needs a label", D->r->op.len, D->r->op.s);
	int l = emu_map_get(&D->s->labelmap, o->name.s, (size_t)o->name.len);
	if (l < 0)
		return dec_err(D, "label %.*s is not defined", o->name.len, o->name.s);
	D->ins->imm = D->s->labels[l].ins;
	return 0;
}

/* ---- the driver ---- */

static int layout_shared(dec *D)
{
	const emu_src *s = D->s;
	emu_prog *p = D->p;
	p->vars = calloc((size_t)s->nsvars + 1, sizeof *p->vars);
	if (!p->vars)
		return dec_err(D, "out of memory");
	uint64_t off = 0;
	for (int pass = 0; pass < 2; pass++) /* static ones first, the dynamic area last */
		for (int i = 0; i < s->nsvars; i++) {
			const emu_svar *v = &s->svars[i];
			if (v->is_extern != pass)
				continue;
			emu_pvar *pv = &p->vars[p->nvars];
			snprintf(pv->name, sizeof pv->name, "%s", v->name);
			if (emu_map_put(&D->vars, pv->name, strlen(pv->name), p->nvars++) == -2)
				return dec_err(D, "out of memory");
			if (pass && v->align > p->dyn_align)
				p->dyn_align = v->align;
			pv->is_extern = v->is_extern;
			pv->size = v->size;
			if (pass == 0) {
				off = (off + v->align - 1) & ~(uint64_t)(v->align - 1);
				pv->off = (uint32_t)off;
				off += v->size;
				if (off > EMU_MAX_SMEM)
					return dec_err(D, "more than %u KiB of shared memory (the emulator's limit)",
						       EMU_MAX_SMEM >> 10);
			}
		}
	p->smem_static = (uint32_t)off;
	if (p->dyn_align) {
		uint32_t dyn = (p->smem_static + p->dyn_align - 1) & ~(p->dyn_align - 1);
		for (int i = 0; i < p->nvars; i++)
			if (p->vars[i].is_extern)
				p->vars[i].off = dyn;
	}
	return 0;
}

/* The statement's text with runs of white space made one space. */
static uint32_t add_text(strbuf *pool, const char *t, int n)
{
	uint32_t at = (uint32_t)pool->len;
	int space = 0;
	for (int k = 0; k < n; k++) {
		char c = t[k];
		if (c == ';' && k == n - 1)
			break;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1;
			continue;
		}
		if (space && pool->len > at)
			sb_addc(pool, ' ');
		space = 0;
		sb_addc(pool, c);
	}
	sb_addc(pool, '\0');
	return at;
}

int emu_decode(const emu_src *s, emu_prog *p, strbuf *diag)
{
	dec D = {.s = s, .p = p, .diag = diag};
	strbuf pool;
	sb_init(&pool);
	int rc = -1;
	memcpy(p->entry, s->entry, sizeof p->entry);
	p->nparams = s->nparams;
	memcpy(p->params, s->params, sizeof p->params);
	p->param_bytes = s->param_bytes;
	memcpy(p->reqntid, s->reqntid, sizeof p->reqntid);
	memcpy(p->maxntid, s->maxntid, sizeof p->maxntid);
	p->has_reqntid = s->has_reqntid;
	p->has_maxntid = s->has_maxntid;
	for (int i = 0; i < EMU_SR_COUNT; i++)
		p->sreg_slot[i] = -1;
	uint16_t slot, truth;
	for (int i = 0; i < s->nregs; i++)
		if (new_slot(&D, s->regs[i].bytes ? EMU_POISON & dec_mask(s->regs[i].bytes) : 0,
			     SLOT_REG, &slot))
			goto out;
	p->nregs = s->nregs;
	if (layout_shared(&D) || dec_const(&D, 1, &truth))
		goto out;
	p->truth = truth;
	p->code = calloc((size_t)s->nins + 1, sizeof *p->code);
	if (!p->code) {
		dec_err(&D, "out of memory");
		goto out;
	}
	sb_addc(&pool, '\0');
	for (int n = 0; n < s->nins; n++) {
		const emu_rins *r = &s->ins[n];
		emu_ins *i = &p->code[n];
		D.r = r;
		D.ins = i;
		i->line = (uint32_t)r->line;
		i->text = add_text(&pool, r->text, r->textlen);
		i->g = truth;
		if (r->has_guard) {
			if (dec_reg_name(&D, r->guard, 0, 0, &i->g))
				goto out;
			i->gneg = r->guard_neg;
		}
		/* split "ld.global.v4.b32" into the mnemonic and its modifiers */
		char op[256];
		if (r->op.len >= (int)sizeof op) {
			dec_unsupported(&D, "too long");
			goto out;
		}
		memcpy(op, r->op.s, (size_t)r->op.len);
		op[r->op.len] = '\0';
		char *save = NULL, *tok = strtok_r(op, ".", &save);
		snprintf(D.base, sizeof D.base, "%s", tok ? tok : "");
		D.nmods = 0;
		D.used = 0;
		while ((tok = strtok_r(NULL, ".", &save))) {
			if (D.nmods == DEC_MAX_MODS || strlen(tok) >= sizeof D.mods[0]) {
				dec_unsupported(&D, "too many modifiers");
				goto out;
			}
			strcpy(D.mods[D.nmods++], tok);
		}
		if (dec_opcode(&D) || dec_done(&D))
			goto out;
		i->bconst = D.slot_kind[i->b] == SLOT_CONST;
		i->cconst = D.slot_kind[i->c] == SLOT_CONST;
	}
	/* the closing brace returns */
	emu_ins *e = &p->code[s->nins];
	e->op = EMU_OP_EXIT;
	e->g = truth;
	e->line = (uint32_t)s->end_line;
	e->text = (uint32_t)pool.len;
	sb_add(&pool, "}");
	sb_addc(&pool, '\0');
	p->ncode = s->nins + 1;
	if (pool.oom || emu_cfg(p)) {
		sb_add(diag, "out of memory");
		goto out;
	}
	p->text = pool.data;
	pool.data = NULL;
	rc = 0;
out:
	sb_free(&pool);
	free(D.slot_kind);
	emu_map_free(&D.consts);
	emu_map_free(&D.vars);
	return rc;
}
