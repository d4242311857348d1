/* plan: `ptxpose plan`'s results and their printing (cmd_plan.c decides,
 * plan_out.c prints text and JSON). */
#ifndef CLI_PLAN_H
#define CLI_PLAN_H

#include <stdio.h>

#include "common/strbuf.h"
#include "lib/kreg.h"
#include "lib/model.h"

typedef struct {
	const kreg_kernel *k;        /* k->source: "built in", "PTXPOSE_PTX: a.ptx" or a path */
	model_features f;
	model_estimate e;
	int beyond;                  /* a small-dimension kernel past its K range: ranked last (lib/pick.h) */
} plan_cand;

typedef struct {
	model_device dev;
	const char *dev_note;        /* "built in", "built in, modified" */
	const model_params *params;
	const char *params_from;     /* the device's built-in table (model_choice's label) or the --params file */
	int features;                /* print every feature */
} plan_ctx;

typedef struct {
	model_problem p;
	int n;
	plan_cand *c;                /* fastest first */
	int unsure;
	int copy;                    /* the identity on memory: the plan copies (model_problem_is_copy) */
	char copy_why[256];
	double copy_us;              /* the copy's predicted time */
	char elem_read[96];          /* how --elem was read: "f32: a type name" */
} plan_result;

void plan_print_text(FILE *f, const plan_ctx *x, const plan_result *r);

/* The "problem: ..." line of p, --elem as elem_read says it was read. */
void plan_print_problem(FILE *f, const model_problem *p, const char *elem_read);

/* `plan --measure` (plan_measure.c): the library's measured plan of the
 * checked problem p on the GPU present, printed; an exit code. */
typedef struct {
	int json, no_cache, verbose;
	uint64_t budget_ms;          /* 0: the library's default */
	const char *elem_read;       /* how --elem was read (plan_result's) */
} plan_measure_opts;
int plan_measure(const model_problem *p, const plan_measure_opts *o);

/* "problem":{...} of p, with "elem_read" (how --elem was read), appended to out. */
void plan_json_problem(strbuf *out, const model_problem *p, const char *elem_read);

/* The JSON object of one case, appended to out. */
void plan_json_case(strbuf *out, const plan_ctx *x, const plan_result *r);
/* The document's head: format, device, params; the cases follow, then plan_json_end. */
void plan_json_begin(strbuf *out, const plan_ctx *x);
void plan_json_end(strbuf *out);

#endif
