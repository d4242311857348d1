/* plan: `ptxpose plan`'s results and their printing (cmd_plan.c decides,
 * plan_out.c prints text and JSON). */
#ifndef CLI_PLAN_H
#define CLI_PLAN_H

#include <stdio.h>

#include "common/strbuf.h"
#include "include/ptxpose_tools.h"

typedef struct {
	ptxpose_tool_kernel k;       /* k.source: "built in", "PTXPOSE_PTX: a.ptx" or a path */
	ptxpose_tool_features f;
	ptxpose_tool_estimate e;
	int beyond;                  /* PTXPOSE_TOOL_AFTER_*: ranked last (ptxpose_tool_rank) */
} plan_cand;

typedef struct {
	ptxpose_tool_device dev;
	const char *dev_note;        /* "built in", "built in, modified" */
	const ptxpose_tool_params *params;
	const char *params_from;     /* the device's built-in table (its label) or the --params file */
	int features;                /* print every feature */
} plan_ctx;

typedef struct {
	ptxpose_tool_problem p;
	int n;
	plan_cand *c;                /* fastest first */
	int unsure;
	int copy;                    /* the identity on memory: the plan copies (ptxpose_tool_problem_is_copy) */
	char copy_why[256];
	double copy_us;              /* the copy's predicted time */
	char elem_read[96];          /* how --elem was read: "f32: a type name" */
	char nd_spec[256];           /* an N-d problem: its spec ("2x3x5:perm=2,0,1"); "" for 2-D */
	char nd_why[256];            /* ... the reduction ("merged 3 dims to 2, small transpose 6x5") */
	unsigned nd_es;              /* ... and its element bytes (p.es is the reduced problem's) */
} plan_result;

void plan_print_text(FILE *f, const plan_ctx *x, const plan_result *r);

/* The "problem: ..." line of p, --elem as elem_read says it was read. */
void plan_print_problem(FILE *f, const ptxpose_tool_problem *p, const char *elem_read);

/* `plan --measure` (plan_measure.c): the library's measured plan of d (p:
 * the same problem, checked) on the GPU present, printed; an exit code. */
typedef struct {
	int json, no_cache, verbose;
	uint64_t budget_ms;          /* 0: the library's default */
	const char *elem_read;       /* how --elem was read (plan_result's) */
} plan_measure_opts;
int plan_measure(const ptxpose_desc *d, const ptxpose_tool_problem *p, const plan_measure_opts *o);

/* "problem":{...} of p, with "elem_read" (how --elem was read), appended to out. */
void plan_json_problem(strbuf *out, const ptxpose_tool_problem *p, const char *elem_read);

/* The JSON object of one case, appended to out. */
void plan_json_case(strbuf *out, const plan_ctx *x, const plan_result *r);
/* The document's head: format, device, params; the cases follow, then plan_json_end. */
void plan_json_begin(strbuf *out, const plan_ctx *x);
void plan_json_end(strbuf *out);

#endif
