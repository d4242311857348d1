/* ptxpose check: verify every PTX file over a list of awkward shapes, on
 * the GPU or in the emulator, as a TAP stream. One JIT per file. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/gpu.h"
#include "cli/kernel_arg.h"
#include "cli/opts_shape.h"
#include "emu/emu.h"
#include "rig/rig.h"

#define CMD "check"
#define HELP_SHOWN (-1)

/* Keep in step with the --help text below. Both lists end with two N-d
 * shapes, so that every family runs by default: a transpose over a batch of
 * two dims (the v3 and pack kernels; the v2 ones skip it, saying why) and a
 * tiled copy of short runs off alignment (the row copies and pack kernels). */
#define ND_SHAPES "3x4x5x6:perm=3,1,0,2,7x6x5:perm=1,0,2:offset=1"
#define GPU_SHAPES "1x1,1x37,37x1,31x33,1000x999,4097x4095,67x129:ld_in=132:ld_out=72,31x33:offset=1,4097x4095:ld_in=4100:offset=1," \
	ND_SHAPES
/* The emulator's default shapes, the one list of them: tests/t0710 emulates
 * every committed kernel on exactly these, and the docs point here. 36x68 and
 * 68x36 are multiples of 4 but not of a tile (the first-row/column predicates
 * of the vector kernels); 67x129:ld_in=132:ld_out=72 and 68x36:ld_in=40:
 * ld_out=72 let them take the vector path; 16x68 and 144x160 reach the packed
 * and 128-row tiles, the last with pointers one element off alignment. */
#define EMU_SHAPES                                                                                  \
	"1x1,1x33,33x1,31x33,67x129,130x66,67x129:ld_in=132:ld_out=72,36x68,68x36:ld_in=40:ld_out=72," \
	"16x68,144x160,144x160:ld_in=164:ld_out=148:offset=1," ND_SHAPES

typedef struct {
	const char *shapes;
	opt_shape sh;           /* one shape (--rows, --cols, ...); sh.elem: only files of this width */
	uint64_t seed;
	int emulate, verbose;
	const char **files;
	int nfiles;
} check_opts;

/* The shape flags it takes (cli/opts_shape.h); then its own, sorted. */
#define SHAPE (OPT_SH_DIMS | OPT_SH_BATCH | OPT_SH_ND | OPT_SH_ELEM)
static const opt_spec flags[] = {
	{"--emulate", OPT_SWITCH, offsetof(check_opts, emulate), 0, 0, NULL},
	{"--flush-l2", OPT_REFUSE, 0, 0, 0, "check verifies without timing; time with ptxpose run or bench"},
	{"--iters", OPT_REFUSE, 0, 0, 0, "check verifies without timing; time with ptxpose run or bench"},
	{"--seed", OPT_NUM, offsetof(check_opts, seed), 0, UINT64_MAX, NULL},
	{"--shapes", OPT_STR, offsetof(check_opts, shapes), 0, 0, NULL},
	{"--verbose", OPT_SWITCH, offsetof(check_opts, verbose), 0, 0, "-v"},
};

typedef struct {
	const check_opts *o;
	rig_shape *shapes;
	size_t nshapes;
	cli_gpu g;      /* g.h NULL when emulating */
	int gpu;
	int n;          /* the last TAP number */
	int skipped;    /* TAP lines that were SKIPs */
	int code;       /* the exit code so far */
	char dead[600]; /* set when the device could not be reset after a fault */
} check_run;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptxpose check [--emulate] [--shapes LIST | --rows R --cols C [shape flags]]\n"
		"                     [--elem W] [--seed S] [-v] FILE.ptx...\n"
		"\n"
		"Verify every FILE.ptx over every shape, bit-exactly, without timing; print TAP\n"
		"(one line a file and shape: `ok 3 - tile_pad_b32 31x33`, failures explained in #\n"
		"lines). Files are linked once each; a kernel that faults is reported and the\n"
		"device is reset before the next file. Where the driver keeps the fault for the\n"
		"rest of the process (an illegal address is such a \"sticky\" error), the files\n"
		"that follow are reported not run, with the reason; run them again.\n"
		"\n"
		"  --shapes LIST  comma-separated " RIG_SHAPE_SYNTAX "\n"
		"                 or N-d " RIG_SHAPE_ND_SYNTAX "\n"
		"                 entries; one with elem= applies to files of that width only (an\n"
		"                 N-d one: of its reduced width, which a fold makes wider; files of\n"
		"                 another width, and classes without kernels yet, are SKIPs).\n"
		"                 Default on the GPU:\n"
		"                 " GPU_SHAPES "\n"
		"                 with --emulate:\n"
		"                 " EMU_SHAPES "\n"
		"The shape flags: one shape instead of a list (--rows and --cols together, or --dims\n"
		"and --perm); --elem: only files of this width, others are skipped.\n");
	opt_shape_help(f, SHAPE);
	fprintf(f,
		"  --seed S       seed of the random input (default 1)\n"
		"  --emulate      no GPU: run each kernel in the CPU emulator on exact-size buffers\n"
		"  -v             driver and JIT details on stderr\n"
		"\n"
		"A case that cannot be run as asked (its buffers too large for this machine or\n"
		"device) is refused: `not ok`, the reason in a # line, exit 2.\n"
		"A bad flag or shape list is refused before anything runs.\n"
		"\n"
		"Exit: 0 all pass, 1 some result wrong, 2 usage or a refused case, 3 input (missing\n"
		"file, no metadata, the emulator cannot run it, every case skipped: nothing\n"
		"checked, as bench exits when nothing is timed), 4 no CUDA driver or device, 5 CUDA\n"
		"or JIT error, 8 emulator fault. With several kinds of failure, the first that is not\n"
		"1 wins.\n");
}

