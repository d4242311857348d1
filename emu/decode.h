/* decode: the state shared by decode.c (names, slots, operands) and
 * opcodes.c (one decoder per mnemonic). Internal to emu/. */
#ifndef EMU_DECODE_H
#define EMU_DECODE_H

#include "emu/emu_int.h"

#define DEC_MAX_MODS 12

/* A type modifier: bytes (0 for .pred) and class 'b', 'u', 's', 'f', 'p'. */
typedef struct {
	int bytes;
	char cls;
} dec_type;

typedef struct {
	const emu_src *s;
	emu_prog *p;
	strbuf *diag;
	const emu_rins *r;          /* the instruction being decoded */
	emu_ins *ins;               /* its decoded form */
	char base[32];              /* mnemonic without modifiers: "ld" */
	char mods[DEC_MAX_MODS][32];
	int nmods;
	unsigned used;              /* bit k: mods[k] consumed */
	uint8_t *slot_kind;         /* SLOT_REG, SLOT_SREG, SLOT_CONST per slot */
	int capslots;
	emu_map consts;             /* value (8 bytes) -> its constant slot */
	emu_map vars;               /* shared variable name -> index in p->vars */
} dec;

enum { SLOT_REG, SLOT_SREG, SLOT_CONST };

/* Flags for dec_src / dec_dst. */
enum {
	DEC_WIDER = 1,   /* the register may be wider than the type (ld, st, cvt) */
	DEC_VAR = 2,     /* a .shared variable's name stands for its address (mov) */
	DEC_NOIMM = 4,
};

uint64_t dec_mask(int bytes);

/* Errors: "line N: ..." into diag; all return -1. */
int dec_err(dec *D, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "line N: unsupported instruction 'OP'" plus an optional reason. */
int dec_unsupported(dec *D, const char *why);

/* Modifiers: consume one equal to `m` (1/0); the next type (1/0). */
int dec_take(dec *D, const char *m);
int dec_take_type(dec *D, dec_type *t);
/* Consume cache and eviction hints that do not change the result. */
void dec_take_hints(dec *D, int store);
/* -1 (unsupported) if a modifier was left unconsumed. */
int dec_done(dec *D);

int dec_nopd(dec *D, int n);
/* Operand k as a source of `bytes` width (0: predicate) into *slot. */
int dec_src(dec *D, int k, int bytes, int flags, uint16_t *slot);
/* Operand k as a destination register. */
int dec_dst(dec *D, int k, int bytes, int flags, uint16_t *slot);
/* A name (vector element, '|' second destination) as a register. */
int dec_reg_name(dec *D, emu_name n, int bytes, int flags, uint16_t *slot);
/* A constant slot holding v. */
int dec_const(dec *D, uint64_t v, uint16_t *slot);
/* Operand k as an address for `space` ('g' global/generic, 's' shared,
 * 'p' param): base slot and offset into D->ins->a / imm. */
int dec_addr(dec *D, int k, char space);
/* Label operand k into D->ins->imm (an instruction index). */
int dec_label(dec *D, int k);

/* Decode D->r into D->ins (opcodes.c). */
int dec_opcode(dec *D);
/* The warp-synchronous instructions (opwarp.c); bar.warp.sync from d_bar. */
int dec_opwarp(dec *D);
int dec_warpsync(dec *D);

#endif
