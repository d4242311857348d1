/* ptxpose bench: for every shape and every variant of a matching width,
 * verify once, then time against the same-run copy (and cuBLAS geam where
 * it exists); write bench.md and bench.csv after every case. */
#include <glob.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig/rig_report.h"
#include "rig/geam.h"
#include "cli/cli.h"
#include "cli/gpu.h"
#include "cli/kernel_arg.h"
#include "cli/opts_shape.h"
#include "rig/rig.h"

#define CMD "bench"
#define HELP_SHOWN (-1)

/* Keep in step with the --help text below. */
#define BENCH_SHAPES "16384x16384,8192x8192,8191x8193,4096x4096,2048x2048,65536x4096,4096x65536"

typedef struct {
	const char *shapes, *out_dir, *time;
	opt_shape sh;           /* one shape (--rows, --cols, ...); sh.elem: only files of this width */
	uint64_t iters, seed;
	int flush_l2, no_cublas, verbose;
	const char **files;
	size_t nfiles;
	glob_t g;  /* the default files */
	rig_time_opts topt;
} bench_opts;

/* The shape flags it takes (cli/opts_shape.h); then its own, sorted. */
#define SHAPE (OPT_SH_DIMS | OPT_SH_BATCH | OPT_SH_ND | OPT_SH_ELEM)
static const opt_spec flags[] = {
	{"--flush-l2", OPT_SWITCH, offsetof(bench_opts, flush_l2), 0, 0, NULL},
	{"--iters", OPT_NUM, offsetof(bench_opts, iters), 1, 10000, NULL},
	{"--no-cublas", OPT_SWITCH, offsetof(bench_opts, no_cublas), 0, 0, NULL},
	{"--out-dir", OPT_STR, offsetof(bench_opts, out_dir), 0, 0, NULL},
	{"--seed", OPT_NUM, offsetof(bench_opts, seed), 0, UINT64_MAX, NULL},
	{"--shapes", OPT_STR, offsetof(bench_opts, shapes), 0, 0, NULL},
	{"--time", OPT_STR, offsetof(bench_opts, time), 0, 0, NULL},
	{"--verbose", OPT_SWITCH, offsetof(bench_opts, verbose), 0, 0, "-v"},
};

typedef struct {
	px_file f;
	int linked;      /* registered and linked in the handle of generation gen */
	unsigned gen;
	char err[1024];  /* why it cannot run, when it cannot */
} bench_var;

typedef struct {
	const bench_opts *o;
	bench_var *v;
	size_t nv;
	rig_shape *shapes;
	size_t nshapes;
	cli_gpu g;       /* g.h NULL until the driver is opened */
	rig_geam *geam;
	rig_time_opts topt;
	rig_shape *cases;    /* every shape at every width it applies to */
	size_t ncases;
	rig_row *rows;
	size_t nrows;
	size_t timed;       /* kernels (of the files) verified and timed: the
			     * copy and cuBLAS alone are no result */
	int unsaved;        /* the last write of the tables failed */
	rig_report_head head;
	int code;
} bench;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptxpose bench [--shapes LIST | --rows R --cols C [shape flags]] [--elem W]\n"
		"                     [--iters N] [--seed S] [--out-dir DIR] [--time graph|events] [--flush-l2]\n"
		"                     [--no-cublas] [-v]\n"
		"                     [FILE.ptx...]\n"
		"\n"
		"For every shape and every FILE.ptx (default ptx/*.ptx) of a matching width: verify\n"
		"once (a wrong result is a FAIL row, never timed), then time it; time the copy\n"