static int parse(int argc, char **argv, check_opts *o)
{
	o->seed = 1;
	if (!(o->files = calloc((size_t)argc, sizeof *o->files))) {
		cli_err(CMD, "out of memory");
		return EXIT_CUDA;
	}
	o->sh = opt_shape_init();
	int rc = opt_parse_shape(CMD, argc, argv, flags, sizeof flags / sizeof flags[0], o, &o->sh, SHAPE, o->files,
				 &o->nfiles, usage);
	if (rc)
		return rc == OPT_HELP ? HELP_SHOWN : rc;
	if (!o->nfiles) {
		cli_err(CMD, "needs at least one FILE.ptx (see ptxpose check --help)");
		return EXIT_USAGE;
	}
	return opt_shape_alone(CMD, &o->sh, o->shapes);
}

static void note_code(check_run *c, int code)
{
	c->code = cli_exit_merge(c->code, code);
}

/* One TAP line. `what` (a file name or a kernel) is escaped: a newline or a
 * '#' in a file name cannot start a TAP line or a directive of its own. */
static void tap(check_run *c, int ok, const char *what, const rig_shape *s, const char *directive)
{
	char name[96];
	strbuf sb;
	sb_init(&sb);
	sb_add_esc(&sb, what, strlen(what), "#");
	printf("%sok %d - %s %s%s%s\n", ok ? "" : "not ", ++c->n, sb_str(&sb), rig_shape_name(s, name, sizeof name),
	       directive ? " # " : "", directive ? directive : "");
	sb_free(&sb);
}

/* Diagnostics as "# " lines, control characters escaped: a one-line message
 * (which may echo a file name) stays one line; a log (lines = 1) keeps its
 * lines, each behind its own "# ". */
static void diag(const char *text, int lines)
{
	char *copy = strdup(text);
	strbuf sb;
	sb_init(&sb);
	for (char *line = copy, *next; line; line = next) {
		if ((next = lines ? strchr(line, '\n') : NULL))
			*next++ = '\0';
		if (!*line && !next)
			break;
		sb_reset(&sb);
		sb_add_esc(&sb, line, strlen(line), NULL);
		printf("# %s\n", sb_str(&sb));
	}
	sb_free(&sb);
	free(copy);
}

/* Every shape of a file that cannot be checked at all. */
static void fail_all(check_run *c, const char *what, const char *why, int lines, int code)
{
	for (size_t i = 0; i < c->nshapes; i++) {
		tap(c, 0, what, &c->shapes[i], NULL);
		diag(i ? "(as above)" : why, lines);
	}
	note_code(c, code);
}

