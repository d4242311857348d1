/* inspect: what ptxas made of a PTX file. Resources from `ptxas -v`, a SASS
 * summary from `cuobjdump -sass`, and the generator's shared-memory bank
 * model (the `// ptxpose-smem` lines) shown beside them.
 *
 * Every function returns a status (enum ins_status) and, on failure, writes
 * a one-line reason into the caller's err buffer; none exits. */
#ifndef INSPECT_INSPECT_H
#define INSPECT_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "loader/meta.h"

enum ins_status {
	INS_OK = 0,
	INS_EINPUT,  /* the PTX file is missing or unreadable */
	INS_EARCH,   /* ptxas does not know the target architecture */
	INS_EASM,    /* ptxas rejected the PTX; the log holds its errors */
	INS_ENOTOOL, /* ptxas, cuobjdump or nvdisasm is not installed */
	INS_ETOOL,   /* a tool could not be run or failed in an unexpected way */
};

/* ---- tools (tool.c) ---------------------------------------------------- */

#define INS_PATH_MAX 4096

typedef struct {
	char ptxas[INS_PATH_MAX];
	char cuobjdump[INS_PATH_MAX];
} ins_tools;

/* What to install when cuobjdump is missing (cuobjdump 13 runs nvdisasm). */
#define INS_CUOBJDUMP_INSTALL "pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"

/* Find ptxas: $PTXPOSE_PTXAS, PATH, /usr/local/cuda/bin, the folder of the
 * running binary, ../libexec/ptxpose from it, .deps/nvidia/STAR/bin beside it (a checkout's), the Python
 * nvidia packages (site-packages/nvidia/STAR/bin).
 * INS_OK with the path in out, or INS_ENOTOOL and what to install. */
int ins_find_ptxas(char *out, size_t outlen, char *err, size_t errlen);

/* Find cuobjdump, the same way with $PTXPOSE_CUOBJDUMP. A set variable that
 * names no executable is an error, not a cue to look elsewhere. */
int ins_find_cuobjdump(char *out, size_t outlen, char *err, size_t errlen);

/* The folder holding the running binary (from /proc/self/exe); -1 if unknown. */
int ins_exe_dir(char *out, size_t outlen);

/* ---- ptxas (ptxas.c) --------------------------------------------------- */

typedef struct {
	char function[128];          /* the (first) entry ptxas compiled */
	unsigned nfunc;              /* entries seen */
	unsigned registers;          /* "Used N registers" */
	unsigned barriers;           /* "used N barriers" */
	unsigned smem_bytes;         /* static shared memory, "N bytes smem" */
	unsigned cmem_bytes;         /* all "N bytes cmem[k]" added up */
	int have_cmem;               /* ptxas printed cmem (it does not for sm_90) */
	unsigned stack_bytes;        /* "N bytes stack frame" */
	unsigned spill_store_bytes;  /* "N bytes spill stores" */
	unsigned spill_load_bytes;   /* "N bytes spill loads" */
} ins_res;

typedef struct {
	unsigned char *data;
	size_t len;
} ins_cubin;

void ins_cubin_free(ins_cubin *c);

/* 1 if arch reads sm_NN or sm_NNN, optionally with an a or f suffix. */
int ins_arch_valid(const char *arch);

/* Parse `ptxas -v` output. Returns 0, or -1 when it has no "Used N
 * registers" line. With several entries each field is the largest. */
int ins_ptxas_parse(const char *log, ins_res *r);

/* Assemble the PTX file at path for arch with ptxas -v. On INS_OK, *res is
 * filled and *cubin (if not NULL) holds the object. ptxas's own output goes
 * into log (errors and warnings; for INS_EASM, the reason). */
int ins_ptxas(const char *ptxas, const char *path, const char *arch,
	      ins_res *res, ins_cubin *cubin, strbuf *log, char *err, size_t errlen);

/* The same for PTX text (written to a temporary file under $TMPDIR). */
int ins_ptxas_text(const char *ptxas, const char *ptx, const char *arch,
		   ins_res *res, ins_cubin *cubin, strbuf *log, char *err, size_t errlen);

/* ---- SASS (sass.c, cuobjdump.c) ---------------------------------------- */

enum ins_width { INS_W8, INS_W16, INS_W32, INS_W64, INS_W128, INS_NWIDTH };

