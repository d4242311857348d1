/* mem: the two memories a kernel touches. Global memory is the caller's
 * `in` and `out` at distinct fake device addresses, checked against their
 * exact sizes; shared memory is one buffer per CTA with a shadow byte
 * record that finds races inside a barrier interval. */
#include "emu/emu_int.h"

static int misaligned(uint64_t addr, unsigned bytes) { return (addr & (bytes - 1)) != 0; }

uint8_t *emu_global(emu_ctx *x, uint64_t addr, unsigned bytes, int store)
{
	const emu_launch *l = x->l;
	emu_fault *f = &x->f;
	f->addr = addr;
	f->bytes = bytes;
	f->store = store;
	if (misaligned(addr, bytes)) {
		f->kind = EMU_F_GLOBAL_MISALIGN;
		return NULL;
	}
	uint64_t off = addr - EMU_IN_ADDR(l);
	if (off < l->in_bytes && bytes <= l->in_bytes - off) {
		if (store) {
			f->kind = EMU_F_GLOBAL_READONLY;
			return NULL;
		}
		return (uint8_t *)l->in + off;
	}
	off = addr - EMU_OUT_ADDR(l);
	if (off < l->out_bytes && bytes <= l->out_bytes - off)
		return (uint8_t *)l->out + off;
	f->kind = EMU_F_GLOBAL_OOB;
	return NULL;
}

static uint8_t *race(emu_ctx *x, unsigned other, int other_ins, int other_store)
{
	x->f.kind = EMU_F_RACE;
	x->f.other_tid = other - 1;
	x->f.other_ins = other_ins;
	x->f.other_store = other_store;
	return NULL;
}

uint8_t *emu_shared(emu_ctx *x, uint64_t addr, unsigned bytes, int store, unsigned tid, int ins)
{
	emu_fault *f = &x->f;
	if (misaligned(addr, bytes) || addr >= x->smem_bytes || bytes > x->smem_bytes - addr) {
		f->kind = misaligned(addr, bytes) ? EMU_F_SHARED_MISALIGN : EMU_F_SHARED_OOB;
		f->addr = addr;
		f->bytes = bytes;
		f->store = store;
		return NULL;
	}
	uint16_t me = (uint16_t)(tid + 1);
	uint32_t ep = x->epoch;
	/* accesses of this warp's other lanes before its last bar.warp.sync
	 * (of the whole warp) are ordered with this one: no race */
	const unsigned warp = tid / EMU_WARP;
	const uint16_t gen = x->wgen[warp];
#define ORDERED(who, wgen) ((unsigned)((who) - 1) / EMU_WARP == warp && (wgen) != gen)
	emu_shadow *s = x->shadow + addr;
	for (unsigned k = 0; k < bytes; k++, s++) {
		if (s->wep == ep && s->w != me && !ORDERED(s->w, s->wgen)) {
			f->addr = addr + k;
			f->bytes = bytes;
			f->store = store;
			return race(x, s->w, (int)s->wins, 1);
		}
		if (store) {
			if (s->rep == ep) {
				int c1 = s->r1 != me && !ORDERED(s->r1, s->r1gen);
				int c2 = s->r2 && s->r2 != me && !ORDERED(s->r2, s->r2gen);
				if (c1 || c2) {
					f->addr = addr + k;
					f->bytes = bytes;
					f->store = store;
					return race(x, c1 ? s->r1 : s->r2, (int)(c1 ? s->r1ins : s->r2ins), 0);
				}
			}
			s->wep = ep;
			s->w = me;
			s->wins = (uint32_t)ins;
			s->wgen = gen;
			continue;
		}
		if (s->rep == ep && s->r2 && ORDERED(s->r2, s->r2gen))
			s->r2 = 0;
		if (s->rep == ep && ORDERED(s->r1, s->r1gen)) { /* drop it: a later writer is ordered after it */
			s->r1 = s->r2, s->r1ins = s->r2ins, s->r1gen = s->r2gen;
			s->r2 = 0;
			if (!s->r1)
				s->rep = 0;
		}
		if (s->rep != ep) {
			s->rep = ep;
			s->r1 = me;
			s->r2 = 0;
			s->r1ins = (uint32_t)ins;
			s->r1gen = gen;
		} else if (s->r1 != me && !s->r2) {
			s->r2 = me;
			s->r2ins = (uint32_t)ins;
			s->r2gen = gen;
		}
	}
#undef ORDERED
	return x->smem + addr;
}