/* One file and one shape: PX_OK or the failure, with the reason in err. */
static px_status check_case(check_run *c, const px_file *f, rig_shape *s, vfy_result *res, int *exit_code,
			    char *err, size_t errlen)
{
	px_status st;
	*exit_code = EXIT_OK;
	nd_problem copy;
	int is_copy = f->meta.op == META_OP_COPY && !s->p.rank; /* a 2-D shape read as a row copy's */
	/* a case refused (too large) fails with its code */
	if ((st = is_copy ? vfy_copy_shape(s, &copy, err, errlen) : rig_shape_check(s, err, errlen)) ||
	    (st = rig_launch_check(&f->meta, s, err, errlen))) {
		*exit_code = cli_exit(st);
		return st;
	}
	if (c->gpu) {
		ptxpose_plan plan = NULL;
		if (!(st = rig_fits(c->g.rig, s, err, errlen)) && !(st = rig_prepare(c->g.rig, s, c->o->seed, err, errlen)) &&
		    !(st = cli_gpu_plan(&c->g, f->meta.kernel, s, &plan, err, errlen))) {
			rig_op op = rig_op_plan(plan, f->meta.kernel);
			st = rig_verify(c->g.rig, &op, res, err, errlen);
			ptxpose_plan_destroy(plan);
		}
		*exit_code = st == PX_WRONG ? EXIT_WRONG : cli_exit(st);
		return st;
	}
	if (!is_copy && /* vfy_copy_case asks for its own sizes */
	    (st = rig_host_fits(rig_shape_host_bytes(s), "the input and output", err, errlen))) {
		*exit_code = cli_exit(st);
		return st;
	}
	int emu_rc;
	st = cli_emulate(f, s, c->o->seed, res, &emu_rc, err, errlen);
	if (st == PX_EUNAVAIL)
		*exit_code = emu_rc == EMU_UNSUPPORTED ? EXIT_INPUT : EXIT_EMU;
	else
		*exit_code = cli_exit(st);
	return st;
}

/* After a kernel faulted: a fresh context for the files that follow. */
static void recover(check_run *c)
{
	char err[512];
	if (cli_gpu_reset(&c->g, err, sizeof err)) {
		cli_err(CMD, "after a device reset: %s", err);
		snprintf(c->dead, sizeof c->dead, "not run: the device is unusable in this process after the "
			 "fault (%.400s); run this file again", err);
	}
}

/* An N-d shape (of the file's width where it names none) that f does not
 * run: 1 and the SKIP directive (a kernel that does not do the reduced problem, a
 * problem that reduces to another width, on the GPU a copy); *copy when it
 * reduces to a copy (the emulator's host memcpy). */
static int nd_skip(const px_file *f, rig_shape *s, int gpu, int *copy, char *skip, size_t len)
{
	ptxpose_tool_problem t;
	char err[200];
	if (!s->p.elem_bytes)
		s->p.elem_bytes = f->meta.elem_bits / 8;
	px_status st = cli_emulate_nd(f, s, &t, NULL, 0, err, sizeof err);
	*copy = !st && t.copy_elems;
	if (*copy && gpu) { /* the library copies it; the file's kernel would run the 1x1 reduced problem */
		snprintf(skip, len, "SKIP a copy after reducing: the plan is one cuMemcpyDtoDAsync, no kernel runs");
		return 1;
	}
	if (st != PX_EUNAVAIL)
		return 0; /* a bad problem fails in check_case, with the library's line */
	snprintf(skip, len, "SKIP %.190s", err + strlen("not emulated: "));
	return 1;
}

/* A shape of the list that is a transpose's but not a copy's (ld_out < cols,
 * strides that overlap as rows): an op=copy kernel skips it. 1 with the
 * directive in skip. A shape that is neither's is refused by check_case. */
static int copy_skip(const rig_shape *s, char *skip, size_t len)
{
	rig_shape t = *s, u = *s;
	nd_problem p;
	char why[256];
	if (!vfy_copy_shape(&t, &p, why, sizeof why) || rig_shape_check(&u, skip, len))
		return 0;
	snprintf(skip, len, "SKIP not a row copy's shape (op=copy): %s", why);
	return 1;
}