enum ins_class {
	INS_C_OTHER,
	INS_C_LDG, INS_C_STG,   /* global */
	INS_C_LDS, INS_C_STS,   /* shared */
	INS_C_LDL, INS_C_STL,   /* local (spills, stack arrays) */
	INS_C_LD, INS_C_ST,     /* generic */
	INS_C_BAR,
	INS_C_NOP,
	INS_NCLASS
};

/* One instruction line of `cuobjdump -sass`. */
typedef struct {
	unsigned addr;
	char guard[8];          /* "@P0", "@!P1", "@UP0" or "" */
	int predicated;         /* guarded by anything but @PT */
	enum ins_class cls;
	enum ins_width width;   /* memory classes only; 32 by default */
	char opcode[48];        /* with modifiers: "LDG.E.128.CONSTANT" */
	char text[256];         /* opcode and operands up to ';', no encoding */
} ins_insn;

typedef struct {
	char function[128];     /* first "Function : NAME" */
	unsigned nfunc;
	unsigned count[INS_NCLASS][INS_NWIDTH];  /* width is INS_W32 for non-memory */
	unsigned mem;           /* memory instructions (LDG STG LDS STS LDL STL LD ST) */
	unsigned mem_pred;      /* ... of them predicated */
	unsigned total;         /* instructions: NOPs and the closing branch to itself excluded */
} ins_sass;

/* Parse one line. 1 and *out filled for an instruction, 0 for anything
 * else (headers, encoding continuation lines, blank lines). */
int ins_sass_line(const char *line, ins_insn *out);

/* Width and class names: "128", "LDG". */
const char *ins_width_name(enum ins_width w);
const char *ins_class_name(enum ins_class c);
unsigned ins_width_bits(enum ins_width w);

/* 1 for the unguarded `BRA` to its own address that ends every kernel (it
 * pads, it never runs: EXIT comes before it). */
int ins_insn_is_self_branch(const ins_insn *in);

/* Summarize a whole cuobjdump listing. If listing is not NULL, it receives
 * the listing without the encoding comments. */
void ins_sass_parse(const char *text, ins_sass *s, strbuf *listing);

/* The sum over widths of one class. */
unsigned ins_sass_count(const ins_sass *s, enum ins_class c);

/* Disassemble a cubin with cuobjdump -sass into out. INS_ENOTOOL when
 * cuobjdump cannot find nvdisasm. */
int ins_cuobjdump(const char *cuobjdump, const ins_cubin *cubin, strbuf *out,
		  char *err, size_t errlen);

/* ---- bank model display (smem.c) --------------------------------------- */

/* "st smem_st0: 16-byte, 4 wavefronts per request (ideal 4) conflict-free" */
void ins_smem_describe(const meta_smem *a, strbuf *out);

/* The access of one kind (store or load) with the largest wavefronts/ideal
 * ratio, or NULL if there is none. */
const meta_smem *ins_smem_worst(const px_meta *m, int store);

/* ---- instructions per byte (ipb.c) ------------------------------------- */

/* What one block moves in one pass of its loop: rows x cols elements, read
 * once and written once, by `threads` threads. */
typedef struct {
	unsigned rows, cols;    /* grid=linear, grid=flat: 1 x per_block */
	unsigned elem_bits;     /* 8, 16, 32, 64 or 128 */
	unsigned threads;       /* a block's, 1 to 1024 */
} ins_tile;

/* The static estimate: instructions x warps / bytes, every path counted once. */
typedef struct {
	int have;               /* 0: why says why there is no figure */
	char why[128];
	char source[128];       /* where the tile came from: "tile=128x64 of the metadata" */
	ins_tile tile;
	unsigned instructions;  /* the SASS instructions (ins_sass.total) */
	unsigned warps;         /* ceil(threads / 32) */
	uint64_t bytes;         /* 2 x rows x cols x elem_bits/8 */
	double value;           /* instructions x warps / bytes */
} ins_ipb;

/* The figure from counts and a tile, a pure function: 0 and *out filled,
 * or -1 with out->why (a zero dimension, 0 or more than 1024 threads, an
 * element that is not whole bytes). */
int ins_ipb_of(unsigned instructions, const ins_tile *t, ins_ipb *out);

/* The tile of one pass from a ptxpose kernel's metadata: grid=tile its
 * tile (the small-dimension family's kmax x N is a full tile: K = kmax),
 * grid=linear or flat 1 x per_block; `source` says which. */
void ins_tile_of_meta(const px_meta *m, ins_tile *t, char *source, size_t n);

/* ---- a whole file (report.c) ------------------------------------------- */

