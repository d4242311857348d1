/* ptxpose plan: choose a kernel for a problem by the cost model (lib/model.h),
 * without a GPU: a built-in or described device, the library's kernels (or
 * the files given), ranked as ptxpose_plan_create ranks them (lib/pick.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "cli/plan.h"
#include "common/elem.h"
#include "common/fsio.h"
#include "inspect/inspect.h"
#include "lib/pick.h"

#define CMD "plan"

typedef struct {
	/* the problem (also the flags of a --cases line) */
	const char *elem;            /* common/elem.h reads it */
	uint64_t rows, cols, ld_in, ld_out, batch, stride_in, stride_out, offset, align_in, align_out;
	/* the device */
	const char *device;
	uint64_t sm_count, l2, bw, smem_sm, regs_sm, threads_sm, blocks_sm;
	/* what to do */
	const char *params, *cases;
	int json, features, measure, ptxas, no_cache, verbose;
	uint64_t budget_ms;
} plan_opts;

/* The problem's rows, cols and offset and the device's numbers start
 * MISSING, so a flag given as 0 is told from one not given (elem: NULL). */
#define MISSING UINT64_MAX
#define NUM(flag, field) {flag, OPT_NUM, offsetof(plan_opts, field), 0, MISSING - 1, NULL}

/* The problem's flags, sorted: the command line's and each --cases line's. */
static const opt_spec problem_flags[] = {
	NUM("--align-in", align_in),
	NUM("--align-out", align_out),
	NUM("--batch", batch),
	NUM("--cols", cols),
	{"--elem", OPT_STR, offsetof(plan_opts, elem), 0, 0, NULL},
	NUM("--ld-in", ld_in),
	NUM("--ld-out", ld_out),
	NUM("--offset", offset),
	NUM("--rows", rows),
	NUM("--stride-in", stride_in),
	NUM("--stride-out", stride_out),
};
#define NPROBLEM (sizeof problem_flags / sizeof problem_flags[0])

