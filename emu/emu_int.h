/* emu_int: the emulator's internal types, shared by its files.
 *
 * Pipeline: emu_lex (text -> tokens), emu_parse (tokens -> declarations and
 * raw instructions; operand.c reads operands, map.c hashes names), emu_decode (raw instructions -> emu_ins with resolved
 * slots; cfg.c the reconvergence points), emu_exec (a warp's lanes in
 * lockstep until a barrier or exit), emu_cta (a CTA's warps and barriers,
 * the grid), emu_mem (global/shared access, bounds and
 * race shadow), emu_diag (the one-line fault messages). */
#ifndef EMU_EMU_INT_H
#define EMU_EMU_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "emu/emu.h"

#define EMU_NAME_MAX 64
#define EMU_MAX_OPD 5
#define EMU_MAX_PARAMS 16
#define EMU_MAX_PARAM_BYTES 1024 /* the parameter list's bytes (kernel ABI v3: 248) */

/* What one program may declare, so that a hostile or broken file costs
 * bounded time and memory (each limit is a "line N: ..." error). The
 * committed kernels use a few hundred registers, six labels and about 3,000
 * instructions. */
#define EMU_MAX_REGS 16384          /* declared registers (ranges expanded) */
#define EMU_MAX_LABELS 65536
#define EMU_MAX_INS (1 << 18)       /* instructions in the entry */
#define EMU_MAX_SVARS 1024          /* .shared variables */
#define EMU_MAX_SMEM (256u << 10)   /* bytes of shared memory per CTA (GPUs: 228 KiB) */
#define EMU_MAX_REGFILE (64u << 20) /* bytes of emulated registers for one CTA */
#define EMU_MAX_OFFSET INT32_MAX    /* |imm| in [reg+imm] */

/* ---- names (map.c): byte-string keys to values >= 0, linear time ---- */
typedef struct emu_map_ent emu_map_ent;
typedef struct {
	emu_map_ent *ent;
	size_t cap, n;
	char *pool;
	size_t poollen, poolcap;
} emu_map;

/* The value stored under key, or -1. */
int emu_map_get(const emu_map *m, const void *key, size_t len);
/* Store val (>= 0) under key unless the key is there: returns the value
 * already stored, -1 when it inserted, -2 when out of memory. */
int emu_map_put(emu_map *m, const void *key, size_t len, int val);
void emu_map_free(emu_map *m);

/* ---- lexer (lex.c) ---- */
enum emu_tok_kind { EMU_T_END, EMU_T_WORD, EMU_T_NUM, EMU_T_PUNCT, EMU_T_STR };

typedef struct {
	uint8_t kind;
	char punct;        /* EMU_T_PUNCT */
	int line;
	const char *s;     /* the token's text in the source */
	int len;
	uint64_t num;      /* EMU_T_NUM */
} emu_tok;

/* Tokenize `src`. Returns a malloc'd array ending with EMU_T_END, or NULL
 * with "line N: ..." in diag. Comments are dropped. */
emu_tok *emu_lex(const char *src, strbuf *diag);

/* ---- parse (parse.c): syntax only, names unresolved ---- */
typedef struct {
	const char *s;
	int len;
} emu_name;

enum emu_ropd_kind { EMU_RO_NAME, EMU_RO_IMM, EMU_RO_VEC, EMU_RO_ADDR };

typedef struct {
	uint8_t kind;
	uint8_t neg;        /* NAME: '!' prefix */
	uint8_t nvec;       /* VEC */
	uint8_t has_base;   /* ADDR: a register or variable name before the offset */
	uint8_t has_pipe;   /* NAME: "p|q" (setp's second destination) */
	emu_name name;      /* NAME; ADDR base */
	emu_name pipe;
	emu_name vec[4];
	int64_t imm;        /* IMM; ADDR offset */
} emu_ropd;

typedef struct {
	int line;
	uint8_t has_guard, guard_neg;
	emu_name guard;
	emu_name op;        /* "ld.global.v4.b32" */
	int nopd;
	emu_ropd opd[EMU_MAX_OPD];
	const char *text;   /* the statement from guard to ';' */
	int textlen;
} emu_rins;

