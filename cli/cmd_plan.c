/* ptxpose plan: choose a kernel for a problem by the cost model, without
 * running one: the GPU present as the library sees it (else a built-in or
 * described device), the library's kernels (or the files given), ranked as
 * ptxpose_plan_create ranks them (ptxpose_tool_rank,
 * include/ptxpose_tools.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts_shape.h"
#include "cli/plan.h"
#include "common/elem.h"
#include "common/fsio.h"
#include "inspect/inspect.h"
#include "rig/shape.h"

#define CMD "plan"

typedef struct {
	opt_shape sh;                /* the problem (the flags of a --cases line too) */
	/* the device */
	const char *device;
	uint64_t sm_count, l2, bw, smem_sm, regs_sm, threads_sm, blocks_sm;
	/* what to do */
	const char *params, *cases;
	int json, features, measure, ptxas, no_cache, verbose;
	uint64_t budget_ms;
} plan_opts;

/* The device's numbers start MISSING, so a flag given as 0 is told from one
 * not given. */
#define MISSING UINT64_MAX
#define NUM(flag, field) {flag, OPT_NUM, offsetof(plan_opts, field), 0, MISSING - 1, NULL}

/* The problem's flags (cli/opts_shape.h), the command line's and each --cases
 * line's: every shape flag, numbers of any size (the problem's check names
 * what is out of range). */
#define SHAPE (OPT_SH_DIMS | OPT_SH_BATCH | OPT_SH_ND | OPT_SH_ELEM | OPT_SH_OFFSET | OPT_SH_ALIGN | OPT_SH_ANY)

/* Its own flags, sorted. */
static const opt_spec flags[] = {
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
#define NFLAGS (sizeof flags / sizeof flags[0])

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptxpose plan --elem W --rows R --cols C [shape flags]\n"
		"       ptxpose plan --elem W --dims D0xD1x... --perm p0,p1,... [shape flags]\n"
		"                    [--device h100|h200|NAME] [--sm-count N] [--l2 BYTES] [--bw GB/s] ...\n"
		"                    [--json] [--features] [--params FILE.tsv] [DIR | FILE.ptx ...]\n"
		"       ptxpose plan --cases FILE [...]   (one problem per line, in the flags above)\n"
		"\n"
		"Choose the kernel for a transpose by the cost model, running no kernel, as the\n"
		"library's heuristic plan does for the GPU present (with no GPU, for a built-in\n"
		"H100; a GPU is not needed): every kernel of the element width (default: the\n"
		"library's, built in and from $PTXPOSE_PTX; or the files and folders given) gets a\n"
		"predicted time from its metadata and the problem: tiles, the access path each\n"
		"takes (vectors where pointers and pitches are aligned, realigned words for 1- and\n"
		"2-byte elements, elements, predicated edge tiles), bytes in whole 32-byte sectors,\n"
		"occupancy, waves, bytes in flight and the share the L2 serves, weighted by the\n"
		"constants of the device's table, lib/model_params*.tsv (fitted by\n"
		"bench/fit_model.py; the model: line names it). Prints the\n"
		"choice, why it beat the runner-up, every candidate with its predicted time and\n"
		"biggest costs, and whether the model is unsure (the runner-up within its margin).\n"
		"\n"
		"An N-d permutation (--dims, --perm) is reduced first, as the library does (without\n"
		"--offset or --align-*, nothing is folded into a wider element); `permutation:`\n"
		"says what it reduced to, and the 2-D problem below is the kernels'.\n"
		"\n"
		"The shape flags (--elem, --rows and --cols required; the output says which unit\n"
		"--elem was read in; --offset or --align-in/--align-out, not both):\n");
	opt_shape_help(f, SHAPE);
	fprintf(f,
		"\n"
		"The model's device, kernels and constants:\n"
		"  --device NAME      a built-in device: h100 or h200, or its full name (default: the\n"
		"                     GPU present, as the library's plans see it; without one, h100)\n"
		"  --sm-count N, --l2 BYTES, --bw GBPS, --smem-per-sm BYTES, --regs-per-sm N,\n"
		"  --threads-per-sm N, --blocks-per-sm N   change the device's description\n"
		"  --params FILE      the model's constants from FILE instead of the built-in table\n"
		"  --ptxas            registers per thread from ptxas for the device's architecture\n"
		"                     (occupancy); otherwise estimated from the data per thread\n"
		"  --features         every feature of every candidate (text and JSON)\n"
		"  --json             one JSON object (format \"ptxpose-plan 1\")\n"
		"  --cases FILE       plan every line of FILE (the problem flags; '#' comments)\n"
		"\n"
		"       ptxpose plan --measure --elem W --rows R --cols C [shape flags]\n"
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
		"  -v                 the library's notes (the cache: bad entries, an unusable folder);\n"
		"                     without --measure, why the GPU present is not described\n"
		"\n"
		"Exit: 0 ok, 2 usage (a bad flag, an impossible problem: ld < cols, a zero\n"
		"dimension, bytes that overflow, a misaligned pointer; --measure with a flag that\n"
		"describes a model device or files), 3 input (a PTX file without metadata, no\n"
		"kernel for the width, an unreadable --cases or --params file, an N-d problem\n"
		"that reduces to a class without kernels yet: PTXPOSE_ERR_UNSUPPORTED), 4 --measure: no\n"
		"CUDA driver or device, 5 --measure: a CUDA or JIT error, --ptxas: ptxas rejected\n"
		"a file, 7 --ptxas: no ptxas.\n");
}

