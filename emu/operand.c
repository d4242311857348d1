/* operand: one operand of an instruction, syntax only: a name (with '!'
 * or "p|q"), an immediate, a vector {%a, %b}, an address [base+offset].
 * Immediates and offsets are range-checked here. */
#include <string.h>

#include "emu/parse.h"

/* An integer literal, negated when `neg`. Immediates are 64-bit patterns:
 * 0 to 2^64-1, or -2^63 to -1. */
static int imm_value(emu_parser *P, const emu_tok *t, int neg, int64_t *out)
{
	if (neg && t->num > (uint64_t)INT64_MAX + 1)
		return emu_perr(P, t, "immediate -%llu is out of range (64 bits: -2^63 at the least)",
			    (unsigned long long)t->num);
	*out = (int64_t)(neg ? 0 - t->num : t->num); /* the two's complement pattern */
	return 0;
}

/* The offset of an address: -2^31 to 2^31-1, as in PTX. */
static int addr_offset(emu_parser *P, const emu_tok *t, int neg, int64_t *out)
{
	if (t->num > (uint64_t)EMU_MAX_OFFSET + (uint64_t)neg)
		return emu_perr(P, t, "address offset %s%llu is out of range (-2^31 to 2^31-1)", neg ? "-" : "",
			    (unsigned long long)t->num);
	*out = neg ? -(int64_t)t->num : (int64_t)t->num;
	return 0;
}

static int parse_name_opd(emu_parser *P, emu_ropd *o)
{
	if (P->t->kind != EMU_T_WORD)
		return emu_perr(P, P->t, "expected a name, found %s '%.*s'", emu_tok_what(P->t), P->t->len, P->t->s);
	o->name = (emu_name){P->t->s, P->t->len};
	P->t++;
	return 0;
}

int emu_parse_operand(emu_parser *P, emu_ropd *o)
{
	memset(o, 0, sizeof *o);
	const emu_tok *t = P->t;
	if (emu_is_punct(t, '!')) {
		P->t++;
		o->kind = EMU_RO_NAME;
		o->neg = 1;
		return parse_name_opd(P, o);
	}
	if (t->kind == EMU_T_WORD) {
		o->kind = EMU_RO_NAME;
		parse_name_opd(P, o);
		if (emu_is_punct(P->t, '|')) {
			P->t++;
			emu_ropd q;
			if (parse_name_opd(P, &q))
				return -1;
			o->has_pipe = 1;
			o->pipe = q.name;
		}
		return 0;
	}
	if (t->kind == EMU_T_NUM || (emu_is_punct(t, '-') && t[1].kind == EMU_T_NUM)) {
		int neg = emu_is_punct(t, '-');
		P->t += neg;
		o->kind = EMU_RO_IMM;
		if (imm_value(P, P->t, neg, &o->imm))
			return -1;
		P->t++;
		return 0;
	}
	if (emu_is_punct(t, '{')) {
		P->t++;
		o->kind = EMU_RO_VEC;
		for (;;) {
			if (o->nvec == 4)
				return emu_perr(P, P->t, "vector operand with more than 4 elements");
			if (P->t->kind != EMU_T_WORD)
				return emu_perr(P, P->t, "expected a register in the vector operand, found '%.*s'",
					    P->t->len, P->t->s);
			o->vec[o->nvec++] = (emu_name){P->t->s, P->t->len};
			P->t++;
			if (emu_is_punct(P->t, ','))
				P->t++;
			else
				return emu_expect(P, '}');
		}
	}
	if (emu_is_punct(t, '[')) {
		P->t++;
		o->kind = EMU_RO_ADDR;
		if (P->t->kind == EMU_T_WORD) {
			o->has_base = 1;
			o->name = (emu_name){P->t->s, P->t->len};
			P->t++;
			if (emu_is_punct(P->t, '+') || emu_is_punct(P->t, '-')) {
				int neg = emu_is_punct(P->t, '-');
				P->t++;
				if (emu_is_punct(P->t, '-'))
					neg = !neg, P->t++;
				if (P->t->kind != EMU_T_NUM)
					return emu_perr(P, P->t, "unsupported address form (only [reg], [reg+imm], [name], [name+imm])");
				if (addr_offset(P, P->t, neg, &o->imm))
					return -1;
				P->t++;
			}
		} else if (P->t->kind == EMU_T_NUM) {
			if (addr_offset(P, P->t, 0, &o->imm))
				return -1;
			P->t++;
		} else {
			return emu_perr(P, P->t, "unsupported address form (only [reg], [reg+imm], [name], [name+imm])");
		}
		return emu_expect(P, ']');
	}
	return emu_perr(P, t, "cannot read operand '%.*s'", t->len, t->s);
}