typedef struct {
	char name[EMU_NAME_MAX];
	uint8_t bytes;      /* 1, 2, 4, 8; 0 for .pred */
} emu_regdecl;

typedef struct {
	char name[EMU_NAME_MAX];
	uint32_t align, size, off;
	uint8_t is_extern;  /* size comes from the launch's dynamic shared memory */
	int line;
} emu_svar;

typedef struct {
	char name[EMU_NAME_MAX];
	int ins;            /* index of the next instruction */
	int line;
} emu_label;

typedef struct {
	char name[EMU_NAME_MAX];
	uint32_t bytes;     /* a scalar's 4 or 8; an array's whole size */
	uint32_t off;
} emu_param;

typedef struct {
	char entry[128];
	int entry_line;
	int nparams;
	emu_param params[EMU_MAX_PARAMS];
	uint32_t param_bytes;
	unsigned reqntid[3], maxntid[3];
	uint8_t has_reqntid, has_maxntid;
	emu_regdecl *regs;
	int nregs, capregs;
	emu_svar *svars;
	int nsvars, capsvars;
	emu_label *labels;
	int nlabels, caplabels;
	emu_rins *ins;
	int nins, capins;
	int end_line;       /* the entry's closing brace */
	emu_map regmap, labelmap, svarmap; /* name -> index in regs, labels, svars */
} emu_src;

/* Parse tokens into `s` (zeroed by the caller). 0, or -1 with diag. */
int emu_parse(const emu_tok *t, emu_src *s, strbuf *diag);
void emu_src_free(emu_src *s);

/* ---- decoded program (decode.c) ---- */
enum emu_op {
	EMU_OP_MOV, EMU_OP_PACK, EMU_OP_UNPACK,
	EMU_OP_ADD, EMU_OP_SUB, EMU_OP_MUL_LO, EMU_OP_MUL_HI, EMU_OP_MUL_WIDE,
	EMU_OP_MAD_LO, EMU_OP_MAD_HI, EMU_OP_MAD_WIDE,
	EMU_OP_DIV, EMU_OP_REM, EMU_OP_MIN, EMU_OP_MAX,
	EMU_OP_AND, EMU_OP_OR, EMU_OP_XOR, EMU_OP_NOT,
	EMU_OP_SHL, EMU_OP_SHR,
	EMU_OP_SETP, EMU_OP_SELP, EMU_OP_CVT, EMU_OP_PRMT, EMU_OP_BFI, EMU_OP_BFE,
	EMU_OP_LD_GLOBAL, EMU_OP_ST_GLOBAL, EMU_OP_LD_SHARED, EMU_OP_ST_SHARED,
	EMU_OP_LD_PARAM,
	EMU_OP_BAR, EMU_OP_BRA, EMU_OP_EXIT,
	/* warp-synchronous (warp.c) */
	EMU_OP_SHFL, EMU_OP_VOTE, EMU_OP_ACTIVEMASK, EMU_OP_WARPSYNC,
	EMU_OP_LDMATRIX, EMU_OP_STMATRIX, EMU_OP_MOVMATRIX,
};

enum emu_shfl { EMU_SHFL_UP, EMU_SHFL_DOWN, EMU_SHFL_BFLY, EMU_SHFL_IDX };
enum emu_vote { EMU_VOTE_ALL, EMU_VOTE_ANY, EMU_VOTE_UNI, EMU_VOTE_BALLOT };

enum emu_cmp { EMU_CMP_EQ, EMU_CMP_NE, EMU_CMP_LT, EMU_CMP_LE, EMU_CMP_GT, EMU_CMP_GE };
enum emu_bool { EMU_BOOL_NONE, EMU_BOOL_AND, EMU_BOOL_OR, EMU_BOOL_XOR };

