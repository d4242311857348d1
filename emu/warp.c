/* warp: the warp-synchronous instructions, for the lanes g of a warp that
 * execute one together (exec.c runs a warp in lockstep, so they all meet
 * here at once). Each checks its lanes first: a lane outside the member
 * mask, a member lane that does not take part (divergent, guarded off or
 * exited), lanes that disagree on the mask, or, for the .aligned matrix
 * instructions, any lane of the warp missing is an EMU_F_WARP fault.
 * Fragment layouts of the m8n8 .b16 matrices (PTX ISA): lane t holds
 * elements 2(t%4) and 2(t%4)+1 of row t/4, the lower column in the low
 * half; lane 8k+r gives the shared address of row r of matrix k. */
#include <string.h>

#include "emu/emu_int.h"

#define SLOT(s) (w->R + (size_t)(s) * EMU_WARP)

static int warp_fault(emu_ctx *x, emu_warp *w, unsigned lane, int why, unsigned other, uint32_t m1, uint32_t m2)
{
	x->f.kind = EMU_F_WARP;
	x->f.tid = w->base + lane;
	x->f.store = why;
	x->f.other_tid = other;
	x->f.addr = m1;
	x->f.bytes = m2;
	return EMU_STOP_FAULT;
}

/* The lanes g agree on one member mask (slot e), are all in it, and every
 * lane of it is among them. */
static int members(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t g, uint32_t *out)
{
	const uint64_t *E = SLOT(i->e);
	unsigned first = (unsigned)__builtin_ctz(g);
	uint32_t mm = (uint32_t)E[first];
	for (uint32_t r = g; r; r &= r - 1) {
		unsigned l = (unsigned)__builtin_ctz(r);
		if ((uint32_t)E[l] != mm)
			return warp_fault(x, w, l, EMU_W_MASKS, first, (uint32_t)E[l], mm);
		if (!(mm >> l & 1))
			return warp_fault(x, w, l, EMU_W_NOT_MEMBER, l, mm, 0);
	}
	if (mm & ~g)
		return warp_fault(x, w, first, EMU_W_ABSENT, (unsigned)__builtin_ctz(mm & ~g), mm, 0);
	*out = mm;
	return 0;
}

/* .aligned: every lane of the warp executes it. */
static int aligned(emu_ctx *x, emu_warp *w, uint32_t g)
{
	if (g == EMU_FULL)
		return 0;
	unsigned first = g ? (unsigned)__builtin_ctz(g) : 0;
	return warp_fault(x, w, first, EMU_W_ALIGNED, (unsigned)__builtin_ctz(~g), g, 0);
}

static int shfl(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t g)
{
	const uint64_t *A = SLOT(i->a), *B = SLOT(i->b), *C = SLOT(i->c);
	uint64_t *D = SLOT(i->d), *P = SLOT(i->d2), src[EMU_WARP];
	memcpy(src, A, sizeof src); /* every lane reads before any writes */
	for (uint32_t r = g; r; r &= r - 1) {
		int l = __builtin_ctz(r);
		int bval = (int)(B[l] & 31), cval = (int)(C[l] & 31), seg = (int)(C[l] >> 8 & 31);
		int maxl = (l & seg) | (cval & ~seg), minl = l & seg, j, in;
		switch (i->sub) {
		case EMU_SHFL_UP: j = l - bval; in = j >= maxl; break;
		case EMU_SHFL_DOWN: j = l + bval; in = j <= maxl; break;
		case EMU_SHFL_BFLY: j = l ^ bval; in = j <= maxl; break;
		default: j = minl | (bval & ~seg); in = j <= maxl; break;
		}
		if (!in)
			j = l;
		if (!(g >> j & 1))
			return warp_fault(x, w, (unsigned)l, EMU_W_SOURCE, (unsigned)j, g, 0);
		D[l] = src[j];
		if (i->w2)
			P[l] = (uint64_t)in;
	}
	return 0;
}

static void vote(emu_warp *w, const emu_ins *i, uint32_t g, uint32_t mm)
{
	const uint64_t *A = SLOT(i->a);
	uint64_t *D = SLOT(i->d);
	uint32_t set = 0;
	for (uint32_t r = g; r; r &= r - 1) {
		unsigned l = (unsigned)__builtin_ctz(r);
		set |= (uint32_t)((A[l] ^ i->cneg) & 1) << l;
	}
	uint64_t v = i->sub == EMU_VOTE_ALL ? set == mm : i->sub == EMU_VOTE_ANY ? set != 0
		: i->sub == EMU_VOTE_UNI ? set == 0 || set == mm : set;
	for (uint32_t r = g; r; r &= r - 1)
		D[__builtin_ctz(r)] = v;
}

