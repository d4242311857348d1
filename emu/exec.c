/* exec: run a warp of the decoded program, each instruction for all its
 * active lanes at once, until every lane waits at a barrier or has exited,
 * or a lane faults. Every operand is a slot of the warp's lane-major
 * register file (32 lanes a slot); slots hold values masked to their
 * register's width, so unsigned results need one mask and signed ones a
 * sign extension at the point of use. Divergent branches split the active
 * mask onto the warp's reconvergence stack; the paths meet again at the
 * branch's immediate post-dominator (cfg.c). */
#include <string.h>

/* The lane loops vectorize further at -O3 (GCC; clang vectorizes at -O2);
 * not in the sanitizer builds, where it doubles exec.c's compile. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#pragma GCC optimize("O3")
#endif

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
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t d;
	switch (bytes) { /* fixed sizes: inline moves, no call */
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&w, p, 4); return w;
	default: memcpy(&d, p, 8); return d;
	}
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;
	switch (bytes) {
	case 1: memcpy(p, &b, 1); break;
	case 2: memcpy(p, &h, 2); break;
	case 4: memcpy(p, &w, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

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

/* Run the statement for every lane l of m: a plain loop when all 32 are active. */
#define LANES(m, ...)                                                             \
	do {                                                                       \
		uint32_t m_ = (m);                                                 \
		if (m_ == EMU_FULL) {                                              \
			for (unsigned l = 0; l < EMU_WARP; l++) {                  \
				__VA_ARGS__;                                       \
			}                                                          \
		} else {                                                           \
			for (; m_; m_ &= m_ - 1) {                                 \
				unsigned l = (unsigned)__builtin_ctz(m_);          \
				__VA_ARGS__;                                            \
			}                                                          \
		}                                                                  \
	} while (0)

/* D[l] = expr for every lane l of m. With all 32 active the results go
 * through a local array first: it aliases nothing, so the loop vectorizes
 * (D may be one of the sources, lane for lane). Not under ASan, which
 * vectorizes nothing and checks every access to the array, and the copy. */
#ifdef __SANITIZE_ADDRESS__
#define ALU(m, D, ...) LANES(m, (D)[l] = (__VA_ARGS__))
#else
#define ALU(m, D, ...)                                                             \
	do {                                                                       \
		uint32_t m_ = (m);                                                 \
		if (m_ == EMU_FULL) {                                              \
			uint64_t t_[EMU_WARP];                                     \
			for (unsigned l = 0; l < EMU_WARP; l++)                    \
				t_[l] = (__VA_ARGS__);                             \
			memcpy((D), t_, sizeof t_);                                \
		} else {                                                           \
			for (; m_; m_ &= m_ - 1) {                                 \
				unsigned l = (unsigned)__builtin_ctz(m_);          \
				(D)[l] = (__VA_ARGS__);                            \
			}                                                          \
		}                                                                  \
	} while (0)
#endif

/* ALU for an expression of A[l], B[l], C[l] and scalars alone. Under ASan,
 * with all 32 lanes active, two lanes at a time (GCC's vector extension,
 * A, B and C rebound to pairs): a check a pair of lanes, not one a lane. */
#ifdef __SANITIZE_ADDRESS__
typedef uint64_t emu_v2 __attribute__((vector_size(16)));
#define ALU2(m, D, ...)                                                                                    \
	do {                                                                                               \
		if ((m) == EMU_FULL) {                                                                     \
			const emu_v2 *A2_ = (const emu_v2 *)A, *B2_ = (const emu_v2 *)B, *C2_ = (const emu_v2 *)C; \
			emu_v2 *D2_ = (emu_v2 *)(D);                                                       \
			_Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"")       \
			const emu_v2 *A = A2_, *B = B2_, *C = C2_;                                         \
			(void)A, (void)B, (void)C;                                                         \
			for (unsigned l = 0; l < EMU_WARP / 2; l++)                                        \
				D2_[l] = (__VA_ARGS__);                                                    \
			_Pragma("GCC diagnostic pop")                                                      \
		} else {                                                                                   \
			ALU(m, D, __VA_ARGS__);                                                            \
		}                                                                                          \
	} while (0)
#else
#define ALU2 ALU
#endif

/* setp's comparison, lane by lane, with the switch outside the loop;
 * inlined (GCC leaves it a call otherwise: setp is the commonest op). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void compare_lanes(const emu_ins *i, uint32_t g, uint64_t *T, const uint64_t *A, const uint64_t *B)
{
	unsigned wd = i->w;
#define CMP(op)                                                                                            \
	do {                                                                                               \
		if (wd == 4 && i->sgn) /* 32-bit: compares the vector unit has */                        \
			ALU(g, T, (uint64_t)((int32_t)(uint32_t)A[l] op (int32_t)(uint32_t)B[l]));       \
		else if (wd == 4)                                                                          \
			ALU(g, T, (uint64_t)((uint32_t)A[l] op (uint32_t)B[l]));                          \
		else if (i->sgn)                                                                           \
			ALU(g, T, (uint64_t)(sx(A[l], wd) op sx(B[l], wd)));                             \
		else                                                                                       \
			ALU(g, T, (uint64_t)(A[l] op B[l]));                                              \
	} while (0)
	switch (i->sub) {
	case EMU_CMP_EQ: CMP(==); break;
	case EMU_CMP_NE: CMP(!=); break;
	case EMU_CMP_LT: CMP(<); break;
	case EMU_CMP_LE: CMP(<=); break;
	case EMU_CMP_GT: CMP(>); break;
	default: CMP(>=); break;
	}