/* Special registers: each one used gets a slot, filled per thread. */
enum emu_sreg {
	EMU_SR_TID_X, EMU_SR_TID_Y, EMU_SR_TID_Z,
	EMU_SR_NTID_X, EMU_SR_NTID_Y, EMU_SR_NTID_Z,
	EMU_SR_CTAID_X, EMU_SR_CTAID_Y, EMU_SR_CTAID_Z,
	EMU_SR_NCTAID_X, EMU_SR_NCTAID_Y, EMU_SR_NCTAID_Z,
	EMU_SR_LANEID, EMU_SR_WARPID,
	EMU_SR_COUNT
};

/* One decoded instruction. Every operand is a slot of the thread's register
 * file: declared registers, then special registers, then constants (the
 * immediates, variable addresses and the always-true guard). */
typedef struct {
	uint8_t op;         /* enum emu_op */
	uint8_t w;          /* operand width in bytes (type of the instruction) */
	uint8_t w2;         /* cvt: source width */
	uint8_t sgn;        /* signed type (cvt: the source's) */
	uint8_t sub;        /* setp: enum emu_cmp; ld/st: element count */
	uint8_t sub2;       /* setp: enum emu_bool; cvt: destination signed */
	uint8_t gneg;       /* guard '@!' */
	uint8_t cneg;       /* setp: '!' on the combining predicate */
	uint8_t bconst;     /* operand b is a constant: one value for every lane */
	uint8_t cconst;     /* ... operand c */
	uint16_t g;         /* guard slot (the true constant when unguarded) */
	uint16_t d, d2, a, b, c, e;  /* e: bfi's length */
	uint16_t v[4];      /* ld/st/pack/unpack: the vector's slots */
	uint64_t mask;      /* result mask (ld: of the destination registers) */
	int64_t imm;        /* ld/st: address offset; bra: target index */
	uint32_t rpc;       /* bra: where divergent lanes meet again (EMU_NO_PC: none) */
	uint32_t line;
	uint32_t text;      /* offset of the statement's text in emu_prog.text */
} emu_ins;

typedef struct {
	char name[EMU_NAME_MAX];
	uint32_t off, size;
	uint8_t is_extern;
} emu_pvar;

struct emu_prog {
	char entry[128];
	int nparams;
	emu_param params[EMU_MAX_PARAMS];
	uint32_t param_bytes;
	unsigned reqntid[3], maxntid[3];
	uint8_t has_reqntid, has_maxntid;
	emu_ins *code;
	int ncode;
	int nregs;          /* declared registers: slots [0, nregs) */
	int nslots;
	uint64_t *init;     /* a thread's register file at start */
	int sreg_slot[EMU_SR_COUNT]; /* -1 when unused */
	emu_pvar *vars;     /* shared variables, laid out */
	int nvars;
	uint32_t smem_static;  /* bytes of static shared memory */
	uint32_t dyn_align;    /* alignment of the extern shared variable, 0 if none */
	char *text;         /* the statements' texts, NUL-separated */
	uint16_t truth;     /* the always-true guard's slot */
	uint8_t warp_ops;   /* uses warp-synchronous instructions (no serial replay) */
	int *poison;        /* the registers a thread may read before writing them (cfg.c) */
	int npoison;
};

/* Fill the reconvergence point of every branch and the registers to
 * poison (cfg.c). 0, or -1 when out of memory. */
int emu_cfg(emu_prog *p);

/* Resolve a parsed source into a program. 0, or -1 with diag. */
int emu_decode(const emu_src *s, emu_prog *p, strbuf *diag);

/* ---- memory, shadow (mem.c) and faults (diag.c) ---- */
enum emu_fault_kind {
	EMU_F_NONE,
	EMU_F_GLOBAL_OOB, EMU_F_GLOBAL_MISALIGN, EMU_F_GLOBAL_READONLY,
	EMU_F_SHARED_OOB, EMU_F_SHARED_MISALIGN,
	EMU_F_RACE, EMU_F_DIVZERO, EMU_F_LOOP, EMU_F_BARRIER,
	EMU_F_BUDGET_INS, EMU_F_BUDGET_BAR, /* the launch's budget is spent */
	EMU_F_WARP,         /* a warp-synchronous instruction without its lanes */
};

