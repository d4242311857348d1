/* ptxb: a small builder for readable, deterministic PTX.
 *
 * Registers are named by role and declared in one commented block at the top
 * of the kernel; instructions are written with an aligned opcode column; each
 * scheduling group opens with a one-line comment saying why. The same calls
 * give the same bytes. */
#ifndef GEN_PTXB_H
#define GEN_PTXB_H

#include "common/strbuf.h"

typedef struct ptxb ptxb;

ptxb *ptxb_new(void);
void ptxb_free(ptxb *b);

/* Declare a register of PTX type `type` ("b32", "b64", "pred") named
 * "%" + the formatted role, with a comment for the declaration block.
 * Returns the name ("%tile_row"), owned by the builder. A name declared
 * twice is a programming error: the builder records it (ptxb_error). */
const char *ptxb_reg(ptxb *b, const char *type, const char *why,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The name of a register declared as "%" + role, or NULL. */
const char *ptxb_find(const ptxb *b, const char *role);

/* A module-scope line (e.g. a .shared declaration), written before the entry. */
void ptxb_global(ptxb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open a scheduling group: a blank line and "// why". */
void ptxb_group(ptxb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A comment line inside the body. */
void ptxb_note(ptxb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ptxb_label(ptxb *b, const char *name);

/* One instruction: `guard` is NULL or a predicate like "%p" / "!%p";
 * `op` the opcode with its modifiers; the rest its operands. */
void ptxb_op(ptxb *b, const char *guard, const char *op, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Assemble the file: `header` (comment lines, already prefixed with "//"),
 * then the module directives, module-scope lines, and the entry with the
 * given parameter list and .reqntid. Returns 0, or -1 if an error was
 * recorded (duplicate register, allocation failure). */
int ptxb_finish(ptxb *b, strbuf *out, const char *header, const char *target,
		const char *entry, const char *params, unsigned ntid_x,
		unsigned ntid_y);

/* Cap the registers a thread may use (.maxnreg, after .reqntid); 0: none. */
void ptxb_maxnreg(ptxb *b, unsigned n);

const char *ptxb_error(const ptxb *b);

#endif
