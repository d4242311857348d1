/* tp_access: the tile kernel's accesses that its paths share (gen/tp_tile.h):
 * operand lists of a thread's blocks, the thread's first block, an access's
 * offsets, one element's load or store, one shared address. */
#include <stdio.h>

#include "gen/tp_tile.h"

/* "{%a, %b, ...}" (or "%a") of block k's row vector i or column vector c. */
const char *tp_unit_list(char *buf, size_t n, const em *e, unsigned k, int row, unsigned j)
{
	const char *const *u = row ? e->xr[k][j] : e->xc[k][j];
	if (e->na == 1) {
		snprintf(buf, n, "%s", u[0]);
		return buf;
	}
	size_t len = (size_t)snprintf(buf, n, "{");
	for (unsigned i = 0; i < e->na; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", u[i]);
	snprintf(buf + len, n - len, "}");
	return buf;
}

/* The thread's first block (rb0, gc0) under mapping m, into two registers. */
void tp_block0(em *e, const tp_map *m, int write_map, const char *tag,
			const char **rb0, const char **gc0)
{
	ptxb *b = e->b;
	*rb0 = ptxb_reg(b, "b32", "first block row of this thread", "%s_brow", tag);
	*gc0 = ptxb_reg(b, "b32", "first block column of this thread", "%s_bcol", tag);
	const char *along = write_map ? *rb0 : *gc0, *across = write_map ? *gc0 : *rb0;
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", along, e->t, m->fast - 1);
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", across, e->t, tp_lg2(m->fast));
}


/* Row offset m and column offset n (elements) of access (k, s). */
void tp_gaccess(const em *e, const gside *s, unsigned k, unsigned j,
		    unsigned *mrow, unsigned *ncol)
{
	unsigned v = e->g->v;
	if (!s->store) {  /* input row rb*v + j, columns gc*v .. */
		*mrow = s->m->dr[k] * v + j;
		*ncol = s->m->dc[k] * v;
	} else {          /* output row gc*v + j, columns rb*v .. */
		*mrow = s->m->dc[k] * v + j;
		*ncol = s->m->dr[k] * v;
	}
}

/* Element (i, c) of block k in registers: its unit and, for packed
 * elements, the bit offset inside that word. */
static const char *elem_unit(const em *e, unsigned k, unsigned i, unsigned c, int store, unsigned *bit)
{
	unsigned es = e->g->es;
	*bit = 0;
	if (es >= 4) /* one unit per element; 16-byte ones are a pair, see tp_elem_access */
		return e->xr[k][i][es == 16 ? 0 : c];
	if (store) { /* output row c holds elements i packed */
		*bit = (i % e->epw) * 8 * es;
		return e->xc[k][c][i / e->epw];
	}
	*bit = (c % e->epw) * 8 * es;
	return e->xr[k][i][c / e->epw];
}

/* One element access: predicated by `guard` (the edge path) or not. */
void tp_elem_access(em *e, const gside *s, unsigned k, unsigned i, unsigned c, const char *a,
			const char *guard)
{
	ptxb *b = e->b;
	unsigned es = e->g->es, bit;
	char op[64], regs[80];
	const char *u = elem_unit(e, k, i, c, s->store, &bit);
	const char *base = s->store ? e->stop : e->ldop;
	if (es == 16) {
		snprintf(regs, sizeof regs, "{%s, %s}", e->xr[k][0][0], e->xr[k][0][1]);
		tp_unit_op(op, sizeof op, base, 2, "b64");
	} else if (es >= 4) {
		snprintf(regs, sizeof regs, "%s", u);
		tp_unit_op(op, sizeof op, base, 1, e->ut);
	} else {
		snprintf(regs, sizeof regs, "%s", e->tmp);
		snprintf(op, sizeof op, "%s.b%u", base, 8 * es);
	}
	if (s->store) {
		if (es < 4 && bit)
			ptxb_op(b, NULL, "shr.b32", "%s, %s, %u", e->tmp, u, bit);
		else if (es < 4)
			snprintf(regs, sizeof regs, "%s", u);
		ptxb_op(b, guard, op, "%s, %s", a, regs);
		return;
	}
	ptxb_op(b, guard, op, "%s, %s", regs, a);
	if (es < 4)
		ptxb_op(b, NULL, "bfi.b32", "%s, %s, %s, %u, %u", u, e->tmp, u, bit, 8 * es);
}

/* One shared address: row a0 + cr, granule column b0 + db, swizzled. The
 * scratch registers are declared once per tag. */
void tp_smem_addr(em *e, const char *tag, const char *a0, const char *b0, unsigned cr,
		  unsigned db, const char *dst)
{
	ptxb *b = e->b;
	const tp_geom *g = e->g;
	char name[40];
	snprintf(name, sizeof name, "%s_row", tag);
	const char *srow = ptxb_find(b, name + 0);
	if (!srow) {
		srow = ptxb_reg(b, "b32", NULL, "%s_row", tag);
		ptxb_reg(b, "b32", NULL, "%s_col", tag);
		if (g->swz)
			ptxb_reg(b, "b32", "swizzle: low bits of the shared row", "%s_xor", tag);
	}
	snprintf(name, sizeof name, "%s_col", tag);
	const char *scol = ptxb_find(b, name);
	snprintf(name, sizeof name, "%s_xor", tag);
	const char *sxor = g->swz ? ptxb_find(b, name) : NULL;
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", srow, a0, cr);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", scol, b0, db);
	if (sxor) {
		const char *from = srow;
		if (g->swz_shr) {
			ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", sxor, from, g->swz_shr);
			from = sxor;
		}
		if (g->swz_shl) {
			ptxb_op(b, NULL, "shl.b32", "%s, %s, %u", sxor, from, g->swz_shl);
			from = sxor;
		}
		ptxb_op(b, NULL, "and.b32", "%s, %s, %u", sxor, from, g->swz);
		ptxb_op(b, NULL, "xor.b32", "%s, %s, %s", scol, scol, sxor);
	}
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", scol, srow, g->pitch, scol);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", dst, scol, g->gbytes, e->sbase);
}