/* Why a warp-synchronous instruction faulted (emu_fault.store for EMU_F_WARP;
 * other_tid is the lane named, addr the member mask, bytes a second mask). */
enum emu_warp_why {
	EMU_W_NOT_MEMBER,   /* this lane executes it but is not in the member mask */
	EMU_W_ABSENT,       /* a lane of the member mask does not execute it */
	EMU_W_MASKS,        /* the lanes give different member masks */
	EMU_W_ALIGNED,      /* .aligned: a lane of the warp does not execute it */
	EMU_W_SOURCE,       /* shfl reads a lane that does not execute it */
};

typedef struct {
	int kind;
	int ins;            /* faulting instruction index */
	unsigned tid;       /* faulting thread (linear in the CTA) */
	int store;
	unsigned bytes;
	uint64_t addr;
	/* race: the other access; barrier: the thread that did not arrive */
	unsigned other_tid;
	int other_ins;
	int other_store;
	int other_exited;   /* barrier: the other thread exited (else waits elsewhere) */
	unsigned arrived, threads;  /* barrier */
} emu_fault;

typedef struct {
	uint32_t wep, rep;      /* epochs of the last write, of the reads */
	uint16_t w, r1, r2;     /* writer, first two distinct readers: tid+1, 0 none */
	uint16_t wgen, r1gen, r2gen; /* their warps' bar.warp.sync count then */
	uint32_t wins, r1ins, r2ins;
} emu_shadow;

/* Everything one launch needs; the CTA loop owns it. */
typedef struct {
	const emu_prog *prog;
	const emu_launch *l;
	uint8_t param[EMU_MAX_PARAM_BYTES];
	uint8_t *smem;          /* this CTA's shared memory */
	uint32_t smem_bytes;
	emu_shadow *shadow;     /* one per shared byte */
	struct emu_mark *marks; /* one per shared byte in the first pass (NULL: use shadow) */
	uint32_t epoch;         /* barrier interval, global across CTAs */
	unsigned ctaid[3];
	uint64_t budget;        /* backward branches a thread may take per interval */
	uint64_t executed;      /* instructions, launch-wide */
	uint64_t warp_executed; /* warp instructions, launch-wide */
	uint64_t barriers;      /* barrier intervals ended, launch-wide */
	uint64_t ins_allow;     /* the budgets so far (emu_launch, cta.c) */
	uint64_t bar_allow;
	uint16_t wgen[32];      /* per warp: bar.warp.sync of the whole warp so far */
	uint8_t *tstate;        /* per thread of the CTA: enum emu_stop */
	uint32_t *tpc;          /* per thread: the bar.sync it waits at, or where it exited */
	emu_fault f;
} emu_ctx;

#define EMU_IN_BASE UINT64_C(0x100000000000)
#define EMU_OUT_BASE UINT64_C(0x200000000000)
#define EMU_IN_ADDR(l) (EMU_IN_BASE + (l)->misalign)   /* where `in` starts */
#define EMU_OUT_ADDR(l) (EMU_OUT_BASE + (l)->misalign) /* where `out` starts */

/* Host pointer for a global access of `bytes` at addr, or NULL with the
 * fault recorded in x->f. */
uint8_t *emu_global(emu_ctx *x, uint64_t addr, unsigned bytes, int store);
/* Host pointer for a shared access (bounds, alignment, race shadow), or NULL
 * with the fault recorded. `ins` and `tid` are for the shadow. */
uint8_t *emu_shared(emu_ctx *x, uint64_t addr, unsigned bytes, int store,
		    unsigned tid, int ins);

/* emu_global's answer for an access that is fine, inline; the others
 * (faults) go through it. */
