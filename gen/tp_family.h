/* tp_family: the generator's kernel families as one table (gen/tp_family.c).
 *
 * A row says everything the driver (gen/tp.c) and the Lua binding
 * (gen/lptx.c) need of a family: its name, the Lua parameter and value that
 * choose it, its own parameters (name, type, default, range, where in its
 * struct), its validation, the metadata header it writes and its emitter.
 * Nothing outside a family's own files reads its parameters; a parameter of
 * another family set away from its default reaches the family's validation
 * as p->foreign. A new family is its file(s) and one row (gen/README.md). */
#ifndef GEN_TP_FAMILY_H
#define GEN_TP_FAMILY_H

#include <stddef.h>

#include "common/strbuf.h"
#include "gen/tp.h"

typedef enum { TP_P_INT, TP_P_BOOL, TP_P_OPTION, TP_P_PAIR } tp_ptype;

#define TP_NOWHERE ((size_t)-1) /* a parameter that only chooses: not stored */
#define TP_TARGET "sm_80"     /* the .target of a family that needs nothing newer */

typedef struct {
	const char *key;          /* the Lua name */
	tp_ptype type;            /* stored as unsigned (int, pair) or int (bool, option) */
	long def, def2;           /* default: an option's index; a pair's two halves */
	long lo, hi;              /* an integer's range (a pair's: 1..65536), checked where it is read */
	const char *const *names; /* an option's values, NULL-ended */
	size_t off, off2;         /* where it lives: the family's struct (tp_params for the common ones) */
} tp_param;

/* Parameter rows, for the families' tables. */
#define TP_INT(k, d, l, h, s, f) {k, TP_P_INT, d, 0, l, h, NULL, offsetof(s, f), 0}
#define TP_BOOL(k, s, f) {k, TP_P_BOOL, 0, 0, 0, 1, NULL, offsetof(s, f), 0}
#define TP_OPTION(k, n, s, f) {k, TP_P_OPTION, 0, 0, 0, 0, n, offsetof(s, f), 0}
#define TP_CHOICE(k, n) {k, TP_P_OPTION, 0, 0, 0, 0, n, TP_NOWHERE, 0}
#define TP_END {NULL, 0, 0, 0, 0, 0, NULL, 0, 0}

struct tp_family {
	const char *name;
	/* chosen when the Lua parameter select_key has the value select_val
	 * (NULL: any value but its default); the first row that matches wins,
	 * and the table's last row is the default */
	const char *select_key, *select_val;
	const tp_param *params;      /* its own parameters; a NULL key ends them */
	const char *const *ignores;  /* other families' parameters it takes and ignores; NULL-ended */
	const char *target;          /* .target of its kernels */
	const void *kind;            /* what an emitter shared by several rows needs to tell them apart */
	int (*validate)(const tp_params *p, char *err, size_t errlen); /* after the common checks */
	void (*header)(const tp_params *p, strbuf *h);                 /* after the generated-by lines */
	int (*emit)(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen);
};

/* The rows, the default last; NULL ends them. */
extern const tp_family *const tp_families[];

/* Parameter i of all of them: the common ones, then each family's own in
 * the table's order; NULL past the last. *owner: its family (NULL: common). */
const tp_param *tp_param_at(int i, const tp_family **owner);

/* The default family (the table's last row). */
const tp_family *tp_family_default(void);

/* The family named name, or NULL. */
const tp_family *tp_family_named(const char *name);

/* The parameter named key, or NULL. */
const tp_param *tp_param_find(const char *key, const tp_family **owner);

/* The family that a set of values chooses: value(ud, q) is parameter q's. */
const tp_family *tp_family_choose(long (*value)(void *ud, const tp_param *q), void *ud);

#endif