/* Everything else, sorted. */
static const opt_spec other_flags[] = {
	NUM("--blocks-per-sm", blocks_sm),
	{"--budget-ms", OPT_NUM, offsetof(plan_opts, budget_ms), 1, 3600000, NULL},
	NUM("--bw", bw),
	{"--cases", OPT_STR, offsetof(plan_opts, cases), 0, 0, NULL},
	{"--device", OPT_STR, offsetof(plan_opts, device), 0, 0, NULL},
	{"--features", OPT_SWITCH, offsetof(plan_opts, features), 0, 0, NULL},
	{"--json", OPT_SWITCH, offsetof(plan_opts, json), 0, 0, NULL},
	NUM("--l2", l2),
	{"--measure", OPT_SWITCH, offsetof(plan_opts, measure), 0, 0, NULL},
	{"--no-cache", OPT_SWITCH, offsetof(plan_opts, no_cache), 0, 0, NULL},
	{"--params", OPT_STR, offsetof(plan_opts, params), 0, 0, NULL},
	{"--ptxas", OPT_SWITCH, offsetof(plan_opts, ptxas), 0, 0, NULL},
	NUM("--regs-per-sm", regs_sm),
	{"--shapes", OPT_REFUSE, 0, 0, 0, "plan takes one problem (--rows, --cols, ...) or a --cases file"},
	NUM("--sm-count", sm_count),
	NUM("--smem-per-sm", smem_sm),
	NUM("--threads-per-sm", threads_sm),
	{"--verbose", OPT_SWITCH, offsetof(plan_opts, verbose), 0, 0, "-v"},
};
#define NOTHER (sizeof other_flags / sizeof other_flags[0])

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptxpose plan --elem W --rows R --cols C [--ld-in N] [--ld-out N]\n"
		"                    [--batch B [--stride-in S] [--stride-out S]]\n"
		"                    [--offset N | --align-in BYTES --align-out BYTES]\n"
		"                    [--device h100|h200|NAME] [--sm-count N] [--l2 BYTES] [--bw GB/s] ...\n"
		"                    [--json] [--features] [--params FILE.tsv] [DIR | FILE.ptx ...]\n"
		"       ptxpose plan --cases FILE [...]   (one problem per line, in the flags above)\n"
		"\n"
		"Choose the kernel for a transpose by the cost model, without a GPU, as the\n"
		"library's heuristic plan does: every kernel of the element width (default: the\n"
		"library's, built in and from $PTXPOSE_PTX; or the files and folders given) gets a\n"
		"predicted time from its metadata and the problem: tiles, the access path each\n"
		"takes (vectors where pointers and pitches are aligned, realigned words for 1- and\n"
		"2-byte elements, elements, predicated edge tiles), bytes in whole 32-byte sectors,\n"
		"occupancy, waves, bytes in flight and the share the L2 serves, weighted by the\n"
		"constants of lib/model_params.tsv (fitted by bench/fit_model.py). Prints the\n"
		"choice, why it beat the runner-up, every candidate with its predicted time and\n"
		"biggest costs, and whether the model is unsure (the runner-up within its margin).\n"
		"\n"
		"  --elem W           element width (required): bits (8, 16, 32, 64, 128), bytes\n"
		"                     with a unit (1B to 16B) or a type (u8 e4m3 f16 bf16 f32 tf32\n"
		"                     f64 c64 c128 ...; see the README); the output says which\n"
		"  --rows R, --cols C the input matrix, 1 to 2147483647 (required)\n"
		"  --ld-in N, --ld-out N   leading dimensions in elements (default cols, rows)\n"
		"  --batch B          matrices; --stride-in/--stride-out: elements between them\n"
		"                     (default: one padded matrix after the other)\n"
		"  --offset N         both pointers N elements past a 256-byte boundary\n"
		"  --align-in/--align-out BYTES   what the pointers are aligned to (a power of two,\n"
		"                     at least the element size; default 256)\n"
		"  --device NAME      a built-in device: h100 (default) or h200, or its full name\n"
		"  --sm-count N, --l2 BYTES, --bw GBPS, --smem-per-sm BYTES, --regs-per-sm N,\n"
		"  --threads-per-sm N, --blocks-per-sm N   change the device's description\n"
		"  --params FILE      the model's constants from FILE instead of the built-in table\n"
		"  --ptxas            registers per thread from ptxas for the device's architecture\n"
		"                     (occupancy); otherwise estimated from the data per thread\n"
		"  --features         every feature of every candidate (text and JSON)\n"
		"  --json             one JSON object (format \"ptxpose-plan 1\")\n"
		"  --cases FILE       plan every line of FILE (the problem flags; '#' comments)\n"
		"\n"
		"       ptxpose plan --measure --elem W --rows R --cols C [problem flags]\n"
		"                    [--budget-ms MS] [--no-cache] [--json] [-v]\n"
		"\n"
		"On the GPU present, the library's measured plan (PTXPOSE_PLAN_MEASURE): the\n"
		"model's best 6 kernels and every other it predicts within its unsure margin\n"
		"(12 at most) are timed on scratch buffers with the problem's alignment: one\n"
		"warm-up launch, then the median of 5 runs of back-to-back launches between two\n"
		"events, until the budget is spent; the fastest wins. The choice is kept in the\n"
		"on-disk cache ($PTXPOSE_CACHE, or \"off\"; else $XDG_CACHE_HOME/ptxpose, else\n"
		"~/.cache/ptxpose) per device, driver and kernel set, and a later plan of the same\n"
		"problem takes it without timing. Prints every candidate with its predicted and\n"
		"measured time, and why the winner won. A problem whose transpose is the identity\n"
		"on memory is a copy, and is not measured.\n"
		"  --budget-ms MS     time at most about this long (default 200)\n"
		"  --no-cache         neither read nor write the cache (PTXPOSE_NO_CACHE)\n"
		"  -v                 the library's notes (the cache: bad entries, an unusable folder)\n"
		"\n"
		"Exit: 0 ok, 2 usage (a bad flag, an impossible problem: ld < cols, a zero\n"
		"dimension, bytes that overflow, a misaligned pointer; --measure with a flag that\n"
		"describes a model device or files), 3 input (a PTX file without metadata, no\n"
		"kernel for the width, an unreadable --cases or --params file), 4 --measure: no\n"
		"CUDA driver or device, 5 --measure: a CUDA or JIT error, --ptxas: ptxas rejected\n"
		"a file, 7 --ptxas: no ptxas.\n");
}

/* ---- the problem ------------------------------------------------------------ */

static void problem_init(plan_opts *o)
{
	o->rows = o->cols = o->offset = MISSING;
	o->sm_count = o->l2 = o->bw = o->smem_sm = o->regs_sm = o->threads_sm = o->blocks_sm = MISSING;
}

/* The checked problem of o, and in `read` how its --elem was read
 * ("f32: a type name"); -1 and one line in err. */