typedef struct {
	char path[INS_PATH_MAX];
	char arch[16];
	int status;             /* enum ins_status of the whole inspection */
	char err[512];          /* one line when status != INS_OK */
	int have_meta;
	px_meta meta;
	char meta_err[256];     /* why there is no metadata */
	strbuf log;             /* ptxas's output */
	int have_res;
	ins_res res;
	int have_sass;
	ins_sass sass;
	strbuf sass_text;       /* cuobjdump's output as it came */
	strbuf listing;         /* the same without encodings */
	ins_ipb ipb;            /* with have_sass: instructions per byte */
} ins_report;

/* What to inspect: a file, or a text in memory (a kernel built into the
 * library) that `path` names. */
typedef struct {
	const char *path;
	const char *ptx;  /* NULL: read path */
	const ins_tile *tile;  /* for PTX without metadata (sass --tile ...); NULL: none */
} ins_input;

/* Read, assemble (if tools->ptxas[0]) and (if tools->cuobjdump[0] too)
 * disassemble one PTX file or text. Always fills *r as far as it got (free it with ins_report_free);
 * returns r->status. Missing metadata is not an error here: have_meta says. */
int ins_inspect(const ins_tools *tools, const ins_input *in, const char *arch, ins_report *r);
void ins_report_free(ins_report *r);

/* r->ipb from r's SASS and its metadata's tile, else `given` (NULL: none,
 * and the figure is n/a). Called by ins_inspect (ipb.c). */
void ins_ipb_report(ins_report *r, const ins_tile *given);

/* ins_inspect for each of in[0..n) into reps[0..n), up to `jobs` at a
 * time (batch.c). With two files or more the SASS comes from
 * ins_merge_sass where it can; the reports are the same as alone, but for
 * cuobjdump's padding in sass_text. info (may be NULL) says how it went. */
typedef struct {
	int merged;   /* files whose SASS came from a merged module */
	int modules;  /* merged modules assembled and disassembled */
	int alone;    /* files disassembled alone */
} ins_batch_info;

/* Told of each step of ins_inspect_many as it ends, from the threads doing
 * them: one more of `total` done in `phase` ("files assembled", "merged
 * modules disassembled"). */
typedef struct {
	void (*step)(void *ud, const char *phase, int total);
	void *ud;
} ins_progress;

/* progress may be NULL. */
void ins_inspect_many(const ins_tools *tools, const ins_input *in, int n, const char *arch, int jobs,
		      ins_report *reps, ins_batch_info *info, const ins_progress *progress);

/* The SASS of the reports with status INS_OK (inspected without cuobjdump)
 * from merged modules, up to `jobs` at a time (merge.c): fills sass,
 * sass_text, listing and ipb; a tool's failure goes into the report's status
 * and err; redo[i] = 1 for a file the merge could not take, to inspect
 * alone. */
void ins_merge_sass(const ins_tools *tools, const ins_input *in, int n, const char *arch, int jobs,
		    ins_report *reps, int *redo, ins_batch_info *info, const ins_progress *progress);

/* The number of processors online, from 1 to 16: the files inspected at a
 * time (batch.c; common/pool.h runs them). */
int ins_jobs_default(void);

/* ---- output (summary.c, json.c) ---------------------------------------- */

/* The summary as labelled lines, in a fixed order (a label of "" continues
 * the one above). Returns the count; at most max are written. */
typedef struct {
	const char *label;
	char value[256];
} ins_row;

#define INS_MAX_ROWS (26 + META_MAX_SMEM)

int ins_summary_rows(const ins_report *r, ins_row *rows, int max);

/* "LDG.E.128 x4  LDG.E x2" for one class, or "none". */
void ins_class_counts(const ins_sass *s, enum ins_class c, strbuf *out);

/* The summary as text, and two summaries side by side. */
void ins_summary_text(const ins_report *r, strbuf *out);
void ins_summary_diff(const ins_report *a, const ins_report *b, strbuf *out);

/* One JSON object for a report (no trailing newline). */
void ins_json_report(const ins_report *r, strbuf *out);

/* A JSON string literal with quotes and escapes. */
void ins_json_string(strbuf *out, const char *s);
/* A metadata value: a JSON number when it is a plain decimal integer
 * ("32", not "032", "64x64" or "1e3"), else a JSON string. */
void ins_json_value(strbuf *out, const char *v);
/* ,"k": -- the comma unless the object or array was just opened. */
void ins_json_key(strbuf *out, const char *k);

#endif