"(cuMemcpyDtoD of batch*rows*cols*elem bytes) and cuBLAS geam (32-, 64-, 128-bit;\n"
		"batches of one) the same way in the same run. Progress on stderr; the table on\n"
		"stdout and in DIR/bench.md and DIR/bench.csv, both rewritten together (both or\n"
		"neither) after every case once a kernel has been timed; a run that times no\n"
		"kernel (all skipped, failed or wrong: the copy and cuBLAS do not count) leaves\n"
		"them as they were. Shapes that do not fit in this device's or this\n"
		"machine's memory are skipped with a note.\n"
		"Every input (flags, shapes, every file and its metadata, DIR) is checked before\n"
		"anything runs: one bad input stops the bench with nothing written.\n"
		"\n"
		"  --shapes LIST   comma-separated " RIG_SHAPE_SYNTAX "\n"
		"                  or N-d " RIG_SHAPE_ND_SYNTAX "\n"
		"                  entries (an N-d one runs the kernels of its reduced width), default\n"
		"                  " BENCH_SHAPES "\n"
		"The shape flags: one shape instead of a list (--rows and --cols together, or --dims\n"
		"and --perm); --elem: only files of this width.\n");
	opt_shape_help(f, SHAPE);
	fprintf(f,
		"  --iters N       timed replays (graph) or calls (events) a variant, the median is\n"
		"                  reported (default 100)\n"
		"  --seed S        seed of the random input (default 1)\n"
		"  --out-dir DIR   where bench.md and bench.csv go (default bench/results)\n"
		"  --time graph    (the default) K back-to-back calls captured in one CUDA graph, K so\n"
		"                  that a replay lasts >= 1 ms (1 to 1000); a call is the median\n"
		"                  replay / K; the L2 stays warm. The copy is also timed as K calls\n"
		"                  outside a graph and the faster counts; what cannot be captured\n"
		"                  (cuBLAS in some setups) is timed as K back-to-back calls between\n"
		"                  two events, and its row's note says so\n"
		"  --time events   events around each call and a wait after it: launch overhead included\n"
		"  --flush-l2      overwrite twice the L2 before each timed call; per call only, so it\n"
		"                  implies --time events (with --time graph it is refused)\n"
		"  --no-cublas     leave out the cublas_geam rows\n"
		"  -v              driver, JIT and timing details on stderr\n"
		"\n"
		"Exit: 0 all verified, 1 some result wrong, 2 usage (or no kernel could be timed),\n"
		"3 input (missing file, no metadata, cannot write DIR, every case skipped: no file\n"
		"of the width --elem or elem= asks for, as check exits), 4 no CUDA driver or device, 5\n"
		"CUDA or JIT error.\n"
		"With several kinds of failure, the first that is not 1 wins.\n");
}

static int parse(int argc, char **argv, bench_opts *o)
{
	o->iters = 100;
	o->seed = 1;
	o->out_dir = "bench/results";
	if (!(o->files = calloc((size_t)argc, sizeof *o->files))) {
		cli_err(CMD, "out of memory");
		return EXIT_CUDA;
	}
	int np;
	o->sh = opt_shape_init();
	int rc = opt_parse_shape(CMD, argc, argv, flags, sizeof flags / sizeof flags[0], o, &o->sh, SHAPE, o->files,
				 &np, usage);
	o->nfiles = (size_t)np;
	if (rc)
		return rc == OPT_HELP ? HELP_SHOWN : rc;
	if ((rc = opt_shape_alone(CMD, &o->sh, o->shapes)))
		return rc;
	char err[256];
	o->topt = (rig_time_opts){.iters = (int)o->iters, .warmup = 10};
	if (rig_time_choose(o->time, o->flush_l2, &o->topt, err, sizeof err)) {
		cli_err(CMD, "%s", err);
		return EXIT_USAGE;
	}
	if (!o->nfiles) {
		if (glob("ptx/*.ptx", 0, NULL, &o->g) || !o->g.gl_pathc) {
			cli_err(CMD, "no FILE.ptx given and none in ptx/");
			return EXIT_INPUT;
		}
		free(o->files);
		o->files = (const char **)o->g.gl_pathv;
		o->nfiles = o->g.gl_pathc;
	}
	return EXIT_OK;
}

static void note_code(bench *b, int code)
{
	b->code = cli_exit_merge(b->code, code);
}

static void add_row(bench *b, const char *variant, const rig_shape *s, rig_row_state state, const char *note)
{
	rig_row *r = realloc(b->rows, (b->nrows + 1) * sizeof *r);
	if (!r)
		return;
	b->rows = r;
	r = &r[b->nrows++];
	memset(r, 0, sizeof *r);
	snprintf(r->variant, sizeof r->variant, "%s", variant);
	r->shape = *s;
	r->state = state;
	snprintf(r->note, sizeof r->note, "%s", note ? note : "");
	r->pct_copy = -1;
}

/* After a kernel faulted: a fresh context, kernels linked again as needed,
 * and the buffers of shape s (if any) made again. 0 when the case can go on. */
static int recover(bench *b, const rig_shape *s)
{
	char err[1024];
	/* after the reset, what the old context held is dropped, never freed;
	 * the files are linked again in the new handle as they are needed */
	rig_geam_close(b->geam);
	b->geam = NULL;
	px_status st = cli_gpu_reset(&b->g, err, sizeof err);
	if (!st && !b->o->no_cublas && rig_geam_open(b->g.drv, &b->geam, err, sizeof err))
		b->geam = NULL;
	if (!st && s)
		st = rig_prepare(b->g.rig, s, b->o->seed, err, sizeof err);
	if (st) {
		cli_err(CMD, "after a device reset: %s", err);
		note_code(b, cli_exit(st));
	}
	return st != PX_OK;
}

