/* tp_emit: PTX emission for the transpose generator (called by tp.c after
 * validation). */
#ifndef GEN_TP_EMIT_H
#define GEN_TP_EMIT_H

#include "common/strbuf.h"
#include "gen/tp.h"
#include "gen/tp_geom.h"

#define TP_TARGET "sm_80"

int tp_emit_tile(const tp_params *p, const tp_geom *g, const char *header,
		 strbuf *out, char *err, size_t errlen);
int tp_emit_linear(const tp_params *p, const char *header, strbuf *out,
		   char *err, size_t errlen);

/* The entry's parameter list (docs/DESIGN.md, kernel ABI). */
extern const char tp_entry_params[];

#endif
