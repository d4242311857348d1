/* exec: run one thread of the decoded program until it reaches a barrier,
 * exits or faults. Every operand is a slot of the thread's register file;
 * slots hold values masked to their register's width, so unsigned results
 * need one mask and signed ones a sign extension at the point of use. */
#include <string.h>

#include "emu/emu_int.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static inline int64_t sx(uint64_t v, unsigned bytes)
{
	unsigned s = 64 - 8 * bytes;
	return (int64_t)(v << s) >> s;
}

static inline uint64_t zx(uint64_t v, unsigned bytes)
{
	return bytes >= 8 ? v : v & ((1ull << (8 * bytes)) - 1);
}

/* Little-endian element access (hosts and GPUs agree). */
static inline uint64_t load_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	memcpy(&v, p, bytes);
	return v;
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned bytes) { memcpy(p, &v, bytes); }

static inline uint64_t mul_hi(uint64_t a, uint64_t b, unsigned w, int sgn)
{
	if (w == 8)
		return sgn ? (uint64_t)(((s128)(int64_t)a * (int64_t)b) >> 64) : (uint64_t)(((u128)a * b) >> 64);
	if (sgn)
		return (uint64_t)((sx(a, w) * sx(b, w)) >> (8 * w));
	return (a * b) >> (8 * w);
}

static inline uint64_t mul_wide(uint64_t a, uint64_t b, unsigned w, int sgn)
{
	return sgn ? (uint64_t)(sx(a, w) * sx(b, w)) : a * b;
}

/* prmt.b32 without a mode: each selector nibble picks one of the 8 bytes of
 * {b, a}; its bit 3 replicates that byte's sign bit instead (PTX ISA). */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t src = (uint64_t)b << 32 | a;
	uint32_t d = 0;
	for (int k = 0; k < 4; k++) {
		unsigned sel = (c >> (4 * k)) & 0xf;
		uint32_t byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
		if (sel & 8)
			byte = byte & 0x80 ? 0xff : 0;
		d |= byte << (8 * k);
	}
	return d;
}

/* Bit-field insert and extract (PTX ISA): position and length use their
 * low 8 bits; a field past the msb is cut there. */
static inline uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t e, unsigned w)
{
	unsigned pos = c & 0xff, len = e & 0xff, bits = 8 * w;
	if (!len || pos >= bits)
		return b;
	unsigned n = len < bits - pos ? len : bits - pos;
	uint64_t field = (n >= 64 ? ~0ull : (1ull << n) - 1) << pos;
	return (b & ~field) | ((a << pos) & field);
}

static inline uint64_t bfe(uint64_t a, uint64_t c, uint64_t e, unsigned w, int sgn)
{
	unsigned pos = c & 0xff, len = e & 0xff, bits = 8 * w, msb = bits - 1;
	if (!len)
		return 0;
	unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
	uint64_t sbit = sgn ? (a >> top) & 1 : 0;
	if (pos > msb)
		return sbit ? zx(~0ull, w) : 0;
	unsigned n = len < bits - pos ? len : bits - pos;
	uint64_t m = n >= 64 ? ~0ull : (1ull << n) - 1;
	uint64_t v = (a >> pos) & m;
	return zx(sbit ? v | ~m : v, w);
}

static inline int compare(const emu_ins *i, uint64_t a, uint64_t b)
{
	if (i->sgn) {
		int64_t x = sx(a, i->w), y = sx(b, i->w);
		switch (i->sub) {
		case EMU_CMP_EQ: return x == y;
		case EMU_CMP_NE: return x != y;
		case EMU_CMP_LT: return x < y;
		case EMU_CMP_LE: return x <= y;
		case EMU_CMP_GT: return x > y;
		default: return x >= y;
		}
	}
	switch (i->sub) {
	case EMU_CMP_EQ: return a == b;
	case EMU_CMP_NE: return a != b;
	case EMU_CMP_LT: return a < b;
	case EMU_CMP_LE: return a <= b;
	case EMU_CMP_GT: return a > b;
	default: return a >= b;
	}
}