static void check_shapes(check_run *c, const px_file *f)
{
	const char *kernel = f->meta.kernel;
	int broken = 0;
	for (size_t i = 0; i < c->nshapes; i++) {
		rig_shape s = c->shapes[i];
		char why[1024], skip[320];
		int copy = 0;
		if (s.p.rank && nd_skip(f, &s, c->gpu, &copy, skip, sizeof skip)) {
			tap(c, 1, kernel, &s, skip);
			c->skipped++;
			continue;
		}
		if (!s.p.rank && f->meta.grid == META_GRID_PACK) { /* a 2-D shape has no pack tile */
			char takes[300];
			snprintf(skip, sizeof skip, "SKIP %s", meta_takes(&f->meta, 0, 0, 0, takes, sizeof takes));
			tap(c, 1, kernel, &s, skip);
			c->skipped++;
			continue;
		}
		if (!s.p.rank && rig_shape_elem_bits(&s) && rig_shape_elem_bits(&s) != f->meta.elem_bits) {
			snprintf(skip, sizeof skip, "SKIP the shape is for elem=%u, the file has elem=%u",
				 rig_shape_elem_bits(&s), f->meta.elem_bits);
			tap(c, 1, kernel, &s, skip);
			c->skipped++;
			continue;
		}
		if (!s.p.rank)
			s.p.elem_bytes = f->meta.elem_bits / 8;
		if (f->meta.op == META_OP_COPY && !s.p.rank && (c->gpu || copy_skip(&s, skip, sizeof skip))) {
			if (c->gpu)
				snprintf(skip, sizeof skip, "SKIP op=copy: on the GPU a row copy runs the tiled copies of "
					 "N-d shapes (the library plans those), not a 2-D transpose's shape");
			tap(c, 1, kernel, &s, skip);
			c->skipped++;
			continue;
		}
		if (broken) {
			tap(c, 0, kernel, &s, NULL);
			diag("not run: the kernel faulted on an earlier shape", 0);
			continue;
		}
		vfy_result res;
		int code;
		px_status st = check_case(c, f, &s, &res, &code, why, sizeof why);
		tap(c, st == PX_OK, kernel, &s, NULL);
		if (st == PX_WRONG)
			vfy_describe(&res, &s, why, sizeof why);
		if (st)
			diag(why, 0);
		else if (copy && !c->gpu)
			diag("a copy after reducing: verified as one memcpy on the host (the plan's cuMemcpyDtoDAsync), "
			     "no kernel run", 0);
		note_code(c, code);
		if (c->gpu && st == PX_ECUDA) {
			broken = 1;
			recover(c);
		}
	}
}

static void check_file(check_run *c, const char *path)
{
	px_file f;
	char err[1024];
	px_status st = cli_kernel_load(&f, path, err, sizeof err);
	if (st) {
		fail_all(c, path, err, 0, cli_exit(st));
		return;
	}
	if (c->dead[0]) {
		fail_all(c, f.meta.kernel, c->dead, 0, EXIT_CUDA);
		px_file_free(&f);
		return;
	}
	if (c->o->sh.elem.bits && c->o->sh.elem.bits != f.meta.elem_bits) {
		snprintf(err, sizeof err, "SKIP elem=%u, not --elem %u", f.meta.elem_bits, c->o->sh.elem.bits);
		for (size_t i = 0; i < c->nshapes; i++, c->skipped++)
			tap(c, 1, f.meta.kernel, &c->shapes[i], err);
		px_file_free(&f);
		return;
	}
	if (c->gpu) {
		cli_gpu_jit_clear(&c->g);
		st = cli_gpu_link(&c->g, &f, err, sizeof err);
		if (c->o->verbose && !st)
			fputs(cli_gpu_jit(&c->g), stderr);
		if (st) {
			char why[2048];
			snprintf(why, sizeof why, "%s\n%s", err, cli_gpu_jit(&c->g));
			fail_all(c, f.meta.kernel, why, 1, cli_exit(st));
		}
	}
	if (!st)
		check_shapes(c, &f);
	px_file_free(&f);
}

int cmd_check(int argc, char **argv)
{
	check_opts o = {0};
	int code = parse(argc, argv, &o);
	if (code) {
		free(o.files);
		return code == HELP_SHOWN ? EXIT_OK : code;
	}
	check_run c = {.o = &o};
	char err[1024];
	px_status st = opt_shape_select(&o.sh, o.shapes ? o.shapes : o.emulate ? EMU_SHAPES : GPU_SHAPES, &c.shapes,
				       &c.nshapes, err, sizeof err);
	if (!st && !o.emulate) {
		c.gpu = 1;
		st = cli_gpu_open(&c.g, o.verbose, err, sizeof err);
	}
	if (st) {
		cli_err(CMD, "%s", err);
		if (cli_exit(st) == EXIT_NODEV)
			cli_emulate_hint(st == PX_ENODEVICE);
		if (c.gpu)
			cli_gpu_close(&c.g);
		free(c.shapes);
		free(o.files);
		return cli_exit(st);
	}
	printf("1..%zu\n", (size_t)o.nfiles * c.nshapes);
	for (int i = 0; i < o.nfiles; i++) {
		check_file(&c, o.files[i]);
		fflush(stdout);
	}
	if (c.n && c.skipped == c.n) {
		/* as bench does: nothing verified is not a pass */
		cli_err(CMD, "nothing was checked: no file has the width that --elem or the shapes' elem= ask for%s",
			c.shapes[0].p.rank ? " (or the N-d shapes' reduced problems are skipped: see the SKIP lines)" : "");
		note_code(&c, EXIT_INPUT);
	}
	if (c.gpu)
		cli_gpu_close(&c.g);
	free(c.shapes);
	free(o.files);
	return c.code;
}
