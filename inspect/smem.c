/* smem: show the generator's shared-memory bank model. The numbers come
 * from the `// ptxpose-smem` lines, which the generator computes from its
 * own address arithmetic; nothing here recomputes them. */
#include "inspect/inspect.h"

void ins_smem_describe(const meta_smem *a, strbuf *out)
{
	sb_printf(out, "%s %s: %u-byte, %u wavefront%s per request (ideal %u) ",
		  a->op_store ? "st" : "ld", a->id, a->bytes, a->wavefronts,
		  a->wavefronts == 1 ? "" : "s", a->ideal);
	if (a->wavefronts <= a->ideal)
		sb_add(out, "conflict-free");
	else if (a->ideal && a->wavefronts % a->ideal == 0)
		sb_printf(out, "%u-way", a->wavefronts / a->ideal);
	else
		sb_printf(out, "%.2fx ideal", a->ideal ? (double)a->wavefronts / a->ideal : 0.0);
}

/* a/b > c/d without division (ideal 0 counts as worst) */
static int worse(const meta_smem *x, const meta_smem *y)
{
	return (unsigned long long)x->wavefronts * y->ideal >
	       (unsigned long long)y->wavefronts * x->ideal;
}

const meta_smem *ins_smem_worst(const px_meta *m, int store)
{
	const meta_smem *w = NULL;
	for (int i = 0; i < m->nsmem; i++)
		if (m->smem[i].op_store == store && (!w || worse(&m->smem[i], w)))
			w = &m->smem[i];
	return w;
}
