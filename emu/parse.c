/* parse: tokens into the module's declarations and the entry's raw
 * instructions. Syntax only: names are resolved by decode.c. Anything that
 * is not in the subset stops here with the line and the offending word. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/parse.h"

int emu_perr(emu_parser *P, const emu_tok *at, const char *fmt, ...)
{
	va_list ap;
	sb_printf(P->diag, "line %d: ", at->line);
	va_start(ap, fmt);
	sb_vprintf(P->diag, fmt, ap);
	va_end(ap);
	return -1;
}

int emu_is_punct(const emu_tok *t, char c) { return t->kind == EMU_T_PUNCT && t->punct == c; }
int emu_is_word(const emu_tok *t, const char *w)
{
	return t->kind == EMU_T_WORD && (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

const char *emu_tok_what(const emu_tok *t)
{
	switch (t->kind) {
	case EMU_T_END: return "end of file";
	case EMU_T_PUNCT: return t->punct == ';' ? "';'" : "punctuation";
	default: return "token";
	}
}

int emu_expect(emu_parser *P, char c)
{
	if (!emu_is_punct(P->t, c))
		return emu_perr(P, P->t, "expected '%c', found %s '%.*s'", c, emu_tok_what(P->t), P->t->len, P->t->s);
	P->t++;
	return 0;
}

static int copy_name(emu_parser *P, const emu_tok *t, char *dst, const char *suffix)
{
	size_t sl = suffix ? strlen(suffix) : 0;
	if (t->kind != EMU_T_WORD)
		return emu_perr(P, t, "expected a name, found %s '%.*s'", emu_tok_what(t), t->len, t->s);
	if ((size_t)t->len + sl >= EMU_NAME_MAX)
		return emu_perr(P, t, "name '%.*s' is longer than %d characters", t->len, t->s, EMU_NAME_MAX - 1);
	memcpy(dst, t->s, (size_t)t->len);
	memcpy(dst + t->len, suffix ? suffix : "", sl + 1);
	return 0;
}

#define GROW(arr, n, cap)                                                        \
	((n) < (cap) ? 0                                                         \
	 : (((cap) = (cap) ? (cap) * 2 : 64),                                    \
	    ((arr) = realloc_or_free((arr), (size_t)(cap) * sizeof *(arr))) ? 0 : -1))

static void *realloc_or_free(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q)
		free(p);
	return q;
}

/* Width in bytes of a scalar type word (".b32"), 0 for .pred, -1 if none. */
static int type_bytes(const emu_tok *t)
{
	static const struct { const char *w; int b; } types[] = {
		{".b8", 1}, {".u8", 1}, {".s8", 1}, {".b16", 2}, {".u16", 2}, {".s16", 2},
		{".f16", 2}, {".bf16", 2}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4},
		{".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".pred", 0},
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (emu_is_word(t, types[i].w))
			return types[i].b;
	return -1;
}

/* Record `name` as entry `n` of the table that `m` indexes: -1 with
 * "KIND NAME declared twice" when the name is there already. */
static int add_name(emu_parser *P, const emu_tok *at, emu_map *m, const char *name, int n, const char *kind)
{
	int r = emu_map_put(m, name, strlen(name), n);
	if (r == -2)
		return emu_perr(P, at, "out of memory");
	if (r >= 0)
		return emu_perr(P, at, "%s %s %s twice", kind, name, strcmp(kind, "label") ? "declared" : "defined");
	return 0;
}

static int add_reg(emu_parser *P, const emu_tok *at, const char *name, int bytes)
{
	emu_src *s = P->s;
	if (s->nregs >= EMU_MAX_REGS)
		return emu_perr(P, at, "more than %d registers (the emulator's limit)", EMU_MAX_REGS);
	if (GROW(s->regs, s->nregs, s->capregs))
		return emu_perr(P, at, "out of memory");
	if (add_name(P, at, &s->regmap, name, s->nregs, "register"))
		return -1;
	emu_regdecl *r = &s->regs[s->nregs++];
	strcpy(r->name, name);
	r->bytes = (uint8_t)bytes;
	return 0;
}

/* .reg .TYPE %a, %b<N>; */
static int parse_reg(emu_parser *P)
{
	const emu_tok *d = P->t++;
	int bytes = type_bytes(P->t);
	if (bytes < 0)
		return emu_perr(P, P->t, "unsupported register type '%.*s' (scalar .b/.u/.s/.f types and .pred only)",
			    P->t->len, P->t->s);
	P->t++;
	for (;;) {
		char name[EMU_NAME_MAX];
		const emu_tok *nt = P->t;
		if (nt->kind != EMU_T_WORD || nt->s[0] != '%')
			return emu_perr(P, nt, "expected a %%register name after %.*s", d->len, d->s);
		if (copy_name(P, nt, name, NULL))
			return -1;
		P->t++;
		if (emu_is_punct(P->t, '<')) {
			P->t++;
			if (P->t->kind != EMU_T_NUM || P->t->num == 0 || P->t->num > EMU_MAX_REGS)
				return emu_perr(P, P->t, "register range %s<N> needs 1 <= N <= %d", name, EMU_MAX_REGS);
			uint64_t cnt = P->t->num;
			P->t++;
			if (emu_expect(P, '>'))
				return -1;
			for (uint64_t k = 0; k < cnt; k++) {
				char full[EMU_NAME_MAX + 24];
				snprintf(full, sizeof full, "%s%llu", name, (unsigned long long)k);
				if (strlen(full) >= EMU_NAME_MAX)
					return emu_perr(P, nt, "register name %s is too long", full);
				if (add_reg(P, nt, full, bytes))
					return -1;
			}
		} else if (add_reg(P, nt, name, bytes)) {
			return -1;
		}
		if (emu_is_punct(P->t, ','))
			P->t++;
		else
			return emu_expect(P, ';');
	}
}

/* [.extern] .shared [.align N] .TYPE name[N]...; */
static int parse_shared(emu_parser *P)
{
	emu_src *s = P->s;
	const emu_tok *first = P->t;
	int ext = emu_is_word(P->t, ".extern");
	if (ext)
		P->t++;
	if (!emu_is_word(P->t, ".shared"))
		return emu_perr(P, P->t, "unsupported directive '%.*s' (only .extern .shared)", P->t->len, P->t->s);
	P->t++;
	uint64_t align = 0;
	if (emu_is_word(P->t, ".align")) {
		P->t++;
		if (P->t->kind != EMU_T_NUM || !P->t->num || (P->t->num & (P->t->num - 1)) || P->t->num > 4096)
			return emu_perr(P, P->t, ".align needs a power of two up to 4096");
		align = P->t->num;
		P->t++;
	}
	int tb = type_bytes(P->t);
	if (tb <= 0)
		return emu_perr(P, P->t, "unsupported .shared type '%.*s' (scalar types only)", P->t->len, P->t->s);
	P->t++;
	if (s->nsvars >= EMU_MAX_SVARS)
		return emu_perr(P, first, "more than %d shared variables (the emulator's limit)", EMU_MAX_SVARS);
	if (GROW(s->svars, s->nsvars, s->capsvars))
		return emu_perr(P, first, "out of memory");
	emu_svar *v = &s->svars[s->nsvars];
	memset(v, 0, sizeof *v);
	if (copy_name(P, P->t, v->name, NULL) ||
	    add_name(P, P->t, &s->svarmap, v->name, s->nsvars, "shared variable"))
		return -1;
	P->t++;
	uint64_t size = (uint64_t)tb;
	int dims = 0;
	while (emu_is_punct(P->t, '[')) {
		P->t++;
		dims++;
		if (emu_is_punct(P->t, ']') && ext && dims == 1) {
			v->is_extern = 1;
		} else if (P->t->kind == EMU_T_NUM && P->t->num && P->t->num <= EMU_MAX_SMEM &&
			   size * P->t->num <= EMU_MAX_SMEM) {
			size *= P->t->num;
			P->t++;
		} else if (P->t->kind == EMU_T_NUM && P->t->num) {
			return emu_perr(P, first, "shared variable %s is larger than %u KiB (the emulator's limit)", v->name,
				    EMU_MAX_SMEM >> 10);
		} else {
			return emu_perr(P, P->t, "shared array %s needs a size of at least 1 element", v->name);
		}
		if (emu_expect(P, ']'))
			return -1;
	}
	if (ext != v->is_extern)
		return emu_perr(P, first, ext ? ".extern .shared %s needs the form name[] (its size is the launch's dynamic shared memory)"
					 : "shared array %s has no size", v->name);
	v->size = v->is_extern ? 0 : (uint32_t)size;
	v->align = (uint32_t)(align ? align : (uint64_t)tb);
	v->line = first->line;
	s->nsvars++;
	return emu_expect(P, ';');
}

static int parse_ins(emu_parser *P)
{
	emu_src *s = P->s;
	if (s->nins >= EMU_MAX_INS)
		return emu_perr(P, P->t, "more than %d instructions (the emulator's limit)", EMU_MAX_INS);
	if (GROW(s->ins, s->nins, s->capins))
		return emu_perr(P, P->t, "out of memory");
	emu_rins *r = &s->ins[s->nins];
	memset(r, 0, sizeof *r);
	const emu_tok *start = P->t;
	r->line = start->line;
	r->text = start->s;
	if (emu_is_punct(P->t, '@')) {
		P->t++;
		r->has_guard = 1;
		if (emu_is_punct(P->t, '!'))
			r->guard_neg = 1, P->t++;
		if (P->t->kind != EMU_T_WORD || P->t->s[0] != '%')
			return emu_perr(P, P->t, "a guard needs a predicate register: @%%p or @!%%p");
		r->guard = (emu_name){P->t->s, P->t->len};
		P->t++;
	}
	if (P->t->kind != EMU_T_WORD || P->t->s[0] == '.' || P->t->s[0] == '%')
		return emu_perr(P, P->t, "expected an instruction, found '%.*s'", P->t->len, P->t->s);
	r->op = (emu_name){P->t->s, P->t->len};
	P->t++;
	if (!emu_is_punct(P->t, ';'))
		for (;;) {
			if (r->nopd == EMU_MAX_OPD)
				return emu_perr(P, P->t, "more than %d operands", EMU_MAX_OPD);
			if (emu_parse_operand(P, &r->opd[r->nopd++]))
				return -1;
			if (!emu_is_punct(P->t, ','))
				break;
			P->t++;
		}
	if (!emu_is_punct(P->t, ';'))
		return emu_perr(P, P->t, "expected ';' after the operands of '%.*s', found '%.*s'",
			    r->op.len, r->op.s, P->t->len, P->t->s);
	r->textlen = (int)(P->t->s + 1 - start->s);
	P->t++;
	s->nins++;
	return 0;
}

static int parse_body(emu_parser *P)
{
	emu_src *s = P->s;
	for (;;) {
		const emu_tok *t = P->t;
		if (t->kind == EMU_T_END)
			return emu_perr(P, t, "the body of %s has no closing '}'", s->entry);
		if (emu_is_punct(t, '}')) {
			s->end_line = t->line;
			P->t++;
			return 0;
		}
		if (emu_is_word(t, ".reg")) {
			if (parse_reg(P))
				return -1;
		} else if (emu_is_word(t, ".shared") || emu_is_word(t, ".extern")) {
			if (parse_shared(P))
				return -1;
		} else if (t->kind == EMU_T_WORD && emu_is_punct(t + 1, ':') && t->s[0] != '.' && t->s[0] != '%') {
			if (s->nlabels >= EMU_MAX_LABELS)
				return emu_perr(P, t, "more than %d labels (the emulator's limit)", EMU_MAX_LABELS);
			if (GROW(s->labels, s->nlabels, s->caplabels))
				return emu_perr(P, t, "out of memory");
			emu_label *l = &s->labels[s->nlabels];
			if (copy_name(P, t, l->name, NULL) ||
			    add_name(P, t, &s->labelmap, l->name, s->nlabels, "label"))
				return -1;
			l->ins = s->nins;
			l->line = t->line;
			s->nlabels++;
			P->t += 2;
		} else if (emu_is_punct(t, '{')) {
			return emu_perr(P, t, "unsupported nested block '{'");
		} else if (t->kind == EMU_T_WORD && t->s[0] == '.') {
			return emu_perr(P, t, "unsupported directive '%.*s' in the kernel body", t->len, t->s);
		} else if (parse_ins(P)) {
			return -1;
		}
	}
}

/* .reqntid / .maxntid: one to three counts. */
static int parse_ntid(emu_parser *P, unsigned n[3])
{
	n[0] = n[1] = n[2] = 1;
	for (int k = 0; k < 3; k++) {
		if (P->t->kind != EMU_T_NUM || !P->t->num || P->t->num > 1024)
			return emu_perr(P, P->t, "thread counts must be 1 to 1024");
		n[k] = (unsigned)P->t->num;
		P->t++;
		if (!emu_is_punct(P->t, ','))
			return 0;
		P->t++;
	}
	return emu_perr(P, P->t, "more than three thread counts");
}

/* After .param: [.align N] .TYPE [pointer attributes] name, or
 * [.align N] .b8 name[N] (an array of bytes, kernel ABI v3's bdims). */
static int parse_param(emu_parser *P)
{
	emu_src *s = P->s;
	uint64_t align = 0;
	if (emu_is_word(P->t, ".align")) {
		P->t++;
		if (P->t->kind != EMU_T_NUM || !P->t->num || (P->t->num & (P->t->num - 1)) || P->t->num > 256)
			return emu_perr(P, P->t, "a parameter's .align needs a power of two up to 256");
		align = P->t->num;
		P->t++;
	}
	const emu_tok *type = P->t;
	int b = type_bytes(type);
	P->t++;
	/* .ptr .global .align N: pointer attributes, no effect here */
	while (b > 0 && (emu_is_word(P->t, ".ptr") || emu_is_word(P->t, ".global") || emu_is_word(P->t, ".align"))) {
		if (emu_is_word(P->t, ".align") && P->t[1].kind == EMU_T_NUM)
			P->t++;
		P->t++;
	}
	int array = b == 1 && P->t->kind == EMU_T_WORD && emu_is_punct(P->t + 1, '[');
	if (!array && b != 4 && b != 8)
		return emu_perr(P, type, "unsupported parameter type '%.*s' (32- and 64-bit integers, or a .b8 array)",
				type->len, type->s);
	emu_param *pa = &s->params[s->nparams];
	if (copy_name(P, P->t, pa->name, NULL))
		return -1;
	P->t++;
	uint64_t bytes = (uint64_t)b;
	if (array) {
		P->t++;
		if (P->t->kind != EMU_T_NUM || !P->t->num || P->t->num > EMU_MAX_PARAM_BYTES)
			return emu_perr(P, P->t, "parameter array %s needs a size of 1 to %u bytes", pa->name,
					EMU_MAX_PARAM_BYTES);
		bytes = P->t->num;
		P->t++;
		if (emu_expect(P, ']'))
			return -1;
	}
	uint64_t a = align ? align : (uint64_t)b;
	uint64_t off = (s->param_bytes + a - 1) & ~(a - 1);
	if (off + bytes > EMU_MAX_PARAM_BYTES)
		return emu_perr(P, type, "the parameters take more than %u bytes (the emulator's limit)",
				EMU_MAX_PARAM_BYTES);
	pa->bytes = (uint32_t)bytes;
	pa->off = (uint32_t)off;
	s->param_bytes = (uint32_t)(off + bytes);
	s->nparams++;
	return 0;
}

static int parse_entry(emu_parser *P)
{
	emu_src *s = P->s;
	if (emu_is_word(P->t, ".visible"))
		P->t++;
	if (!emu_is_word(P->t, ".entry"))
		return emu_perr(P, P->t, "unsupported directive '%.*s' (only .visible .entry)", P->t->len, P->t->s);
	if (s->entry[0])
		return emu_perr(P, P->t, "a second .entry (ptxpose files hold one kernel)");
	s->entry_line = P->t->line;
	P->t++;
	if (copy_name(P, P->t, s->entry, NULL))
		return -1;
	P->t++;
	if (emu_expect(P, '('))
		return -1;
	while (!emu_is_punct(P->t, ')')) {
		if (s->nparams == EMU_MAX_PARAMS)
			return emu_perr(P, P->t, "more than %d parameters", EMU_MAX_PARAMS);
		if (!emu_is_word(P->t, ".param"))
			return emu_perr(P, P->t, "expected .param, found '%.*s'", P->t->len, P->t->s);
		P->t++;
		if (parse_param(P))
			return -1;
		if (emu_is_punct(P->t, ','))
			P->t++;
		else if (!emu_is_punct(P->t, ')'))
			return emu_perr(P, P->t, "expected ',' or ')' in the parameter list");
	}
	P->t++;
	while (!emu_is_punct(P->t, '{')) {
		if (emu_is_word(P->t, ".reqntid") || emu_is_word(P->t, ".maxntid")) {
			int req = emu_is_word(P->t, ".reqntid");
			P->t++;
			if (parse_ntid(P, req ? s->reqntid : s->maxntid))
				return -1;
			if (req)
				s->has_reqntid = 1;
			else
				s->has_maxntid = 1;
		} else if (emu_is_word(P->t, ".minnctapersm") || emu_is_word(P->t, ".maxnreg")) {
			if (P->t[1].kind != EMU_T_NUM || !P->t[1].num || P->t[1].num > UINT32_MAX)
				return emu_perr(P, P->t + 1, "%.*s needs a count from 1 to %u: '%.*s' is out of range",
						P->t->len, P->t->s, UINT32_MAX, P->t[1].len, P->t[1].s);
			P->t += 2;
		} else {
			return emu_perr(P, P->t, "unsupported entry directive '%.*s'", P->t->len, P->t->s);
		}
	}
	P->t++;
	P->in_entry = 1;
	return parse_body(P);
}

int emu_parse(const emu_tok *t, emu_src *s, strbuf *diag)
{
	emu_parser P = {.t = t, .s = s, .diag = diag};
	while (P.t->kind != EMU_T_END) {
		const emu_tok *d = P.t;
		if (emu_is_word(d, ".version")) {
			P.t += 1 + (P.t[1].kind != EMU_T_END);
		} else if (emu_is_word(d, ".target")) {
			P.t++;
			while (P.t->kind == EMU_T_WORD && P.t->s[0] != '.') {
				P.t++;
				if (!emu_is_punct(P.t, ','))
					break;
				P.t++;
			}
		} else if (emu_is_word(d, ".address_size")) {
			if (d[1].kind != EMU_T_NUM || d[1].num != 64)
				return emu_perr(&P, d, "unsupported .address_size (only 64)");
			P.t += 2;
		} else if (emu_is_word(d, ".shared") || emu_is_word(d, ".extern")) {
			if (parse_shared(&P))
				return -1;
		} else if (emu_is_word(d, ".visible") || emu_is_word(d, ".entry")) {
			if (parse_entry(&P))
				return -1;
		} else if (d->kind == EMU_T_WORD && d->s[0] == '.') {
			return emu_perr(&P, d, "unsupported directive '%.*s'", d->len, d->s);
		} else {
			return emu_perr(&P, d, "unexpected '%.*s' outside the kernel", d->len, d->s);
		}
	}
	if (!s->entry[0])
		return emu_perr(&P, P.t, "no .entry in the file");
	return 0;
}

void emu_src_free(emu_src *s)
{
	free(s->regs);
	free(s->svars);
	free(s->labels);
	free(s->ins);
	emu_map_free(&s->regmap);
	emu_map_free(&s->labelmap);
	emu_map_free(&s->svarmap);
	memset(s, 0, sizeof *s);
}