static int problem_of(const plan_opts *o, model_problem *p, char *read, size_t rlen, char *err, size_t errlen)
{
	if (!o->elem || o->rows == MISSING || o->cols == MISSING) {
		snprintf(err, errlen, "needs%s%s%s", !o->elem ? " --elem W" : "",
			 o->rows == MISSING ? " --rows R" : "", o->cols == MISSING ? " --cols C" : "");
		return -1;
	}
	unsigned bits;
	elem_unit unit;
	char why[512];
	if (elem_parse(o->elem, &bits, &unit, why, sizeof why)) {
		snprintf(err, errlen, "--elem %s", why);
		return -1;
	}
	snprintf(read, rlen, "%s: %s", o->elem, elem_unit_name(unit));
	int have_offset = o->offset != MISSING;
	if (have_offset && (o->align_in || o->align_out)) {
		snprintf(err, errlen, "--offset and --align-in/--align-out both describe the pointers: give one");
		return -1;
	}
	uint64_t big = have_offset && o->offset > 0xffffffffu ? o->offset
		     : o->align_in > 0x80000000u ? o->align_in : o->align_out > 0x80000000u ? o->align_out : 0;
	if (big) {
		snprintf(err, errlen, "%s %llu is too large", big == o->offset ? "--offset" : "--align",
			 (unsigned long long)big);
		return -1;
	}
	memset(p, 0, sizeof *p);
	p->es = bits / 8;
	p->rows = o->rows, p->cols = o->cols, p->ld_in = o->ld_in, p->ld_out = o->ld_out;
	p->batch = o->batch, p->stride_in = o->stride_in, p->stride_out = o->stride_out;
	p->align_in = have_offset ? model_align_of_offset(o->offset, p->es) : (unsigned)o->align_in;
	p->align_out = have_offset ? p->align_in : (unsigned)o->align_out;
	return model_problem_check(p, err, errlen) ? -1 : 0;
}

/* ---- kernels -------------------------------------------------------------- */

/* Registers per thread from ptxas, for the kernels of width es (0: all). */
static int ptxas_regs(kreg *r, const model_device *d, unsigned es)
{
	char tool[INS_PATH_MAX], err[512], arch[16];
	if (ins_find_ptxas(tool, sizeof tool, err, sizeof err)) {
		cli_err(CMD, "--ptxas: %s", err);
		return EXIT_TOOL;
	}
	snprintf(arch, sizeof arch, "sm_%u%u", d->cc_major, d->cc_minor);
	for (int i = 0; i < kreg_count(r); i++) {
		const kreg_kernel *k = kreg_get(r, i);
		if (es && k->mk.es != es)
			continue;
		ins_res res;
		strbuf log;
		sb_init(&log);
		int rc = ins_ptxas_text(tool, k->ptx, arch, &res, NULL, &log, err, sizeof err);
		sb_free(&log);
		if (rc) {
			cli_err(CMD, "--ptxas: %s: %s", k->meta.kernel, err);
			return rc == INS_EASM ? EXIT_CUDA : EXIT_TOOL;
		}
		if (kreg_set_regs(r, i, res.registers)) {
			cli_err(CMD, "out of memory");
			return EXIT_INPUT;
		}
	}
	return 0;
}

/* The files and folders given, else the library's kernels (built in, and
 * $PTXPOSE_PTX). */
static int load_kernels(kreg **r, const char **pos, int npos)
{
	char err[1024];
	px_status st = kreg_new(r, err, sizeof err);
	if (!st && !npos && !(st = kreg_add_builtins(*r, err, sizeof err)))
		st = kreg_add_env(*r, err, sizeof err);
	for (int i = 0; !st && i < npos; i++)
		st = kreg_add_path(*r, pos[i], NULL, err, sizeof err);
	if (st)
		cli_err(CMD, "%s", err);
	return st ? EXIT_INPUT : 0;
}

/* ---- the device and the model --------------------------------------------- */

