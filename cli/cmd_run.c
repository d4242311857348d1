/* ptxpose run: load one self-describing PTX file, transpose random data on
 * the GPU (or in the emulator), verify bit-exactly, time it against the
 * same-run copy. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/gpu.h"
#include "cli/kernel_arg.h"
#include "cli/opts_shape.h"
#include "cli/run_pick.h"
#include "emu/emu.h"
#include "rig/rig.h"

#define CMD "run"
#define HELP_SHOWN (-1)

typedef struct {
	const char *file, *time;
	opt_shape sh;
	uint64_t iters, seed;
	int no_time, flush_l2, emulate, verbose, measure;
	rig_time_opts topt;
} run_opts;

/* The shape flags it takes (cli/opts_shape.h); then its own, sorted. */
#define SHAPE (OPT_SH_DIMS | OPT_SH_BATCH | OPT_SH_ND | OPT_SH_ELEM | OPT_SH_OFFSET)
static const opt_spec flags[] = {
	{"--emulate", OPT_SWITCH, offsetof(run_opts, emulate), 0, 0, NULL},
	{"--flush-l2", OPT_SWITCH, offsetof(run_opts, flush_l2), 0, 0, NULL},
	{"--iters", OPT_NUM, offsetof(run_opts, iters), 1, 10000, NULL},
	{"--measure", OPT_SWITCH, offsetof(run_opts, measure), 0, 0, NULL},
	{"--no-time", OPT_SWITCH, offsetof(run_opts, no_time), 0, 0, NULL},
	{"--seed", OPT_NUM, offsetof(run_opts, seed), 0, UINT64_MAX, NULL},
	{"--shapes", OPT_REFUSE, 0, 0, 0, "run takes one shape (--rows, --cols); --shapes is for check and bench"},
	{"--time", OPT_STR, offsetof(run_opts, time), 0, 0, NULL},
	{"--verbose", OPT_SWITCH, offsetof(run_opts, verbose), 0, 0, "-v"},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptxpose run FILE.ptx --rows R --cols C [--ld-in L] [--ld-out L] [--elem W]\n"
		"       ptxpose run --elem W --rows R --cols C [--measure] [...]   (the library's plan)\n"
		"                   [--batch B [--stride-in S] [--stride-out S]] [--offset N]\n"
		"                   [--iters N] [--seed S] [--no-time] [--time graph|events] [--flush-l2]\n"
		"                   [--emulate] [-v]\n"
		"       ptxpose run [FILE.ptx] --elem W --dims D0xD1x... --perm p0,p1,... [...]\n"
		"\n"
		"Load FILE.ptx (its metadata names the kernel, element width, block and grid),\n"
		"register it with the library (libptxpose) and plan it, transpose a random rows x\n"
		"cols matrix on the GPU with ptxpose_execute, check the result bit-exactly (the\n"
		"ld-out padding and the gaps between matrices must keep their poison), then time\n"
		"it against a device-to-device copy of the same bytes measured in the same run.\n"
		"With FILE.ptx, --elem must match the file's elem= (a guard for scripts). Without\n"
		"it, the library's heuristic plan picks one of its kernels (built in, and\n"
		"$PTXPOSE_PTX) by the cost model for this device, width, shape and alignment;\n"
		"with --emulate, for the built-in H100. --rows and --cols are required, or\n"
		"--dims and --perm: any permutation of an N-d tensor (out = in.transpose(perm)),\n"
		"reduced as the library reduces it (the reduction is said on stderr); FILE.ptx then\n"
		"runs the reduced problem, whose width a fold makes wider than --elem; the output\n"
		"is compared whole, bytes no element lands on included. --emulate: a problem that\n"
		"reduces to a copy is verified as one host memcpy; a tiled copy or a batch of\n"
		"several dims has no kernel yet (exit 3).\n"
		"\n");
	opt_shape_help(f, SHAPE);
	fprintf(f,
		"  --measure     without FILE.ptx: the library's measured plan (PTXPOSE_PLAN_MEASURE: the\n"
		"                plausible kernels timed on the GPU, or the choice the on-disk cache\n"
		"                keeps from an earlier measurement; see ptxpose plan --measure)\n"
		"  --iters N     timed replays (graph) or calls (events), the median is reported\n"
		"                (default 100)\n"
		"  --seed S      seed of the random input (default 1)\n"
		"  --no-time     verify only\n"
		"  --time graph  (the default) capture K back-to-back calls in one CUDA graph, K so that\n"
		"                a replay lasts >= 1 ms (1 to 1000); a call is the median replay / K.\n"
		"                Launch overhead is left out; the L2 stays warm. The copy is timed\n"
		"                that way and as K back-to-back calls outside a graph: the faster\n"
		"                counts. A call that cannot be captured is timed as K back-to-back\n"
		"                calls between two events, and a note says so\n"
		"  --time events events around each call on the default stream and a wait after it:\n"
		"                launch overhead included\n"
		"  --flush-l2    overwrite twice the L2 before each timed call; per call only, so it\n"
		"                implies --time events (with --time graph it is refused)\n"
		"  --emulate     no GPU: run the kernel in the CPU emulator on exact-size buffers; it\n"
		"                verifies and never times, so --iters, --no-time, --time and --flush-l2\n"
		"                are refused\n"
		"  -v            driver, JIT and timing details (the method, K, both copy figures)\n"
		"                on stderr\n"
		"\n"
		"Prints: KERNEL RxC elem=E: PASS  US us  GB/s GB/s  P%% of copy (copy GB/s)  [DEVICE]\n"
		"GB/s counts bytes read + written (2*batch*rows*cols*elem).\n"
		"\n"
		"Exit: 0 pass, 1 wrong result, 2 usage (bad flag, shape, too large), 3 input (missing\n"
		"file, no metadata, emulator cannot run it, an N-d class without kernels yet:\n"
		"PTXPOSE_ERR_UNSUPPORTED), 4 no CUDA driver or device, 5 CUDA or JIT\n"
		"error (the JIT log is printed), 8 emulator fault.\n");
}

