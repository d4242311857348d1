/* tp_emit: PTX emission for the transpose generator (called by tp.c after
 * validation). */
#ifndef GEN_TP_EMIT_H
#define GEN_TP_EMIT_H

#include "common/strbuf.h"
#include "gen/ptxb.h"
#include "gen/tp.h"
#include "gen/tp_geom.h"

#define TP_TARGET "sm_80"

int tp_emit_tile(const tp_params *p, const tp_geom *g, const char *header,
		 strbuf *out, char *err, size_t errlen);
int tp_emit_linear(const tp_params *p, const char *header, strbuf *out,
		   char *err, size_t errlen);

/* The small-dimension family (tp_skinny.c): its checks, its header lines
 * after the generated-by marker, its kernel. */
int tp_skinny_validate(const tp_params *p, char *err, size_t errlen);
void tp_skinny_header(const tp_params *p, strbuf *h);
int tp_emit_skinny(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen);

/* The warp-collective study families (tp_warp.c): checks, header lines,
 * kernel. */
int tp_warp_validate(const tp_params *p, char *err, size_t errlen);
void tp_warp_header(const tp_params *p, strbuf *h);
int tp_emit_warp(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen);

/* Assemble the kernel p from builder b (its .maxnreg, the entry with the
 * ABI's parameters, .reqntid p->tx x ty) into out and free b. 0, or -1
 * with err. */
int tp_finish(ptxb *b, const tp_params *p, const char *header, unsigned ty, strbuf *out, char *err,
	      size_t errlen);

#endif