/* The file registered and linked in the current handle: 1, or 0 (v->err says why). */
static int link_var(bench *b, bench_var *v)
{
	if (v->err[0])
		return 0;
	if (v->linked && v->gen == b->g.gen)
		return 1;
	cli_gpu_jit_clear(&b->g);
	px_status st = cli_gpu_link(&b->g, &v->f, v->err, sizeof v->err);
	if (st) {
		cli_err(CMD, "%s", v->err);
		note_code(b, cli_exit(st));
	}
	if (st || b->o->verbose)
		fputs(cli_gpu_jit(&b->g), stderr);
	v->linked = !st;
	v->gen = b->g.gen;
	return v->linked;
}

/* Verify op on the rig's shape, then time it: one row. Returns the status. */
static px_status bench_op(bench *b, const rig_op *op, const rig_shape *s, double copy_us)
{
	char err[1024];
	vfy_result res;
	rig_timing t;
	px_status st = rig_verify(b->g.rig, op, &res, err, sizeof err);
	if (st == PX_WRONG)
		vfy_describe(&res, s, err, sizeof err);
	if (!st)
		st = rig_time(b->g.rig, op, &b->topt, &t, err, sizeof err);
	if (st) {
		add_row(b, op->name, s, st == PX_WRONG ? RIG_ROW_FAIL : RIG_ROW_ERROR, err);
		note_code(b, st == PX_WRONG ? EXIT_WRONG : cli_exit(st));
		if (st != PX_WRONG)
			cli_err(CMD, "%s", err);
		return st;
	}
	add_row(b, op->name, s, RIG_ROW_OK, t.note);
	rig_row *r = &b->rows[b->nrows - 1];
	rig_time_how_text(&t, r->timing, sizeof r->timing);
	r->us = t.median_us;
	r->gbps = rig_gbps(s, t.median_us);
	r->pct_copy = copy_us > 0 ? 100 * copy_us / t.median_us : -1;
	return PX_OK;
}

/* The width of the kernels that run s (of a width): its own, or an N-d
 * shape's reduced one (0 when it does not reduce), the reduced problem in *t
 * (t->span_in 0 for a 2-D shape). */
static unsigned kernel_bits(const rig_shape *s, ptxpose_tool_problem *t)
{
	memset(t, 0, sizeof *t);
	if (!s->p.rank)
		return rig_shape_elem_bits(s);
	char err[512];
	if (rig_shape_reduce(s, t, NULL, 0, err, sizeof err))
		return 0;
	return t->es * 8;
}

static void bench_variants(bench *b, const rig_shape *s, double copy_us, const char *tag)
{
	size_t nvar = 0, k = 0;
	ptxpose_tool_problem t;
	unsigned bits = kernel_bits(s, &t);
	for (size_t i = 0; i < b->nv; i++)
		nvar += b->v[i].f.meta.elem_bits == bits;
	for (size_t i = 0; i < b->nv; i++) {
		bench_var *v = &b->v[i];
		if (v->f.meta.elem_bits != bits)
			continue;
		fprintf(stderr, "[%s] variant %zu/%zu %s\n", tag, ++k, nvar, v->f.meta.kernel);
		char err[512];
		if (!s->p.rank && v->f.meta.op == META_OP_COPY) { /* a 2-D shape is a transpose's */
			add_row(b, v->f.meta.kernel, s, RIG_ROW_SKIP, "op=copy: a row copy runs the tiled copies of N-d shapes");
			continue;
		}
		if (s->p.rank && *rig_kernel_pending(&v->f.meta, &t, err, sizeof err)) {
			add_row(b, v->f.meta.kernel, s, RIG_ROW_SKIP, err);
			continue;
		}
		if (rig_launch_check(&v->f.meta, s, err, sizeof err)) {
			add_row(b, v->f.meta.kernel, s, RIG_ROW_SKIP, err);
			continue;
		}
		if (!link_var(b, v)) {
			add_row(b, v->f.meta.kernel, s, RIG_ROW_ERROR, v->err);
			continue;
		}
		ptxpose_plan plan = NULL;
		px_status st = cli_gpu_plan(&b->g, v->f.meta.kernel, s, &plan, err, sizeof err);
		if (st) {
			add_row(b, v->f.meta.kernel, s, RIG_ROW_ERROR, err);
			cli_err(CMD, "%s", err);
			note_code(b, cli_exit(st));
			continue;
		}
		rig_op op = rig_op_plan(plan, v->f.meta.kernel);
		st = bench_op(b, &op, s, copy_us);
		ptxpose_plan_destroy(plan);
		b->timed += st == PX_OK;
		if (st == PX_ECUDA && recover(b, s))
			return;
	}
	if (b->geam && rig_geam_supports(rig_shape_elem_bits(s)) && s->p.batch == 1) { /* geam: one matrix a call */
		fprintf(stderr, "[%s] cublas_geam\n", tag);
		rig_op op = rig_op_geam(b->geam);
		if (bench_op(b, &op, s, copy_us) == PX_ECUDA)
			recover(b, NULL);
	}
}

