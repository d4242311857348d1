/* parse: the parser's state and the helpers parse.c (directives,
 * declarations, instructions) and operand.c (operands) share. Internal to
 * emu/. */
#ifndef EMU_PARSE_H
#define EMU_PARSE_H

#include "emu/emu_int.h"

typedef struct {
	const emu_tok *t;   /* the next token */
	emu_src *s;
	strbuf *diag;
	int in_entry;
} emu_parser;

/* "line N: ..." into the diagnostics; returns -1. */
int emu_perr(emu_parser *P, const emu_tok *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int emu_is_punct(const emu_tok *t, char c);
int emu_is_word(const emu_tok *t, const char *w);
/* "end of file", "';'", "punctuation" or "token", for messages. */
const char *emu_tok_what(const emu_tok *t);
/* Consume punctuation c, or fail naming what is there instead. */
int emu_expect(emu_parser *P, char c);

/* One operand at P->t into *o (operand.c). */
int emu_parse_operand(emu_parser *P, emu_ropd *o);

#endif
