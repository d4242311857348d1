/* tp: the transpose generator's driver. One generator with parameters, not
 * a file per variant: out[j][i] = in[i][j], row-major, leading dimensions in
 * elements, 64-bit addressing, kernel ABI as in docs/DESIGN.md.
 *
 * A kernel belongs to one family (gen/tp_family.h: the table). Its
 * parameters are the common ones below, which every family reads, and the
 * family's own, which only it reads (in `own`, laid out by the family's
 * struct). Parameters are set by their Lua names (tp_set), so that a
 * caller never needs a family's struct. */
#ifndef GEN_TP_H
#define GEN_TP_H

#include <stddef.h>

#include "common/strbuf.h"
#include "loader/meta.h"

typedef struct tp_family tp_family;

#define TP_OWN_MAX 64 /* bytes of a family's own parameters */

typedef struct {
	char name[META_VAL_MAX + 1]; /* kernel entry name: a metadata value (loader/meta.h) */
	unsigned elem;        /* element width in bits */
	unsigned tm, tn;      /* tile: input rows × input columns per block */
	unsigned tx, ty;      /* threads per block */
	unsigned vec;         /* elements per global access (1, 2, 4, 8, 16) */
	unsigned group;       /* 0: tiles in launch order; G: G tile columns at a time, top to bottom */
	unsigned max_regs;    /* 0: ptxas decides; else .maxnreg (registers a thread) */
	unsigned abi;         /* kernel ABI: 2 (one batch dimension) or 3 (up to six; loader/abi.h) */
	const tp_family *family;
	union {
		unsigned char bytes[TP_OWN_MAX];
		unsigned align;
	} own;                /* the family's own parameters (its struct; zeros and its defaults) */
	const char *foreign;  /* the first parameter of another family set away from its default, or NULL */
	const tp_family *foreign_owner; /* that parameter's family */
	char script[128];     /* the script that asked, for the header */
} tp_params;

/* Defaults: the tile family, 32-bit, 32x32 tile, 32x8 threads, vec 1, no
 * shared memory. */
void tp_defaults(tp_params *p);

/* Make p a kernel of family f, its own parameters at their defaults (the
 * common ones and the name stay). */
void tp_use(tp_params *p, const tp_family *f);

/* Set the parameter with Lua name `key` (an option by its index, a bool as
 * 0/1, a pair's first half; "tile" and "threads" take two values: use
 * tp_set2). A parameter of another family is not stored: if v is not its
 * default, it is remembered in p->foreign for tp_validate to refuse (or
 * ignored, where p's family ignores it). -1: no such parameter. */
int tp_set(tp_params *p, const char *key, long v);
int tp_set2(tp_params *p, const char *key, long a, long b);

/* Check a parameter set. Returns 0, or -1 with "parameter: reason" in err. */
int tp_validate(const tp_params *p, char *err, size_t errlen);

/* Generate the PTX for p (validated first). Returns 0 or -1 with err. */
int tp_generate(const tp_params *p, strbuf *out, char *err, size_t errlen);

#endif