/* The 16-byte rows of the matrices: row r of matrix k at the address lane
 * 8k+r gives; element (r, c) of matrix k is half c of that row. */
static int matrix_rows(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t pc, int store, uint8_t *row[32])
{
	const uint64_t *A = SLOT(i->a);
	for (unsigned l = 0; l < 8u * i->sub; l++) {
		row[l] = emu_shared(x, A[l] + (uint64_t)i->imm, 16, store, w->base + l, (int)pc);
		if (!row[l]) {
			x->f.tid = w->base + l;
			return EMU_STOP_FAULT;
		}
	}
	return 0;
}

static uint16_t half(const uint64_t *R, unsigned lane, unsigned k) { return (uint16_t)(R[lane] >> (16 * k)); }

/* Element (r, c) of the fragment in register R: lane 4r + c/2, half c%2. */
static uint16_t frag(const uint64_t *R, unsigned r, unsigned c) { return half(R, 4 * r + c / 2, c % 2); }

static void put_half(uint64_t *R, unsigned lane, unsigned k, uint16_t v)
{
	R[lane] = (R[lane] & ~((uint64_t)0xffff << (16 * k))) | (uint64_t)v << (16 * k);
}

static int ldmatrix(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t pc)
{
	uint8_t *row[32];
	if (matrix_rows(x, w, i, pc, 0, row))
		return EMU_STOP_FAULT;
	uint64_t out[4][EMU_WARP] = {{0}};
	for (unsigned k = 0; k < i->sub; k++)
		for (unsigned t = 0; t < EMU_WARP; t++)
			for (unsigned h = 0; h < 2; h++) {
				unsigned r = t / 4, c = 2 * (t % 4) + h;
				uint16_t v;
				if (i->sub2) /* .trans: the fragment of the transposed matrix */
					memcpy(&v, row[8 * k + c] + 2 * r, 2);
				else
					memcpy(&v, row[8 * k + r] + 2 * c, 2);
				put_half(out[k], t, h, v);
			}
	for (unsigned k = 0; k < i->sub; k++)
		memcpy(SLOT(i->v[k]), out[k], sizeof out[k]);
	return 0;
}

static int stmatrix(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t pc)
{
	uint8_t *row[32];
	if (matrix_rows(x, w, i, pc, 1, row))
		return EMU_STOP_FAULT;
	for (unsigned k = 0; k < i->sub; k++) {
		const uint64_t *R = SLOT(i->v[k]);
		for (unsigned r = 0; r < 8; r++)
			for (unsigned c = 0; c < 8; c++) {
				uint16_t v = i->sub2 ? frag(R, c, r) : frag(R, r, c);
				memcpy(row[8 * k + r] + 2 * c, &v, 2);
			}
	}
	return 0;
}

static void movmatrix(emu_warp *w, const emu_ins *i)
{
	const uint64_t *A = SLOT(i->a);
	uint64_t out[EMU_WARP] = {0};
	for (unsigned t = 0; t < EMU_WARP; t++)
		for (unsigned h = 0; h < 2; h++)
			put_half(out, t, h, frag(A, 2 * (t % 4) + h, t / 4));
	memcpy(SLOT(i->d), out, sizeof out);
}

/* A bar.warp.sync of every lane still running orders their shared-memory
 * accesses before it with those after (mem.c compares the count). */
static void warpsync(emu_ctx *x, emu_warp *w, uint32_t mm)
{
	if ((w->run & ~mm) == 0)
		x->wgen[w->base / EMU_WARP]++;
}

int emu_warp_op(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t g, uint32_t pc)
{
	uint32_t mm = 0;
	switch (i->op) {
	case EMU_OP_ACTIVEMASK:
		for (uint32_t r = g; r; r &= r - 1)
			SLOT(i->d)[__builtin_ctz(r)] = g;
		return 0;
	case EMU_OP_SHFL:
		return members(x, w, i, g, &mm) ? EMU_STOP_FAULT : shfl(x, w, i, g);
	case EMU_OP_VOTE:
		if (members(x, w, i, g, &mm))
			return EMU_STOP_FAULT;
		vote(w, i, g, mm);
		return 0;
	case EMU_OP_WARPSYNC:
		if (members(x, w, i, g, &mm))
			return EMU_STOP_FAULT;
		warpsync(x, w, mm);
		return 0;
	case EMU_OP_LDMATRIX:
		return aligned(x, w, g) ? EMU_STOP_FAULT : ldmatrix(x, w, i, pc);
	case EMU_OP_STMATRIX:
		return aligned(x, w, g) ? EMU_STOP_FAULT : stmatrix(x, w, i, pc);
	default:
		if (aligned(x, w, g))
			return EMU_STOP_FAULT;
		movmatrix(w, i);
		return 0;
	}
}