static inline uint64_t combine(int how, uint64_t t, uint64_t c)
{
	switch (how) {
	case EMU_BOOL_AND: return t & c;
	case EMU_BOOL_OR: return t | c;
	case EMU_BOOL_XOR: return t ^ c;
	default: return t;
	}
}

static int fault(emu_ctx *x, emu_thread *t, uint32_t pc, int kind, uint64_t n)
{
	if (kind)
		x->f.kind = kind;
	x->f.ins = (int)pc;
	x->f.tid = t->tid;
	t->pc = pc;
	x->executed += n;
	return t->state = EMU_STOP_FAULT;
}

int emu_exec(emu_ctx *x, emu_thread *t)
{
	const emu_ins *code = x->prog->code;
	uint64_t *R = t->R;
	uint32_t pc = t->pc;
	uint64_t budget = x->budget, n = 0;
	for (;; pc++) {
		const emu_ins *i = &code[pc];
		n++;
		if (!(R[i->g] ^ i->gneg))
			continue;
		uint64_t a = R[i->a], b = R[i->b];
		switch (i->op) {
		case EMU_OP_MOV: R[i->d] = a & i->mask; break;
		case EMU_OP_PACK: {
			uint64_t v = 0;
			for (int k = 0; k < i->sub; k++)
				v |= zx(R[i->v[k]], i->w2) << (8 * i->w2 * k);
			R[i->d] = v;
			break;
		}
		case EMU_OP_UNPACK:
			for (int k = 0; k < i->sub; k++)
				R[i->v[k]] = zx(a >> (8 * i->w2 * k), i->w2);
			break;
		case EMU_OP_ADD: R[i->d] = (a + b) & i->mask; break;
		case EMU_OP_SUB: R[i->d] = (a - b) & i->mask; break;
		case EMU_OP_MUL_LO: R[i->d] = (a * b) & i->mask; break;
		case EMU_OP_MUL_HI: R[i->d] = mul_hi(a, b, i->w, i->sgn) & i->mask; break;
		case EMU_OP_MUL_WIDE: R[i->d] = mul_wide(a, b, i->w, i->sgn) & i->mask; break;
		case EMU_OP_MAD_LO: R[i->d] = (a * b + R[i->c]) & i->mask; break;
		case EMU_OP_MAD_HI: R[i->d] = (mul_hi(a, b, i->w, i->sgn) + R[i->c]) & i->mask; break;
		case EMU_OP_MAD_WIDE: R[i->d] = (mul_wide(a, b, i->w, i->sgn) + R[i->c]) & i->mask; break;
		case EMU_OP_DIV:
		case EMU_OP_REM:
			if (!b)
				return fault(x, t, pc, EMU_F_DIVZERO, n);
			if (!i->sgn)
				R[i->d] = i->op == EMU_OP_DIV ? a / b : a % b;
			else if (sx(b, i->w) == -1) /* avoids INT_MIN / -1 */
				R[i->d] = i->op == EMU_OP_DIV ? (0 - a) & i->mask : 0;
			else if (i->op == EMU_OP_DIV)
				R[i->d] = (uint64_t)(sx(a, i->w) / sx(b, i->w)) & i->mask;
			else
				R[i->d] = (uint64_t)(sx(a, i->w) % sx(b, i->w)) & i->mask;
			break;
		case EMU_OP_MIN:
		case EMU_OP_MAX: {
			int lt = i->sgn ? sx(a, i->w) < sx(b, i->w) : a < b;
			R[i->d] = (lt == (i->op == EMU_OP_MIN)) ? a : b;
			break;
		}
		case EMU_OP_AND: R[i->d] = a & b; break;
		case EMU_OP_OR: R[i->d] = a | b; break;
		case EMU_OP_XOR: R[i->d] = a ^ b; break;
		case EMU_OP_NOT: R[i->d] = ~a & i->mask; break;
		case EMU_OP_SHL: R[i->d] = b >= 8u * i->w ? 0 : (a << b) & i->mask; break;
		case EMU_OP_SHR:
			if (i->sgn) /* amounts past the width fill with the sign */
				R[i->d] = (uint64_t)(sx(a, i->w) >> (b >= 8u * i->w ? 8u * i->w - 1 : b)) & i->mask;
			else
				R[i->d] = b >= 8u * i->w ? 0 : a >> b;
			break;
		case EMU_OP_SETP: {
			uint64_t tr = (uint64_t)compare(i, a, b), c = R[i->c] ^ i->cneg;
			R[i->d] = combine(i->sub2, tr, c);
			if (i->w2)
				R[i->d2] = combine(i->sub2, tr ^ 1, c);
			break;
		}
		case EMU_OP_SELP: R[i->d] = R[i->c] ? a : b; break;
		case EMU_OP_CVT: {
			uint64_t v = i->sgn ? (uint64_t)sx(a, i->w2) : zx(a, i->w2);
			v = i->sub2 ? (uint64_t)sx(v, i->w) : zx(v, i->w);
			R[i->d] = v & i->mask;
			break;
		}
		case EMU_OP_BFI: R[i->d] = bfi(a, b, R[i->c], R[i->e], i->w); break;
		case EMU_OP_BFE: R[i->d] = bfe(a, R[i->c], R[i->e], i->w, i->sgn); break;
		case EMU_OP_PRMT: R[i->d] = prmt((uint32_t)a, (uint32_t)b, (uint32_t)R[i->c]); break;
		case EMU_OP_LD_GLOBAL:
		case EMU_OP_LD_SHARED:
		case EMU_OP_LD_PARAM: {
			uint64_t addr = a + (uint64_t)i->imm;
			unsigned bytes = (unsigned)i->w * i->sub;
			const uint8_t *p = i->op == EMU_OP_LD_PARAM ? x->param + i->imm
				: i->op == EMU_OP_LD_GLOBAL ? emu_global(x, addr, bytes, 0)
				: emu_shared(x, addr, bytes, 0, t->tid, (int)pc);
			if (!p)
				return fault(x, t, pc, 0, n);
			for (int k = 0; k < i->sub; k++) {
				uint64_t v = load_le(p + k * i->w, i->w);
				R[i->v[k]] = (i->sgn ? (uint64_t)sx(v, i->w) : v) & i->mask;
			}
			break;
		}
		case EMU_OP_ST_GLOBAL:
		case EMU_OP_ST_SHARED: {
			uint64_t addr = a + (uint64_t)i->imm;
			unsigned bytes = (unsigned)i->w * i->sub;
			uint8_t *p = i->op == EMU_OP_ST_GLOBAL ? emu_global(x, addr, bytes, 1)
				: emu_shared(x, addr, bytes, 1, t->tid, (int)pc);
			if (!p)
				return fault(x, t, pc, 0, n);
			for (int k = 0; k < i->sub; k++)
				store_le(p + k * i->w, R[i->v[k]], i->w);
			break;
		}
		case EMU_OP_BAR:
			t->pc = pc;
			x->executed += n;
			return t->state = EMU_STOP_BAR;
		case EMU_OP_BRA:
			if (i->imm <= (int64_t)pc) { /* every loop passes here */
				if (--budget == 0)
					return fault(x, t, pc, EMU_F_LOOP, n);
				if (x->executed + n > x->ins_allow)
					return fault(x, t, pc, EMU_F_BUDGET_INS, n);
			}
			pc = (uint32_t)i->imm - 1;
			break;
		case EMU_OP_EXIT:
			t->pc = pc;
			x->executed += n;
			return t->state = EMU_STOP_EXIT;
		}
	}
}
