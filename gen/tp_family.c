/* tp_family: the table of kernel families (gen/tp_family.h), and the
 * parameters every family shares. */
#include "gen/tp_family.h"

#include <string.h>

/* Each family's row, defined in its own file. */
extern const tp_family tp_family_tile, tp_family_movmatrix, tp_family_ldmatrix, tp_family_stmatrix,
	tp_family_shfl, tp_family_flat, tp_family_skinny, tp_family_linear;
extern const tp_family tp_family_rowcopy, tp_family_pack, tp_family_skinny_reg;

/* In the order of choice: the `family` key's, the tiled copy (op=), the
 * small-dimension kernels (skinny=), the 1-D kernel (grid=); last the default, which every set of
 * values matches. */
const tp_family *const tp_families[] = {
	&tp_family_movmatrix,                                             /* gen/tp_movmatrix.c */
	&tp_family_ldmatrix,                                              /* gen/tp_ldmatrix.c */
	&tp_family_stmatrix,                                              /* gen/tp_stmatrix.c */
	&tp_family_shfl,                                                  /* gen/tp_shfl.c */
	&tp_family_flat,                                                  /* gen/tp_flat.c */
	&tp_family_pack,                                                  /* gen/tp_pack.c */
	&tp_family_skinny_reg,                                            /* gen/tp_skinny_reg.c */
	&tp_family_rowcopy,                                               /* gen/tp_rowcopy.c: op="copy" */
	&tp_family_skinny,                                                /* gen/tp_skinny.c */
	&tp_family_linear,                                                /* gen/tp_linear.c */
	&tp_family_tile,                                                  /* gen/tp_tile.c */
	NULL,
};

/* The values of `family`: the rows it chooses, the default first. */
static const char *const family_names[] = {"tile", "movmatrix", "ldmatrix", "stmatrix",
					   "shfl", "flat", "pack", "skinny_reg", NULL};

/* Every family's: the kernel's name is a string, read on its own. */
static const tp_param common[] = {
	TP_INT("elem", 32, 1, 1024, tp_params, elem),
	{"tile", TP_P_PAIR, 32, 32, 1, 65536, NULL, offsetof(tp_params, tm), offsetof(tp_params, tn)},
	{"threads", TP_P_PAIR, 32, 8, 1, 65536, NULL, offsetof(tp_params, tx), offsetof(tp_params, ty)},
	TP_INT("vec", 1, 1, 64, tp_params, vec),
	TP_INT("group", 0, 0, 65535, tp_params, group),
	TP_INT("max_regs", 0, 0, 255, tp_params, max_regs),
	TP_INT("abi", 2, 2, 3, tp_params, abi),
	TP_CHOICE("family", family_names),
	TP_END,
};

const tp_param *tp_param_at(int i, const tp_family **owner)
{
	*owner = NULL;
	for (const tp_param *q = common; q->key; q++)
		if (i-- == 0)
			return q;
	for (int f = 0; tp_families[f]; f++)
		for (const tp_param *q = tp_families[f]->params; q && q->key; q++)
			if (i-- == 0) {
				*owner = tp_families[f];
				return q;
			}
	return NULL;
}

const tp_family *tp_family_default(void)
{
	int f = 0;
	while (tp_families[f + 1])
		f++;
	return tp_families[f];
}

const tp_family *tp_family_named(const char *name)
{
	for (int f = 0; tp_families[f]; f++)
		if (!strcmp(tp_families[f]->name, name))
			return tp_families[f];
	return NULL;
}

const tp_param *tp_param_find(const char *key, const tp_family **owner)
{
	const tp_param *q;
	for (int i = 0; (q = tp_param_at(i, owner)); i++)
		if (!strcmp(q->key, key))
			return q;
	return NULL;
}

const tp_family *tp_family_choose(long (*value)(void *ud, const tp_param *q), void *ud)
{
	for (int f = 0; tp_families[f + 1]; f++) {
		const tp_family *fam = tp_families[f], *owner;
		const tp_param *q = tp_param_find(fam->select_key, &owner);
		long v = value(ud, q);
		if (v != q->def && (!fam->select_val || !strcmp(q->names[v], fam->select_val)))
			return fam;
	}
	return tp_family_default();
}