#undef CMP
}

/* The lanes of m whose predicate (0 or 1 a lane) is set. */
static inline uint32_t pred_mask(const uint64_t *P, uint32_t m)
{
	if (!(m & (m - 1))) /* one lane (the replay): no loop */
		return P[__builtin_ctz(m)] & 1 ? m : 0;
#ifdef __SANITIZE_ADDRESS__
	uint32_t g = 0; /* under ASan: a pair of lanes at a time, no array */
	for (unsigned k = 0; k < EMU_WARP / 2; k++) {
		emu_v2 p = ((const emu_v2 *)P)[k] & 1;
		g |= (uint32_t)(p[0] | p[1] << 1) << (2 * k);
	}
#else
	/* the low bytes side by side (a vector narrowing), then 8 bits at a
	 * time: the multiply moves byte k's bit 0 to bit 56 + k */
	uint8_t b[EMU_WARP];
	for (unsigned l = 0; l < EMU_WARP; l++)
		b[l] = (uint8_t)(P[l] & 1);
	uint32_t g = 0;
	for (unsigned k = 0; k < EMU_WARP / 8; k++) {
		uint64_t v;
		memcpy(&v, b + 8 * k, 8);
		g |= (uint32_t)((v * UINT64_C(0x0102040810204080)) >> 56) << (8 * k);
	}
#endif
	return g & m;
}

static int fault(emu_ctx *x, emu_warp *w, uint32_t pc, int kind, unsigned lane)
{
	if (kind)
		x->f.kind = kind;
	x->f.ins = (int)pc;
	x->f.tid = w->base + lane;
	w->stk[w->sp - 1].pc = pc;
	return EMU_STOP_FAULT;
}

/* Lanes of g stop at pc: waiting at its bar.sync, or exited. */
static void park(emu_ctx *x, emu_warp *w, uint32_t g, uint32_t pc, int state)
{
	w->run &= ~g;
	LANES(g, { x->tstate[w->base + l] = (uint8_t)state; x->tpc[w->base + l] = pc; });
}

/* A branch that splits the path on top of the stack: the taken lanes g and
 * the others nt meet at the branch's reconvergence point, or where the path
 * was to meet its siblings when the branch has none. */
static int diverge(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t pc, uint32_t g, uint32_t nt)
{
	emu_simt *t = &w->stk[w->sp - 1];
	uint32_t r = i->rpc == EMU_NO_PC ? t->rpc : i->rpc;
	if (r == t->rpc) {
		*t = (emu_simt){nt, pc + 1, r};
	} else {
		if (w->sp + 2 > EMU_SIMT_DEPTH)
			return fault(x, w, pc, EMU_F_LOOP, (unsigned)__builtin_ctz(g));
		t->pc = r;
		w->stk[w->sp++] = (emu_simt){nt, pc + 1, r};
	}
	w->stk[w->sp++] = (emu_simt){g, (uint32_t)i->imm, r};
	return 0;
}