static inline uint8_t *emu_global_fast(emu_ctx *x, uint64_t addr, unsigned bytes, int store)
{
	const emu_launch *l = x->l;
	if (!(addr & (bytes - 1))) {
		uint64_t off = addr - EMU_IN_ADDR(l);
		if (!store && off < l->in_bytes && bytes <= l->in_bytes - off)
			return (uint8_t *)l->in + off;
		off = addr - EMU_OUT_ADDR(l);
		if (off < l->out_bytes && bytes <= l->out_bytes - off)
			return (uint8_t *)l->out + off;
	}
	return emu_global(x, addr, bytes, store);
}

/* The first pass over a CTA of a program without warp-synchronous
 * instructions keeps per shared byte only what telling a race needs: the
 * interval, the writer and one reader (EMU_MANY: several). A race found
 * so is told by the replay (cta.c), with emu_shared's full record. */
typedef struct emu_mark {
	uint32_t ep;
	uint16_t w, r;          /* tid+1, 0 none */
} emu_mark;
#define EMU_MANY 0xffff

static inline uint8_t *emu_shared_fast(emu_ctx *x, uint64_t addr, unsigned bytes, int store, unsigned tid, int ins)
{
	if ((addr & (bytes - 1)) || addr >= x->smem_bytes || bytes > x->smem_bytes - addr)
		return emu_shared(x, addr, bytes, store, tid, ins);
	const uint16_t me = (uint16_t)(tid + 1);
	const uint32_t ep = x->epoch;
	emu_mark *s = x->marks + addr;
	for (unsigned k = 0; k < bytes; k++, s++) {
		if (s->ep != ep) {
			*s = (emu_mark){ep, store ? me : 0, store ? 0 : me};
			continue;
		}
		uint16_t other = s->w && s->w != me ? s->w : store && s->r && s->r != me ? s->r : 0;
		if (other) {
			x->f = (emu_fault){.kind = EMU_F_RACE, .addr = addr + k, .bytes = bytes, .store = store,
					   .other_tid = other == EMU_MANY ? tid : other - 1u, .other_ins = ins,
					   .other_store = s->w && s->w != me};
			return NULL;
		}
		if (store)
			s->w = me;
		else if (s->r != me)
			s->r = s->r ? EMU_MANY : me;
	}
	return x->smem + addr;
}

/* Format the fault of the current CTA into diag. */
void emu_diag_fault(const emu_ctx *x, strbuf *diag);

/* ---- execution (exec.c), a warp at a time ---- */
#define EMU_WARP 32
#define EMU_FULL 0xffffffffu
#define EMU_NO_PC UINT32_MAX   /* no reconvergence point: the paths meet at a barrier or exit */
#define EMU_SIMT_DEPTH 72       /* divergence splits a mask strictly: 2 entries a level, 32 levels */

enum emu_stop { EMU_STOP_BAR, EMU_STOP_EXIT, EMU_STOP_FAULT };

/* One entry of a warp's reconvergence stack: the lanes of a path, where
 * they are, and where they wait for the others (the branch's immediate
 * post-dominator, cfg.c). */
typedef struct {
	uint32_t mask, pc, rpc;
} emu_simt;

/* A warp: registers lane-major (slot s of lane l at R[s * 32 + l]), the
 * lanes that may still run (not exited, not waiting at bar.sync), and the
 * stack. The serial mode (cta.c) runs one lane of it at a time. */
typedef struct {
	uint64_t *R;
	unsigned base;      /* tid of lane 0 */
	uint32_t lanes;     /* lanes that exist */
	uint32_t run;       /* lanes not exited and not waiting at a barrier */
	int sp;
	emu_simt stk[EMU_SIMT_DEPTH];
} emu_warp;

/* A warp-synchronous instruction for the lanes g of m (warp.c): 0, or
 * EMU_STOP_FAULT with x->f filled but for the instruction. */
int emu_warp_op(emu_ctx *x, emu_warp *w, const emu_ins *i, uint32_t g, uint32_t pc);

/* Run the warp's paths until every lane waits at a bar.sync or has exited
 * (x->tstate and x->tpc say which and where), or a lane faults (x->f). */
int emu_exec(emu_ctx *x, emu_warp *w);

#endif