static int device_of(const plan_opts *o, plan_ctx *x)
{
	char err[256];
	if (model_device_builtin(o->device ? o->device : "h100", &x->dev, err, sizeof err)) {
		cli_err(CMD, "--device: %s", err);
		return EXIT_USAGE;
	}
	const struct {
		uint64_t v;
		unsigned *to;
	} set[] = {
		{o->sm_count, &x->dev.sm_count}, {o->smem_sm, &x->dev.smem_per_sm}, {o->regs_sm, &x->dev.regs_per_sm},
		{o->threads_sm, &x->dev.threads_per_sm}, {o->blocks_sm, &x->dev.blocks_per_sm},
	};
	int changed = o->l2 != MISSING || o->bw != MISSING;
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
		if (set[i].v == MISSING)
			continue;
		if (set[i].v > 0xffffffffu) {
			cli_err(CMD, "a device property of %llu is too large", (unsigned long long)set[i].v);
			return EXIT_USAGE;
		}
		*set[i].to = (unsigned)set[i].v, changed = 1;
	}
	if (o->l2 != MISSING)
		x->dev.l2_bytes = o->l2;
	if (o->bw != MISSING)
		x->dev.bw_gbps = (double)o->bw;
	x->dev_note = changed ? "built in, modified" : "built in";
	if (model_device_check(&x->dev, err, sizeof err)) {
		cli_err(CMD, "%s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The text of a --cases or --params file, or NULL after one line saying why
 * (what fs_read_input found: missing, not a regular file, too large; or a
 * NUL byte, which would end the text early). */
static char *read_text(const char *flag, const char *path)
{
	char err[1024];
	size_t len;
	char *text = fs_read_input(path, FS_INPUT_MAX, &len, err, sizeof err);
	if (!text) {
		cli_err(CMD, "%s %s", flag, err);
		return NULL;
	}
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		size_t line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		cli_err(CMD, "%s %s: line %zu holds a NUL byte: not a text file", flag, path, line);
		free(text);
	}
	return nul ? NULL : text;
}

static int params_of(const plan_opts *o, plan_ctx *x, model_params *own)
{
	static model_choice chosen; /* the device's table (lib/model_choice.c); its label names it */
	model_params_choose(x->dev.name, x->dev.cc_major, x->dev.cc_minor, x->dev.sm_count, &chosen);
	x->params = chosen.params, x->params_from = chosen.label;
	if (!o->params)
		return 0;
	char *text = read_text("--params", o->params), err[256];
	if (!text)
		return EXIT_INPUT;
	int rc = model_params_parse(text, own, err, sizeof err);
	free(text);
	if (rc) {
		cli_err(CMD, "%s: %s", o->params, err);
		return EXIT_INPUT;
	}
	x->params = own;
	x->params_from = o->params;
	return 0;
}

/* ---- one plan ------------------------------------------------------------- */

static int plan_one(const plan_ctx *x, const kreg *r, const model_problem *p, const char *elem_read,
		    plan_result *out)
{
	char err[256];
	pick_result res;
	memset(out, 0, sizeof *out);
	out->p = *p;
	snprintf(out->elem_read, sizeof out->elem_read, "%s", elem_read);
	px_status st = pick_rank(r, &x->dev, x->params, p, &res, err, sizeof err);
	if (!st && !(out->c = calloc((size_t)res.n, sizeof *out->c))) {
		snprintf(err, sizeof err, "out of memory");
		st = PX_ENOMEM;
	}
	if (st) {
		cli_err(CMD, "%s", err);
		return EXIT_INPUT;
	}
	for (int i = 0; i < res.n; i++)
		out->c[i] = (plan_cand){kreg_get(r, res.c[i].index), res.c[i].f, res.c[i].e, res.c[i].beyond};
	out->n = res.n;
	out->unsure = res.unsure;
	if ((out->copy = model_problem_is_copy(p, out->copy_why, sizeof out->copy_why))) {
		out->unsure = 0;
		out->copy_us = model_copy_us(&x->dev, p);
	}
	pick_free(&res);
	return 0;
}

static void emit(const plan_opts *o, const plan_ctx *x, const plan_result *r, strbuf *json, int first)
{
	if (o->json) {
		plan_json_case(json, x, r);
		return;
	}
	if (!first)
		fputc('\n', stdout);
	plan_print_text(stdout, x, r);
}

/* Each line of the --cases file: problem flags. */
static int run_cases(const plan_opts *o, const plan_ctx *x, const kreg *ks, strbuf *json)
{
	char *text = read_text("--cases", o->cases);
	if (!text)
		return EXIT_INPUT;
	int rc = 0, ln = 0, first = 1;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
		ln++;
		char *argv[64], *tsave = NULL, where[512], err[768], read[96];
		int argc = 0;
		snprintf(where, sizeof where, "plan: %s line %d", o->cases, ln);
		argv[argc++] = where;
		for (char *t = strtok_r(line, " \t\r", &tsave); t; t = strtok_r(NULL, " \t\r", &tsave))
			if (argc < 63)
				argv[argc++] = t;
		if (argc == 1 || argv[1][0] == '#')
			continue;
		plan_opts po = {0};
		problem_init(&po);
		const char *pos[64];
		int npos;
		if (opt_parse(where, argc, argv, problem_flags, NPROBLEM, &po, pos, &npos, usage))
			rc = EXIT_USAGE;
		model_problem p;
		plan_result r;
		if (!rc && npos) {
			cli_err(where, "unexpected '%s'", pos[0]);
			rc = EXIT_USAGE;
		} else if (!rc && problem_of(&po, &p, read, sizeof read, err, sizeof err)) {
			cli_err(where, "%s", err);
			rc = EXIT_USAGE;
		} else if (!rc && !(rc = plan_one(x, ks, &p, read, &r))) {
			emit(o, x, &r, json, first);
			first = 0;
			free(r.c);
		}
	}
	free(text);
	return rc;
}