static void bench_case(bench *b, rig_shape s, int ci, int ncases)
{
	char name[96], tag[160], err[1024];
	rig_shape_name(&s, name, sizeof name);
	snprintf(tag, sizeof tag, "case %d/%d %s elem=%u", ci, ncases, name, rig_shape_elem_bits(&s));
	fprintf(stderr, "[%s] copy\n", tag);
	px_status st = rig_fits(b->g.rig, &s, err, sizeof err);
	if (st == PX_EUSAGE) {
		add_row(b, "copy", &s, RIG_ROW_SKIP, err);
		fprintf(stderr, "[%s] skipped: %s\n", tag, err);
		return;
	}
	if (!st)
		st = rig_prepare(b->g.rig, &s, b->o->seed, err, sizeof err);
	rig_timing t;
	rig_op copy = rig_op_copy(b->g.drv);
	if (!st)
		st = rig_time(b->g.rig, &copy, &b->topt, &t, err, sizeof err);
	if (st) {
		add_row(b, "copy", &s, RIG_ROW_ERROR, err);
		cli_err(CMD, "%s: %s", name, err);
		note_code(b, cli_exit(st));
		if (st == PX_ECUDA)
			recover(b, NULL);
		return;
	}
	char note[sizeof t.note + 32];
	snprintf(note, sizeof note, "cuMemcpyDtoDAsync%s%s", t.note[0] ? "; " : "", t.note);
	add_row(b, "copy", &s, RIG_ROW_OK, note);
	rig_row *r = &b->rows[b->nrows - 1];
	rig_time_how_text(&t, r->timing, sizeof r->timing);
	r->us = t.median_us;
	r->gbps = rig_gbps(&s, t.median_us);
	r->pct_copy = 100;
	bench_variants(b, &s, t.median_us, tag);
}

/* The widths, ascending, of the loaded files that shape s applies to. */
static int case_elems(const bench *b, const rig_shape *s, unsigned elems[5])
{
	int n = 0;
	for (unsigned bits = 8; bits <= 128; bits *= 2) {
		unsigned want = b->o->sh.elem.bits;
		if ((rig_shape_elem_bits(s) && rig_shape_elem_bits(s) != bits) || (want && want != bits))
			continue;
		rig_shape t = *s;
		t.p.elem_bytes = bits / 8;
		ptxpose_tool_problem r;
		unsigned kbits = kernel_bits(&t, &r); /* an N-d shape may fold to a wider width */
		for (size_t i = 0; i < b->nv; i++)
			if (b->v[i].f.meta.elem_bits == kbits) {
				elems[n++] = bits;
				break;
			}
	}
	return n;
}

/* Every file loaded, or the first that cannot be (its exit code). */
static int load_files(bench *b)
{
	char err[1024];
	if (!(b->v = calloc(b->o->nfiles, sizeof *b->v))) {
		cli_err(CMD, "out of memory");
		return EXIT_CUDA;
	}
	for (size_t i = 0; i < b->o->nfiles; i++) {
		px_status st = cli_kernel_load(&b->v[i].f, b->o->files[i], err, sizeof err);
		if (st) {
			cli_err(CMD, "%s", err);
			return cli_exit(st);
		}
		b->nv = i + 1;
	}
	return EXIT_OK;
}

/* Every case (a shape at a width some file has), each checked: a shape that
 * no buffer can hold, or with ld < cols, is refused before anything runs. */