/* ---- the problem ------------------------------------------------------------ */

static void problem_init(plan_opts *o)
{
	o->sh = opt_shape_init();
	o->sm_count = o->l2 = o->bw = o->smem_sm = o->regs_sm = o->threads_sm = o->blocks_sm = MISSING;
}

/* An N-d problem's spec and reduction, for the result. */
typedef struct {
	char spec[256], why[256];
	unsigned es;
} nd_note;

/* The problem of o as the library takes it, in *d, and checked, in *p (the
 * library's one conversion, lib/model.h); in `read` how its --elem was read
 * ("f32: a type name"); an N-d problem's spec and reduction in *nd. 0, or
 * an exit code and one line in err: EXIT_USAGE, or EXIT_INPUT for an N-d
 * problem whose class has no kernels yet (PTXPOSE_ERR_UNSUPPORTED). */
static int problem_of(const plan_opts *o, ptxpose_desc *d, ptxpose_tool_problem *p, char *read, size_t rlen,
		      nd_note *nd, char *err, size_t errlen)
{
	memset(nd, 0, sizeof *nd);
	const opt_shape *sh = &o->sh;
	int elem = opt_shape_given(sh, "--elem"), rows = opt_shape_given(sh, "--rows"),
	    cols = opt_shape_given(sh, "--cols");
	int is_nd = sh->s.p.rank > 0;
	if (!elem || ((!rows || !cols) && !is_nd)) {
		snprintf(err, errlen, "needs%s%s%s", !elem ? " --elem W" : "", !rows && !is_nd ? " --rows R" : "",
			 !cols && !is_nd ? " --cols C" : "");
		return EXIT_USAGE;
	}
	snprintf(read, rlen, "%s: %s", sh->elem.text, elem_unit_name(sh->elem.unit));
	*d = sh->s.p;
	int have_offset = opt_shape_given(sh, "--offset");
	if (have_offset && (d->align_in || d->align_out)) {
		snprintf(err, errlen, "--offset and --align-in/--align-out both describe the pointers: give one");
		return EXIT_USAGE;
	}
	uint64_t big = have_offset && sh->s.offset > 0xffffffffu ? sh->s.offset
		     : d->align_in > 0x80000000u ? d->align_in : d->align_out > 0x80000000u ? d->align_out : 0;
	if (big) {
		snprintf(err, errlen, "%s %llu is too large", big == sh->s.offset ? "--offset" : "--align",
			 (unsigned long long)big);
		return EXIT_USAGE;
	}
	if (have_offset)
		d->align_in = d->align_out = ptxpose_tool_align_of_offset(sh->s.offset, d->elem_bytes);
	if (ptxpose_tool_problem_of_desc(p, d, nd->why, sizeof nd->why)) {
		snprintf(err, errlen, "%s", ptxpose_last_error());
		return EXIT_USAGE;
	}
	if (is_nd) {
		rig_shape_nd_name(&sh->s, nd->spec, sizeof nd->spec);
		nd->es = d->elem_bytes;
	}
	if (!p->copy_elems && ptxpose_tool_problem_check(p)) {
		snprintf(err, errlen, "%s", ptxpose_last_error());
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- kernels -------------------------------------------------------------- */

/* Registers per thread from ptxas, for the kernels of width es (0: all). */
static int ptxas_regs(ptxpose_tool_kernels *r, const ptxpose_tool_device *d, unsigned es)
{
	char tool[INS_PATH_MAX], err[512], arch[16];
	if (ins_find_ptxas(tool, sizeof tool, err, sizeof err)) {
		cli_err(CMD, "--ptxas: %s", err);
		return EXIT_TOOL;
	}
	snprintf(arch, sizeof arch, "sm_%u%u", d->cc_major, d->cc_minor);
	for (int i = 0; i < ptxpose_tool_kernels_count(r); i++) {
		ptxpose_tool_kernel k;
		ptxpose_tool_kernels_get(r, i, &k);
		if (es && k.es != es)
			continue;
		ins_res res;
		strbuf log;
		sb_init(&log);
		int rc = ins_ptxas_text(tool, k.ptx, arch, &res, NULL, &log, err, sizeof err);
		sb_free(&log);
		if (rc) {
			cli_err(CMD, "--ptxas: %s: %s", k.name, err);
			return rc == INS_EASM ? EXIT_CUDA : EXIT_TOOL;
		}
		if (ptxpose_tool_kernels_set_regs(r, i, res.registers)) {
			cli_err(CMD, "out of memory");
			return EXIT_INPUT;
		}
	}
	return 0;
}

/* The files and folders given, else the library's kernels (built in, and
 * $PTXPOSE_PTX). */
static int load_kernels(ptxpose_tool_kernels **r, const char **pos, int npos)
{
	ptxpose_status st = ptxpose_tool_kernels_new(r);
	if (!st && !npos)
		st = ptxpose_tool_kernels_add_library(*r);
	for (int i = 0; !st && i < npos; i++)
		st = ptxpose_tool_kernels_add_path(*r, pos[i]);
	if (st)
		cli_err(CMD, "%s", ptxpose_last_error());
	return st ? EXIT_INPUT : 0;
}

/* ---- the device and the model --------------------------------------------- */

/* The GPU present (device 0), described as the library's plans describe it
 * and read without making a context: 1, or 0 for the built-in H100 where
 * there is no driver or device (said under -v) or the driver fails (said). */
static int gpu_device(const plan_opts *o, plan_ctx *x)
{
	ptxpose_status st = ptxpose_tool_device_present(&x->dev);
	if (!st) {
		x->dev_note = "the GPU present";
		return 1;
	}
	if (o->verbose || (st != PTXPOSE_ERR_NO_DRIVER && st != PTXPOSE_ERR_NO_DEVICE))
		fprintf(stderr, "ptxpose " CMD ": the GPU present cannot be described (%s): the built-in H100\n",
			ptxpose_last_error());
	return 0;
}

static int device_of(const plan_opts *o, plan_ctx *x)
{
	int described = o->l2 != MISSING || o->bw != MISSING || o->sm_count != MISSING || o->smem_sm != MISSING ||
		    o->regs_sm != MISSING || o->threads_sm != MISSING || o->blocks_sm != MISSING;
	if (!o->device && !described && gpu_device(o, x))
		return 0;
	if (ptxpose_tool_device_builtin(o->device ? o->device : "h100", &x->dev)) {
		cli_err(CMD, "--device: %s", ptxpose_last_error());
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
	if (ptxpose_tool_device_check(&x->dev)) {
		cli_err(CMD, "%s", ptxpose_last_error());
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

static int params_of(const plan_opts *o, plan_ctx *x, ptxpose_tool_params **own)
{
	x->params = ptxpose_tool_params_for(x->dev.name, x->dev.cc_major, x->dev.cc_minor, x->dev.sm_count, NULL,
					    &x->params_from); /* the device's table, its label */
	if (!o->params)
		return 0;
	char *text = read_text("--params", o->params);
	if (!text)
		return EXIT_INPUT;
	ptxpose_status st = ptxpose_tool_params_parse(text, own);
	free(text);
	if (st) {
		cli_err(CMD, "%s: %s", o->params, ptxpose_last_error());
		return EXIT_INPUT;
	}
	x->params = *own;
	x->params_from = o->params;
	return 0;
}

/* ---- one plan ------------------------------------------------------------- */

static int plan_one(const plan_ctx *x, const ptxpose_tool_kernels *r, const ptxpose_tool_problem *p,
		    const char *elem_read, const nd_note *nd, plan_result *out)
{
	ptxpose_tool_ranking res;
	memset(out, 0, sizeof *out);
	out->p = *p;
	snprintf(out->nd_spec, sizeof out->nd_spec, "%s", nd->spec);
	snprintf(out->nd_why, sizeof out->nd_why, "%s", nd->why);
	out->nd_es = nd->es;
	snprintf(out->elem_read, sizeof out->elem_read, "%s", elem_read);
	if (ptxpose_tool_rank(r, &x->dev, x->params, p, &res)) {
		cli_err(CMD, "%s", ptxpose_last_error());
		return EXIT_INPUT;
	}
	if (!(out->c = calloc((size_t)res.n, sizeof *out->c))) {
		ptxpose_tool_ranking_free(&res);
		cli_err(CMD, "out of memory");
		return EXIT_INPUT;
	}
	for (int i = 0; i < res.n; i++) {
		out->c[i] = (plan_cand){.f = res.c[i].f, .e = res.c[i].e, .beyond = res.c[i].beyond};
		ptxpose_tool_kernels_get(r, res.c[i].index, &out->c[i].k);
	}
	out->n = res.n;
	out->unsure = res.unsure;
	if ((out->copy = ptxpose_tool_problem_is_copy(p, out->copy_why, sizeof out->copy_why))) {
		out->unsure = 0;
		out->copy_us = ptxpose_tool_copy_us(&x->dev, p);
	}
	ptxpose_tool_ranking_free(&res);
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
static int run_cases(const plan_opts *o, const plan_ctx *x, const ptxpose_tool_kernels *ks, strbuf *json)
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
		if (opt_parse_shape(where, argc, argv, NULL, 0, NULL, &po.sh, SHAPE, pos, &npos, usage))
			rc = EXIT_USAGE;
		ptxpose_desc d;
		ptxpose_tool_problem p;
		plan_result r;
		nd_note nd;
		if (!rc && npos) {
			cli_err(where, "unexpected '%s'", pos[0]);
			rc = EXIT_USAGE;
		} else if (!rc && (rc = problem_of(&po, &d, &p, read, sizeof read, &nd, err, sizeof err))) {
			cli_err(where, "%s", err);
		} else if (!rc && !(rc = plan_one(x, ks, &p, read, &nd, &r))) {
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
	int npos, rc = pos ? 0 : EXIT_INPUT;
	if (!rc)
		rc = opt_parse_shape(CMD, argc, argv, flags, NFLAGS, &o, &o.sh, SHAPE, pos, &npos, usage);
	if (rc) {
		free(pos);
		return rc == OPT_HELP ? EXIT_OK : rc;
	}
	ptxpose_desc d;
	ptxpose_tool_problem p;
	nd_note nd;
	char err[1024], read[96];
	if (!o.cases && (rc = problem_of(&o, &d, &p, read, sizeof read, &nd, err, sizeof err))) {
		free(pos);
		cli_err(CMD, "%s", err);
		return rc;
	}
	if (o.measure || o.budget_ms || o.no_cache) {
		rc = measure_args(&o, npos);
		free(pos);
		return rc ? rc : plan_measure(&d, &p, &(plan_measure_opts){o.json, o.no_cache, o.verbose, o.budget_ms, read});
	}
	plan_ctx x = {.features = o.features};
	ptxpose_tool_params *own = NULL;
	ptxpose_tool_kernels *ks = NULL;
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
			if (!(rc = plan_one(&x, ks, &p, read, &nd, &r))) {
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
	ptxpose_tool_kernels_free(ks);
	ptxpose_tool_params_free(own);
	free(pos);
	return rc;
}