/* --measure plans on the GPU present with the library's kernels: the flags
 * of the model's own view (a described device, files, parameters) do not go
 * with it, nor those of --measure without it. */
static int measure_args(const plan_opts *o, int npos)
{
	const char *bad = o->cases ? "--cases" : npos ? "FILE.ptx" : o->params ? "--params" : o->device ? "--device"
			: o->features ? "--features" : o->ptxas ? "--ptxas" : NULL;
	const uint64_t dev[] = {o->sm_count, o->l2, o->bw, o->smem_sm, o->regs_sm, o->threads_sm, o->blocks_sm};
	for (size_t i = 0; !bad && i < sizeof dev / sizeof dev[0]; i++)
		if (dev[i] != MISSING)
			bad = "a device flag (--sm-count, --l2, ...)";
	if (bad && o->measure) {
		cli_err(CMD, "--measure plans on the GPU present with the library's kernels; %s does not go with it", bad);
		return EXIT_USAGE;
	}
	if (!o->measure) {
		cli_err(CMD, "%s: only with --measure", o->budget_ms ? "--budget-ms" : "--no-cache");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	plan_opts o = {0};
	problem_init(&o);
	const char **pos = calloc((size_t)argc + 1, sizeof *pos);
	opt_spec *all = malloc((NPROBLEM + NOTHER) * sizeof *all);
	int npos, rc = pos && all ? 0 : EXIT_INPUT;
	if (!rc) {
		memcpy(all, problem_flags, sizeof problem_flags);
		memcpy(all + NPROBLEM, other_flags, sizeof other_flags);
		rc = opt_parse(CMD, argc, argv, all, NPROBLEM + NOTHER, &o, pos, &npos, usage);
	}
	free(all);
	if (rc) {
		free(pos);
		return rc == OPT_HELP ? EXIT_OK : rc;
	}
	model_problem p;
	char err[768], read[96];
	if (!o.cases && problem_of(&o, &p, read, sizeof read, err, sizeof err)) {
		free(pos);
		cli_err(CMD, "%s", err);
		return EXIT_USAGE;
	}
	if (o.measure || o.budget_ms || o.no_cache) {
		rc = measure_args(&o, npos);
		free(pos);
		return rc ? rc : plan_measure(&p, &(plan_measure_opts){o.json, o.no_cache, o.verbose, o.budget_ms, read});
	}
	if (o.verbose) {
		free(pos);
		cli_err(CMD, "-v: only --measure has notes to show");
		return EXIT_USAGE;
	}
	plan_ctx x = {.features = o.features};
	model_params own = {0};
	kreg *ks = NULL;
	strbuf json;
	sb_init(&json);
	if (!(rc = device_of(&o, &x)) && !(rc = params_of(&o, &x, &own)) && !(rc = load_kernels(&ks, pos, npos)) &&
	    !(rc = o.ptxas ? ptxas_regs(ks, &x.dev, o.cases ? 0 : p.es) : 0)) {
		if (o.json)
			plan_json_begin(&json, &x);
		if (o.cases) {
			rc = run_cases(&o, &x, ks, &json);
		} else {
			plan_result r;
			if (!(rc = plan_one(&x, ks, &p, read, &r))) {
				emit(&o, &x, &r, &json, 1);
				free(r.c);
			}
		}
		if (!rc && o.json) {
			plan_json_end(&json);
			fputs(sb_str(&json), stdout);
		}
	}
	sb_free(&json);
	kreg_free(ks);
	model_params_free(&own);
	free(pos);
	return rc;
}