static int make_cases(bench *b)
{
	char err[1024];
	unsigned elems[5];
	size_t cap = 0;
	for (size_t i = 0; i < b->nshapes; i++)
		cap += (size_t)case_elems(b, &b->shapes[i], elems);
	if (!cap) {
		cli_err(CMD, "nothing to time: no file has the width that --elem or the shapes' elem= ask for");
		return EXIT_INPUT;
	}
	if (!(b->cases = calloc(cap, sizeof *b->cases))) {
		cli_err(CMD, "out of memory");
		return EXIT_CUDA;
	}
	for (size_t i = 0; i < b->nshapes; i++) {
		int n = case_elems(b, &b->shapes[i], elems);
		for (int e = 0; e < n; e++) {
			rig_shape *s = &b->cases[b->ncases++];
			*s = b->shapes[i];
			s->p.elem_bytes = elems[e] / 8;
			char name[96];
			if (rig_shape_check(s, err, sizeof err)) {
				cli_err(CMD, "%s elem=%u: %s", rig_shape_name(&b->shapes[i], name, sizeof name), elems[e], err);
				return EXIT_USAGE;
			}
		}
	}
	return EXIT_OK;
}

static void bench_free(bench *b, bench_opts *o)
{
	for (size_t i = 0; i < b->nv; i++)
		px_file_free(&b->v[i].f);
	free(b->v);
	rig_geam_close(b->geam);
	if (b->g.h || b->g.drv)
		cli_gpu_close(&b->g);
	free(b->shapes);
	free(b->cases);
	free(b->rows);
	if (o->g.gl_pathc)
		globfree(&o->g);
	else
		free(o->files);
}

/* Rewrite the tables once a kernel has been timed: a run that times none
 * (every case skipped, every kernel failed or wrong; the copy and cuBLAS
 * timed alone) leaves the old tables alone. */
static void save(bench *b)
{
	char err[1024];
	if (!b->timed)
		return;
	px_status st = rig_report_write(b->o->out_dir, &b->head, b->rows, b->nrows, err, sizeof err);
	b->unsaved = st != PX_OK;
	if (st) {
		cli_err(CMD, "%s", err);
		note_code(b, cli_exit(st));
	}
}

int cmd_bench(int argc, char **argv)
{
	bench_opts o = {0};
	bench b = {.o = &o};
	char err[1024];
	int code = parse(argc, argv, &o);
	px_status st = PX_OK;
	if (code)
		goto out;
	/* every input is checked before the driver is opened or a file written */
	st = opt_shape_select(&o.sh, o.shapes ? o.shapes : BENCH_SHAPES, &b.shapes, &b.nshapes, err, sizeof err);
	if (st) {
		cli_err(CMD, "%s", err);
		code = cli_exit(st);
		goto out;
	}
	if ((code = load_files(&b)) || (code = make_cases(&b)))
		goto out;
	if ((st = rig_report_writable(o.out_dir, err, sizeof err))) {
		cli_err(CMD, "%s", err);
		code = cli_exit(st);
		goto out;
	}
	if ((st = cli_gpu_open(&b.g, o.verbose, err, sizeof err))) {
		cli_err(CMD, "%s", err);
		code = cli_exit(st);
		goto out;
	}
	b.topt = o.topt;
	rig_report_head_init(&b.head, b.g.drv, &b.topt);
	if (!o.no_cublas && rig_geam_open(b.g.drv, &b.geam, err, sizeof err))
		snprintf(b.head.extra, sizeof b.head.extra, "cublas_geam: not measured (%.200s)", err);
	else if (b.geam)
		snprintf(b.head.extra, sizeof b.head.extra, "cublas_geam: %s; its input has no NaN, Inf, zero or subnormal"
			 " (geam computes 1*a + 0*c)", rig_geam_version(b.geam));
	for (size_t i = 0; i < b.ncases; i++) {
		bench_case(&b, b.cases[i], (int)i + 1, (int)b.ncases);
		save(&b);
	}
	strbuf md;
	sb_init(&md);
	rig_report_md(&md, &b.head, b.rows, b.nrows);
	fputs(sb_str(&md), stdout);
	sb_free(&md);
	if (b.timed && !b.unsaved) {
		strbuf dir;
		sb_init(&dir);
		sb_add_esc(&dir, o.out_dir, strlen(o.out_dir), NULL);
		fprintf(stderr, "ptxpose bench: %zu cases, %zu rows in %s/bench.md and bench.csv\n", b.ncases, b.nrows,
			sb_str(&dir));
		sb_free(&dir);
	} else if (!b.timed) {
		cli_err(CMD, "nothing was timed (every case was skipped or failed); %s/bench.md and bench.csv are "
			"left as they were (the copy and cuBLAS alone are no result)", o.out_dir);
		if (!b.code) /* a failure's own code says more */
			note_code(&b, EXIT_USAGE);
	}
	code = b.code;
out:
	bench_free(&b, &o);
	return code == HELP_SHOWN ? EXIT_OK : code;
}
