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
	emu_shadow *s = x->shadow + addr;
	for (unsigned k = 0; k < bytes; k++, s++) {
		if (s->wep == ep && s->w != me) {
			f->addr = addr + k;
			f->bytes = bytes;
			f->store = store;
			return race(x, s->w, (int)s->wins, 1);
		}
		if (store) {
			if (s->rep == ep && (s->r1 != me || s->r2)) {
				f->addr = addr + k;
				f->bytes = bytes;
				f->store = store;
				int first = s->r1 != me;
				return race(x, first ? s->r1 : s->r2, (int)(first ? s->r1ins : s->r2ins), 0);
			}
			s->wep = ep;
			s->w = me;
			s->wins = (uint32_t)ins;
		} else if (s->rep != ep) {
			s->rep = ep;
			s->r1 = me;
			s->r2 = 0;
			s->r1ins = (uint32_t)ins;
		} else if (s->r1 != me && !s->r2) {
			s->r2 = me;
			s->r2ins = (uint32_t)ins;
		}
	}
	return x->smem + addr;
}