#define SLOT(s) (R + (size_t)(s) * EMU_WARP)

/* A lane's global or shared bytes (NULL: a fault recorded), through the
 * race detector's one-word marks where the first pass keeps them. */
static inline uint8_t *lane_mem(emu_ctx *x, int global, uint64_t addr, unsigned bytes, int write, unsigned tid,
				int pc)
{
	if (global)
		return emu_global_fast(x, addr, bytes, write);
	return x->marks ? emu_shared_fast(x, addr, bytes, write, tid, pc) : emu_shared(x, addr, bytes, write, tid, pc);
}

/* The lane loops are 64-bit integer work: a clone for x86-64-v3 (AVX2: four
 * lanes a vector op and 64-bit compares) is chosen at load time where the
 * CPU has it (GCC's function multi-versioning, glibc's ifunc). Not in the
 * sanitizer builds: three instrumented copies took 30 s of the test build's
 * compile, and the tests that time nothing gain less than that. */
/* Whether the accesses of `bytes` at A[l] + imm of every lane l of g are
 * aligned and inside the global buffer at base of size bytes: then 1, with
 * their offsets into it in off[] (a loop without branches, for the vector
 * unit); else 0, and each lane goes through lane_mem, which tells the fault. */
static inline int warp_span(const uint64_t *A, int64_t imm, uint32_t g, uint64_t base, uint64_t size, unsigned bytes,
			    uint64_t *off)
{
	if (size < bytes)
		return 0;
	uint64_t lim = size - bytes, bad = 0;
	for (unsigned l = 0; l < EMU_WARP; l++) {
		uint64_t a = A[l] + (uint64_t)imm, o = a - base;
		off[l] = o;
		bad |= ((uint64_t)(o > lim) | (a & (bytes - 1))) & (0 - (uint64_t)(g >> l & 1));
	}
	return !bad;
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
	!defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
int emu_exec(emu_ctx *x, emu_warp *w)
{
	const emu_ins *code = x->prog->code;
	const uint16_t truth = x->prog->truth;
	uint64_t *R = w->R;
	uint64_t budget = x->budget;
	while (w->sp) {
		emu_simt *top = &w->stk[w->sp - 1];
		uint32_t m = top->mask & w->run;
		if (!m || top->pc == top->rpc) {
			w->sp--;
			continue;
		}
		uint32_t pc = top->pc;
		const uint32_t rpc = top->rpc;
		uint64_t lanes = (uint64_t)__builtin_popcount(m), n = 0;
		for (;; pc++) {
			if (pc == rpc)
				break;
			const emu_ins *i = &code[pc];
			n++;
			uint32_t g = m;
			if (i->g != truth) {
				g = pred_mask(SLOT(i->g), m);
				if (i->gneg)
					g ^= m;
				if (!g)
					continue;
			}
			uint64_t *D = SLOT(i->d);
			const uint64_t *A = SLOT(i->a), *B = SLOT(i->b), *C = SLOT(i->c);
			const uint64_t mask = i->mask;
			const unsigned wd = i->w;
			switch (i->op) {
			case EMU_OP_MOV: ALU2(g, D, A[l] & mask); break;
			case EMU_OP_PACK:
				LANES(g, {
					uint64_t v = 0;
					for (int k = 0; k < i->sub; k++)
						v |= zx(SLOT(i->v[k])[l], i->w2) << (8 * i->w2 * k);
					D[l] = v;
				});
				break;
			case EMU_OP_UNPACK:
				LANES(g, {
					uint64_t a = A[l];
					for (int k = 0; k < i->sub; k++)
						SLOT(i->v[k])[l] = zx(a >> (8 * i->w2 * k), i->w2);
				});
				break;
			case EMU_OP_ADD: ALU2(g, D, (A[l] + B[l]) & mask); break;
			case EMU_OP_SUB: ALU2(g, D, (A[l] - B[l]) & mask); break;
			case EMU_OP_MUL_LO:
				if (wd <= 4) /* 32 x 32 bits: pmuludq, not a 64-bit multiply */
					ALU2(g, D, ((A[l] & 0xffffffffu) * (B[l] & 0xffffffffu)) & mask);
				else
					ALU2(g, D, (A[l] * B[l]) & mask);
				break;
			case EMU_OP_MUL_HI: LANES(g, D[l] = mul_hi(A[l], B[l], wd, i->sgn) & mask); break;
			case EMU_OP_MUL_WIDE: ALU(g, D, mul_wide(A[l], B[l], wd, i->sgn) & mask); break;
			case EMU_OP_MAD_LO:
				if (wd <= 4)
					ALU2(g, D, ((A[l] & 0xffffffffu) * (B[l] & 0xffffffffu) + C[l]) & mask);
				else
					ALU2(g, D, (A[l] * B[l] + C[l]) & mask);
				break;
			case EMU_OP_MAD_HI: LANES(g, D[l] = (mul_hi(A[l], B[l], wd, i->sgn) + C[l]) & mask); break;
			case EMU_OP_MAD_WIDE: ALU(g, D, (mul_wide(A[l], B[l], wd, i->sgn) + C[l]) & mask); break;
			case EMU_OP_DIV:
			case EMU_OP_REM:
				for (uint32_t mm = g; mm; mm &= mm - 1) {
					unsigned l = (unsigned)__builtin_ctz(mm);
					uint64_t a = A[l], b = B[l];
					if (!b) {
						x->executed += n * lanes, x->warp_executed += n;
						return fault(x, w, pc, EMU_F_DIVZERO, l);
					}
					if (!i->sgn)
						D[l] = i->op == EMU_OP_DIV ? a / b : a % b;
					else if (sx(b, wd) == -1) /* avoids INT_MIN / -1 */
						D[l] = i->op == EMU_OP_DIV ? (0 - a) & mask : 0;
					else if (i->op == EMU_OP_DIV)
						D[l] = (uint64_t)(sx(a, wd) / sx(b, wd)) & mask;
					else
						D[l] = (uint64_t)(sx(a, wd) % sx(b, wd)) & mask;
				}
				break;
			case EMU_OP_MIN:
			case EMU_OP_MAX: {
				int min = i->op == EMU_OP_MIN;
				if (wd == 4 && i->sgn)
					ALU(g, D, ((int32_t)(uint32_t)A[l] < (int32_t)(uint32_t)B[l]) == min ? A[l] : B[l]);
				else if (wd == 4)
					ALU(g, D, ((uint32_t)A[l] < (uint32_t)B[l]) == min ? A[l] : B[l]);
				else
					LANES(g, {
						uint64_t a = A[l], b = B[l];
						int lt = i->sgn ? sx(a, wd) < sx(b, wd) : a < b;
						D[l] = (lt == min) ? a : b;
					});
				break;
			}
			case EMU_OP_AND: ALU2(g, D, A[l] & B[l]); break;
			case EMU_OP_OR: ALU2(g, D, A[l] | B[l]); break;
			case EMU_OP_XOR: ALU2(g, D, A[l] ^ B[l]); break;
			case EMU_OP_NOT: ALU2(g, D, ~A[l] & mask); break;
			case EMU_OP_SHL:
				if (i->bconst) { /* one amount: a vector shift */
					uint64_t sh = B[0];
					if (sh >= 8u * wd)
						ALU(g, D, 0);
					else
						ALU2(g, D, (A[l] << sh) & mask);
				} else {
					ALU(g, D, B[l] >= 8u * wd ? 0 : (A[l] << (B[l] & 63)) & mask);
				}
				break;
			case EMU_OP_SHR:
				if (i->sgn) /* amounts past the width fill with the sign */
					ALU(g, D, (uint64_t)(sx(A[l], wd) >> (B[l] >= 8u * wd ? 8u * wd - 1 : B[l])) & mask);
				else if (i->bconst && B[0] < 8u * wd)
					ALU2(g, D, A[l] >> B[0]);
				else
					ALU(g, D, B[l] >= 8u * wd ? 0 : A[l] >> (B[l] & 63));
				break;
			case EMU_OP_SETP: {
				uint64_t *D2 = SLOT(i->d2), T[EMU_WARP];
				int plain = !i->w2 && i->sub2 == EMU_BOOL_NONE; /* the common form: straight into D */
				compare_lanes(i, g, plain ? D : T, A, B);
				if (plain)
					break;
				if (i->sub2 == EMU_BOOL_NONE) {
					if (i->w2)
						ALU(g, D2, T[l] ^ 1);
					ALU(g, D, T[l]);
					break;
				}
				uint64_t Cn[EMU_WARP]; /* D or D2 may be C */
				ALU(g, Cn, C[l] ^ i->cneg);
				switch (i->sub2) {
				case EMU_BOOL_AND:
					if (i->w2)
						ALU(g, D2, (T[l] ^ 1) & Cn[l]);
					ALU(g, D, T[l] & Cn[l]);
					break;
				case EMU_BOOL_OR:
					if (i->w2)
						ALU(g, D2, (T[l] ^ 1) | Cn[l]);
					ALU(g, D, T[l] | Cn[l]);
					break;
				default:
					if (i->w2)
						ALU(g, D2, (T[l] ^ 1) ^ Cn[l]);
					ALU(g, D, T[l] ^ Cn[l]);
					break;
				}
				break;
			}
			case EMU_OP_SELP: ALU2(g, D, (A[l] & (0 - (C[l] & 1))) | (B[l] & ((C[l] & 1) - 1))); break; /* C is 0 or 1 */
			case EMU_OP_CVT:
				LANES(g, {
					uint64_t v = i->sgn ? (uint64_t)sx(A[l], i->w2) : zx(A[l], i->w2);
					v = i->sub2 ? (uint64_t)sx(v, wd) : zx(v, wd);
					D[l] = v & mask;
				});
				break;
			case EMU_OP_BFI: {
				const uint64_t *E = SLOT(i->e);
				ALU(g, D, bfi(A[l], B[l], C[l], E[l], wd));
				break;
			}
			case EMU_OP_BFE: {
				const uint64_t *E = SLOT(i->e);
				ALU(g, D, bfe(A[l], C[l], E[l], wd, i->sgn));
				break;
			}
			case EMU_OP_PRMT:
				if (i->cconst && !(C[0] & 0x8888)) { /* one selector, no sign bytes: fixed shifts */
					unsigned s0 = 8 * (C[0] & 7), s1 = 8 * (C[0] >> 4 & 7), s2 = 8 * (C[0] >> 8 & 7),
						 s3 = 8 * (C[0] >> 12 & 7);
#define V (B[l] << 32 | (A[l] & 0xffffffffu)) /* {b, a}: the 8 bytes to pick from */
					ALU(g, D, (V >> s0 & 0xff) | (V >> s1 & 0xff) << 8 | (V >> s2 & 0xff) << 16 |
							  (V >> s3 & 0xff) << 24);
#undef V
				} else {
					ALU(g, D, prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l]));
				}
				break;
			case EMU_OP_LD_PARAM:
				for (int k = 0; k < i->sub; k++) {
					uint64_t v = load_le(x->param + i->imm + k * wd, wd);
					v = (i->sgn ? (uint64_t)sx(v, wd) : v) & mask;
					uint64_t *V = SLOT(i->v[k]);
					LANES(g, V[l] = v);
				}
				break;
			case EMU_OP_LD_GLOBAL:
			case EMU_OP_LD_SHARED: {
				unsigned bytes = wd * i->sub;
				uint64_t off[EMU_WARP];
				const emu_launch *L = x->l;
				const uint8_t *M = i->op != EMU_OP_LD_GLOBAL ? NULL
					: warp_span(A, i->imm, g, EMU_IN_ADDR(L), L->in_bytes, bytes, off) ? L->in
					: warp_span(A, i->imm, g, EMU_OUT_ADDR(L), L->out_bytes, bytes, off) ? L->out : NULL;
				if (M) { /* every lane in one buffer */
					for (int k = 0; k < i->sub; k++) {
						uint64_t *V = SLOT(i->v[k]);
						LANES(g, {
							uint64_t v = load_le(M + off[l] + k * wd, wd);
							V[l] = (i->sgn ? (uint64_t)sx(v, wd) : v) & mask;
						});
					}
					break;
				}
				for (uint32_t mm = g; mm; mm &= mm - 1) {
					unsigned l = (unsigned)__builtin_ctz(mm);
					uint64_t addr = A[l] + (uint64_t)i->imm;
					const uint8_t *p = lane_mem(x, i->op == EMU_OP_LD_GLOBAL, addr, bytes, 0, w->base + l, (int)pc);
					if (!p) {
						x->executed += n * lanes, x->warp_executed += n;
						return fault(x, w, pc, 0, l);
					}
					for (int k = 0; k < i->sub; k++) {
						uint64_t v = load_le(p + k * wd, wd);
						SLOT(i->v[k])[l] = (i->sgn ? (uint64_t)sx(v, wd) : v) & mask;
					}
				}
				break;
			}
			case EMU_OP_ST_GLOBAL:
			case EMU_OP_ST_SHARED: {
				unsigned bytes = wd * i->sub;
				uint64_t off[EMU_WARP];
				if (i->op == EMU_OP_ST_GLOBAL &&
				    warp_span(A, i->imm, g, EMU_OUT_ADDR(x->l), x->l->out_bytes, bytes, off)) {
					uint8_t *M = x->l->out;
					LANES(g, { /* lane by lane: the last lane's bytes stay, as below */
						for (int k = 0; k < i->sub; k++)
							store_le(M + off[l] + k * wd, SLOT(i->v[k])[l], wd);
					});
					break;
				}
				for (uint32_t mm = g; mm; mm &= mm - 1) {
					unsigned l = (unsigned)__builtin_ctz(mm);
					uint64_t addr = A[l] + (uint64_t)i->imm;
					uint8_t *p = lane_mem(x, i->op == EMU_OP_ST_GLOBAL, addr, bytes, 1, w->base + l, (int)pc);
					if (!p) {
						x->executed += n * lanes, x->warp_executed += n;
						return fault(x, w, pc, 0, l);
					}
					for (int k = 0; k < i->sub; k++)
						store_le(p + k * wd, SLOT(i->v[k])[l], wd);
				}
				break;
			}
			case EMU_OP_BAR:
			case EMU_OP_EXIT:
				x->executed += n * lanes, x->warp_executed += n;
				n = 0;
				park(x, w, g, pc, i->op == EMU_OP_BAR ? EMU_STOP_BAR : EMU_STOP_EXIT);
				m &= ~g;
				lanes = (uint64_t)__builtin_popcount(m);
				if (!m)
					goto path_end;
				break;
			case EMU_OP_SHFL:
			case EMU_OP_VOTE:
			case EMU_OP_ACTIVEMASK:
			case EMU_OP_WARPSYNC:
			case EMU_OP_LDMATRIX:
			case EMU_OP_STMATRIX:
			case EMU_OP_MOVMATRIX:
				if (emu_warp_op(x, w, i, g, pc)) {
					x->executed += n * lanes, x->warp_executed += n;
					return fault(x, w, pc, 0, x->f.tid - w->base);
				}
				break;
			case EMU_OP_BRA: {
				uint32_t tgt = (uint32_t)i->imm, nt = m & ~g;
				if (tgt <= pc) { /* every loop passes here */
					if (--budget == 0) {
						x->executed += n * lanes, x->warp_executed += n;
						return fault(x, w, pc, EMU_F_LOOP, (unsigned)__builtin_ctz(g));
					}
					if (x->executed + n * lanes > x->ins_allow) {
						x->executed += n * lanes, x->warp_executed += n;
						return fault(x, w, pc, EMU_F_BUDGET_INS, (unsigned)__builtin_ctz(g));
					}
				}
				if (!nt) {
					pc = tgt - 1;
					break;
				}
				x->executed += n * lanes, x->warp_executed += n;
				n = 0;
				if (diverge(x, w, i, pc, g, nt))
					return EMU_STOP_FAULT;
				goto next;
			}
			}
		}
	path_end:
		top->pc = pc;
		x->executed += n * lanes, x->warp_executed += n;
	next:;
	}
	return EMU_STOP_BAR;
}