static int parse(int argc, char **argv, run_opts *o)
{
	o->seed = 1;
	const char **pos = calloc((size_t)argc + 1, sizeof *pos);
	int npos = 0;
	if (!pos) {
		cli_err(CMD, "out of memory");
		return EXIT_CUDA;
	}
	o->sh = opt_shape_init();
	int rc = opt_parse_shape(CMD, argc, argv, flags, sizeof flags / sizeof flags[0], o, &o->sh, SHAPE, pos, &npos,
				 usage);
	if (!rc && npos > 1) {
		cli_err(CMD, "one FILE.ptx at a time (got '%s' and '%s'; `ptxpose check` takes many)", pos[0], pos[1]);
		rc = EXIT_USAGE;
	}
	o->file = npos ? pos[0] : NULL;
	free(pos);
	if (rc)
		return rc == OPT_HELP ? HELP_SHOWN : rc;
	if ((!o->file && !o->sh.s.p.elem_bytes) || ((!o->sh.s.p.rows || !o->sh.s.p.cols) && !o->sh.s.p.rank)) {
		cli_err(CMD, "needs FILE.ptx (or --elem to pick one), --rows and --cols (or --dims and --perm) (see "
			     "ptxpose run --help)");
		return EXIT_USAGE;
	}
	if (o->measure && (o->file || o->emulate)) {
		cli_err(CMD, "--measure: the library's measured plan, on a GPU and without FILE.ptx; leave %s out",
			o->file ? "FILE.ptx" : "--emulate");
		return EXIT_USAGE;
	}
	const char *timing = o->iters ? "--iters" : o->no_time ? "--no-time" : o->time ? "--time" :
			     o->flush_l2 ? "--flush-l2" : NULL;
	if (o->emulate && timing) {
		cli_err(CMD, "%s: --emulate verifies and never times; leave %s out", timing, timing);
		return EXIT_USAGE;
	}
	if (!o->iters)
		o->iters = 100;
	char err[256];
	o->topt = (rig_time_opts){.iters = (int)o->iters, .warmup = 10};
	if (rig_time_choose(o->time, o->flush_l2, &o->topt, err, sizeof err)) {
		cli_err(CMD, "%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int fail(px_status st, const char *err)
{
	cli_err(CMD, "%s", err);
	return cli_exit(st);
}

static int report_wrong(const char *head, const vfy_result *res, const rig_shape *s, uint64_t seed)
{
	char why[512];
	printf("%s: FAIL %s (seed %llu)\n", head, vfy_describe(res, s, why, sizeof why), (unsigned long long)seed);
	return EXIT_WRONG;
}

static int run_emulated(const px_file *f, const rig_shape *s, const run_opts *o, const char *head)
{
	vfy_result res;
	char err[1024];
	int emu_rc;
	px_status st = cli_emulate(f, s, o->seed, &res, &emu_rc, err, sizeof err);
	if (st == PX_WRONG)
		return report_wrong(head, &res, s, o->seed);
	if (st == PX_EUNAVAIL) {
		cli_err(CMD, "%s: %s", f->path, err);
		return emu_rc == EMU_UNSUPPORTED ? EXIT_INPUT : EXIT_EMU;
	}
	if (st)
		return fail(st, err);
	printf("%s: PASS (emulated)\n", head);
	return EXIT_OK;
}

/* Verify, then time the plan and the copy; prints the result line. */
static int measure(cli_gpu *g, ptxpose_plan plan, const char *name, const rig_shape *s, const run_opts *o,
		   const char *head)
{
	char err[1024];
	vfy_result res;
	rig_op op = rig_op_plan(plan, name), copy = rig_op_copy(g->drv);
	px_status st = rig_verify(g->rig, &op, &res, err, sizeof err);
	if (st == PX_WRONG)
		return report_wrong(head, &res, s, o->seed);
	if (st) {
		int code = fail(st, err);
		if (st == PX_ECUDA)
			fprintf(stderr, "# the kernel faulted or failed to launch; `ptxpose run --emulate` may say where\n");
		return code;
	}
	const char *device = g->device;
	if (o->no_time) {
		printf("%s: PASS  [%s]\n", head, device);
		return EXIT_OK;
	}
	rig_timing tk, tc;
	if (o->verbose) {
		char how[512];
		fprintf(stderr, "# timing: %s\n", rig_time_method_text(&o->topt, how, sizeof how));
	}
	if ((st = rig_time(g->rig, &op, &o->topt, &tk, err, sizeof err)) ||
	    (st = rig_time(g->rig, &copy, &o->topt, &tc, err, sizeof err)))
		return fail(st, err);
	if (tk.how == RIG_HOW_BACK_TO_BACK)
		fprintf(stderr, "# %s: %s\n", op.name, tk.note);
	double gk = rig_gbps(s, tk.median_us), gc = rig_gbps(s, tc.median_us);
	printf("%s: PASS  %.1f us  %.1f GB/s  %.1f%% of copy (copy %.1f GB/s)  [%s]\n", head, tk.median_us, gk,
	       gc > 0 ? 100 * gk / gc : 0, gc, device);
	return EXIT_OK;
}

/* On the GPU through the library: f registered and its kernel planned, or
 * (f NULL) the library's own choice for the width. */
static int run_gpu(const px_file *f, const rig_shape *s, const run_opts *o)
{
	char err[1024], name[96], head[320];
	cli_gpu g;
	ptxpose_plan plan = NULL;
	ptxpose_plan_info info = {0};
	px_status st = cli_gpu_open(&g, o->verbose, err, sizeof err);
	if (!st)
		st = rig_fits(g.rig, s, err, sizeof err);
	if (!st && f)
		st = cli_gpu_link(&g, f, err, sizeof err);
	g.plan_mode = o->measure ? PTXPOSE_PLAN_MEASURE : PTXPOSE_PLAN_HEURISTIC;
	if (!st)
		st = rig_prepare(g.rig, s, o->seed, err, sizeof err);
	if (!st)
		st = cli_gpu_plan(&g, f ? f->meta.kernel : NULL, s, &plan, err, sizeof err);
	int code = st ? fail(st, err) : EXIT_OK;
	if (st && code == EXIT_NODEV)
		cli_emulate_hint(st == PX_ENODEVICE);
	if (st == PX_EJIT || (o->verbose && g.h))
		fputs(cli_gpu_jit(&g), stderr);
	if (!st) {
		ptxpose_plan_get(plan, &info);
		if (!f && info.kernel_index < 0)
			cli_err(CMD, "planned a " PTXPOSE_COPY ": the transpose of this shape is the identity on memory, so "
				     "the plan is one cuMemcpyDtoDAsync, no kernel (%.2f us predicted on %s)",
				info.predicted_us, g.device);
		else if (!f && o->measure)
			cli_err(CMD, "picked %s by measuring: %.2f us a launch, %d candidates timed %s", info.kernel,
				info.measured_us, info.timed, info.from_cache ? "before (from the cache)" : "just now");
		else if (!f)
			cli_err(CMD, "picked %s by the cost model (%.2f us predicted on %s%s)", info.kernel, info.predicted_us,
				g.device, info.unsure ? "; unsure: the runner-up is within its margin" : "");
		snprintf(head, sizeof head, "%s %s elem=%u", info.kernel, rig_shape_name(s, name, sizeof name),
			 rig_shape_elem_bits(s));
		code = measure(&g, plan, info.kernel, s, o, head);
		ptxpose_plan_destroy(plan);
	}
	cli_gpu_close(&g);
	return code;
}

int cmd_run(int argc, char **argv)
{
	run_opts o = {0};
	int code = parse(argc, argv, &o);
	if (code)
		return code == HELP_SHOWN ? EXIT_OK : code;
	char err[1024], name[96], head[320];
	px_file f = {0};
	px_status st = o.file ? cli_kernel_load(&f, o.file, err, sizeof err) : PX_OK;
	if (st)
		return fail(st, err);
	rig_shape s = o.sh.s;
	unsigned elem = rig_shape_elem_bits(&s);
	/* an N-d problem's --elem is the tensor's: the file runs the reduced width (cli_emulate_nd) */
	if (o.file && !(s.p.rank && elem))
		s.p.elem_bytes = f.meta.elem_bits / 8;
	if (o.file && elem && elem != f.meta.elem_bits && !s.p.rank) {
		snprintf(err, sizeof err, "--elem %u does not match %s's elem=%u", elem, o.file, f.meta.elem_bits);
		st = PX_EUSAGE;
	}
	/* a row copy (op=copy) takes its shape as a copy, in the emulator only */
	int copy = o.file && f.meta.op == META_OP_COPY && !s.p.rank;
	nd_problem nd;
	if (!st && copy && !o.emulate) {
		snprintf(err, sizeof err, "%s: op=copy: on the GPU a row copy runs the tiled copies of N-d shapes "
			 "(--dims, --perm); a 2-D shape read as a copy runs with --emulate", o.file);
		st = PX_EUSAGE;
	}
	if (!st)
		st = copy ? vfy_copy_shape(&s, &nd, err, sizeof err) : rig_shape_check(&s, err, sizeof err);
	if (!st && o.file)
		st = rig_launch_check(&f.meta, &s, err, sizeof err);
	if (!st && !copy) /* vfy_copy_case asks for its own sizes */
		st = rig_host_fits(rig_shape_host_bytes(&s), "the input and output", err,
				  sizeof err);
	int nd_copy = 0;
	if (!st && o.emulate && s.p.rank) {
		char why[256];
		ptxpose_tool_problem t;
		st = cli_emulate_nd(o.file ? &f : NULL, &s, &t, why, sizeof why, err, sizeof err);
		if (st == PX_EUNAVAIL) {
			px_file_free(&f);
			cli_err(CMD, "%s", err);
			return EXIT_INPUT;
		}
		if (!st)
			cli_err(CMD, "reduced: %s", why);
		if (!st && (nd_copy = t.copy_elems > 0))
			cli_err(CMD, "a copy after reducing: verified as one memcpy on the host (the plan's "
				     "cuMemcpyDtoDAsync), no kernel run");
	}
	if (!st && !o.emulate && s.p.rank && o.file) {
		/* the library copies such a problem; a kernel named for it would run the 1x1 reduced one */
		char why[256];
		ptxpose_tool_problem t;
		if (!rig_shape_reduce(&s, &t, why, sizeof why, err, sizeof err) && (nd_copy = t.copy_elems > 0))
			cli_err(CMD, "reduced: %s: the plan copies (cuMemcpyDtoDAsync); %s is not run", why, f.meta.kernel);
	}
	if (!st && !o.file && o.emulate && !nd_copy) {
		/* no GPU to plan on: the library's model, for the built-in H100 */
		char note[512];
		if (!(st = run_pick_kernel(&s, &f, note, sizeof note, err, sizeof err))) {
			cli_err(CMD, "picked %s", note);
			st = rig_launch_check(&f.meta, &s, err, sizeof err);
		}
	}
	if (st) {
		px_file_free(&f);
		return fail(st, err);
	}
	if (o.emulate) {
		snprintf(head, sizeof head, "%s %s elem=%u", nd_copy ? PTXPOSE_COPY : f.meta.kernel,
			 rig_shape_name(&s, name, sizeof name), rig_shape_elem_bits(&s));
		code = run_emulated(&f, &s, &o, head);
	} else {
		code = run_gpu(o.file && !nd_copy ? &f : NULL, &s, &o);
	}
	px_file_free(&f);
	fflush(stdout);
	return code;
}
