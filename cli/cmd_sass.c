/* ptxpose sass: assemble a PTX file, disassemble it and summarize the SASS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kernel_arg.h"
#include "cli/opts.h"
#include "inspect/inspect.h"

static const char help[] =
	"usage: ptxpose sass [--arch sm_90] [--summary | --raw] [--json] [-v] FILE.ptx|VARIANT\n"
	"       ptxpose sass --json [--arch sm_90] FILE|VARIANT...   (one object a line)\n"
	"       ptxpose sass --diff [--arch sm_90] [--json] A B\n"
	"       ... [--tile RxC --elem BITS --threads N]   (PTX without ptxpose metadata)\n"
	"\n"
	"Assembles the PTX with ptxas -v for the target (default sm_90; sm_80, sm_89,\n"
	"sm_90a, sm_100, ...), disassembles the object with cuobjdump -sass, prints the\n"
	"SASS (without the encodings; --raw: as cuobjdump wrote it) and a summary.\n"
	"A VARIANT is a kernel's name: one of the library's (built into ptxpose, or\n"
	"from $PTXPOSE_PTX), so that it works in any folder.\n"
	"\n"
	"  --arch SM     target architecture, sm_NN or sm_NNN with an optional a/f\n"
	"  --summary     the summary only, no SASS listing\n"
	"  --raw         the SASS exactly as cuobjdump printed it\n"
	"  --json        one JSON object instead of text (with --diff: {\"a\":..., \"b\":...});\n"
	"                with several files, one object a line, in order (their SASS\n"
	"                from one ptxas and one cuobjdump run per processor: a module\n"
	"                holding them all, each file also assembled alone)\n"
	"  --diff A B    two summaries side by side; '*' marks the lines that differ. As\n"
	"                diff does, exits 0 when the summaries are the same (every line\n"
	"                but file) and 1 when they differ, with or without --json\n"
	"  -v            print the tools used and ptxas's own output\n"
	"  --tile RxC --elem BITS --threads N\n"
	"                the tile a block moves (R x C elements of BITS bits, or a width\n"
	"                as run takes it: 4B, f32) and its threads (1-1024), for instructions\n"
	"                per byte of PTX without the ptxpose header (a Triton kernel's:\n"
	"                its BMxBN, dtype and num_warps x 32); all three or none. A file\n"
	"                with the header uses its own\n"
	"\n"
	"Summary fields:\n"
	"  file            the PTX file\n"
	"  kernel          the entry (metadata kernel=, or what ptxas compiled)\n"
	"  metadata        the launch keys of the ptxpose header: elem (bits), tile\n"
	"                  (rows x cols per block) or per_block, block (threads), vec\n"
	"                  (elements per vector access), smem (none/plain/padded/\n"
	"                  swizzle), dyn_smem; 'none' for PTX without the header\n"
	"  target          the --arch assembled for\n"
	"  registers       registers per thread (ptxas: Used N registers)\n"
	"  shared memory   static shared memory per block (ptxas: N bytes smem), plus\n"
	"                  the metadata's dyn_smem when it has one\n"
	"  stack           stack frame bytes per thread (ptxas); 0 expected\n"
	"  spills          spill stores and spill loads, bytes (ptxas); 0 expected\n"
	"  constant        constant bank bytes, all cmem[k] added up (ptxas; it\n"
	"                  reports none for some targets, sm_90 among them)\n"
	"  global loads    LDG instructions by access width: LDG.E.128 (16 bytes),\n"
	"                  LDG.E.64, LDG.E (32 bits), LDG.E.16 (U16 and S16), LDG.E.8\n"
	"                  (U8 and S8); cache modifiers (.CONSTANT .NA .EF ...) do not\n"
	"                  change the width and are not shown\n"
	"  global stores   STG the same way (STG.E.128 ...)\n"
	"  shared loads    LDS by width (LDS.128, LDS.64, LDS)\n"
	"  shared stores   STS by width\n"
	"  local memory    LDL and STL: spills or stack arrays; 'none' expected\n"
	"  generic memory  LD and ST through generic addresses; 'none' expected\n"
	"  barriers        BAR instructions (BAR.SYNC and the other BAR forms)\n"
	"  predicated      memory instructions (the six kinds above plus LD/ST) under\n"
	"                  a guard (@P0, @!P1, @UP0; not @PT), of all of them\n"
	"  instructions    SASS instructions of the entry, each counted once, the NOP\n"
	"                  padding and the closing BRA to itself excluded; of them the\n"
	"                  memory instructions (as for predicated) and the others\n"
	"                  (ALU, control, constant loads)\n"
	"  instructions per byte\n"
	"                  a STATIC estimate: instructions x warps a block / the bytes a\n"
	"                  block moves in one pass (2 x tile rows x tile cols x element\n"
	"                  bytes: read + written). The tile is the metadata's tile=\n"
	"                  (the small-dimension kernels' kmax x N: a full tile, K =\n"
	"                  kmax), per_block= elements for grid=linear and flat, else --tile\n"
	"                  --elem --threads; 'n/a (why)' without any. Every path is\n"
	"                  counted once: our kernels hold vector, element and edge paths\n"
	"                  in a tile loop, so for them it bounds from above what an\n"
	"                  interior tile executes (but for the small-dimension kernels'\n"
	"                  element path of a run, a loop it counts once); for a\n"
	"                  straight-line kernel that moves one tile a block (Triton's)\n"
	"                  it is what a block executes\n"
	"  bank model      per shared-memory instruction, from the generator's\n"
	"                  '// ptxpose-smem' lines: op, id, bytes per thread access,\n"
	"                  shared-memory wavefronts per warp request, the conflict-free\n"
	"                  minimum, and 'conflict-free' or 'N-way' (wavefronts/ideal);\n"
	"                  ptxpose displays it, the generator computes it\n"
	"\n"
	"Tools: ptxas and cuobjdump from $PTXPOSE_PTXAS and $PTXPOSE_CUOBJDUMP, else\n"
	"PATH, /usr/local/cuda/bin, the folder of the ptxpose binary, ../libexec/ptxpose\n"
	"from it (./build.sh install puts them there), .deps/nvidia/*/bin beside it, or\n"
	"the Python nvidia packages (" INS_CUOBJDUMP_INSTALL ").\n"
	"Exit codes: 0 ok (--diff: the same), 1 --diff: the summaries differ, 2 usage or\n"
	"unknown --arch, 3 file missing, unreadable, empty or holding a NUL byte, 5 ptxas\n"
	"rejected the PTX, 7 ptxas\n"
	"or cuobjdump missing, failed, ran past $PTXPOSE_TOOL_TIMEOUT seconds (default\n"
	"300) or printed more than 64 MiB.\n";

#define CMD "sass"

typedef struct {
	const char *arch, *tile;
	opt_elem elem;
	uint64_t threads;
	int json, summary_only, raw, diff, verbose;
	const char **files;
	int nfiles;
	ins_tile given;  /* --tile --elem --threads */
} sass_opts;

/* Flags, sorted. */
static const opt_spec flags[] = {
	{"--arch", OPT_STR, offsetof(sass_opts, arch), 0, 0, NULL},
	{"--diff", OPT_SWITCH, offsetof(sass_opts, diff), 0, 0, NULL},
	{"--elem", OPT_ELEM, offsetof(sass_opts, elem), 0, 0, NULL},
	{"--json", OPT_SWITCH, offsetof(sass_opts, json), 0, 0, NULL},
	{"--raw", OPT_SWITCH, offsetof(sass_opts, raw), 0, 0, NULL},
	{"--summary", OPT_SWITCH, offsetof(sass_opts, summary_only), 0, 0, NULL},
	{"--threads", OPT_NUM, offsetof(sass_opts, threads), 1, 1024, NULL},
	{"--tile", OPT_STR, offsetof(sass_opts, tile), 0, 0, NULL},
	{"--verbose", OPT_SWITCH, offsetof(sass_opts, verbose), 0, 0, "-v"},
};

static void usage(FILE *f)
{
	fputs(help, f);
}

/* --tile ROWSxCOLS, each 1 to 2^20 (as the metadata's tile=). */
static int parse_tile(const char *v, ins_tile *t)
{
	const char *x = strchr(v, 'x');
	char rows[24];
	uint64_t r, c;
	if (!x || (size_t)(x - v) >= sizeof rows || x == v) {
		cli_err(CMD, "--tile: expected ROWSxCOLS (64x64), got '%s'", v);
		return -1;
	}
	snprintf(rows, sizeof rows, "%.*s", (int)(x - v), v);
	if (opt_u64(CMD, "--tile rows", rows, 1, 1u << 20, &r) || opt_u64(CMD, "--tile cols", x + 1, 1, 1u << 20, &c))
		return -1;
	t->rows = (unsigned)r;
	t->cols = (unsigned)c;
	return 0;
}

/* The tile of PTX without metadata: --tile, --elem and --threads, all three or none. */
static int parse_given(sass_opts *o)
{
	int n = !!o->tile + !!o->elem.bits + !!o->threads;
	if (n == 0)
		return 0;
	if (n < 3) {
		cli_err(CMD, "--tile, --elem and --threads go together (the tile of PTX without ptxpose metadata); %s missing",
			!o->tile ? "--tile" : !o->elem.bits ? "--elem" : "--threads");
		return -1;
	}
	if (parse_tile(o->tile, &o->given))
		return -1;
	o->given.elem_bits = o->elem.bits;
	o->given.threads = (unsigned)o->threads;
	return 0;
}

/* 0, OPT_HELP (help shown) or EXIT_USAGE (said). */
static int parse_args(int argc, char **argv, sass_opts *o)
{
	const char **pos = calloc((size_t)argc + 1, sizeof *pos);
	int npos = 0;
	memset(o, 0, sizeof *o);
	if (!pos) {
		cli_err(CMD, "out of memory");
		return EXIT_TOOL;
	}
	int rc = opt_parse(CMD, argc, argv, flags, sizeof flags / sizeof flags[0], o, pos, &npos, usage);
	o->files = pos;
	o->nfiles = npos;
	if (!rc && npos > 2 - !o->diff && (!o->json || o->diff)) {
		cli_err(CMD, "too many files: '%s' (several files need --json)", pos[2 - !o->diff]);
		rc = EXIT_USAGE;
	}
	if (rc)
		return rc;
	if (!o->arch)
		o->arch = "sm_90";
	if (!ins_arch_valid(o->arch)) {
		cli_err(CMD, "--arch: expected sm_NN (sm_80, sm_90, sm_90a, sm_100, ...), got '%s'", o->arch);
		return EXIT_USAGE;
	}
	if (o->diff ? o->nfiles != 2 : o->nfiles < 1) {
		cli_err(CMD, o->diff ? "--diff needs two files" : "expected one PTX file or variant name (try --help)");
		return EXIT_USAGE;
	}
	if (o->raw && o->summary_only) {
		cli_err(CMD, "--raw and --summary do not go together");
		return EXIT_USAGE;
	}
	return parse_given(o) ? EXIT_USAGE : 0;
}

static int exit_code(int st)
{
	switch (st) {
	case INS_OK: return EXIT_OK;
	case INS_EINPUT: return EXIT_INPUT;
	case INS_EARCH: return EXIT_USAGE;
	case INS_EASM: return EXIT_CUDA;
	default: return EXIT_TOOL;
	}
}

static void report_error(const ins_report *r)
{
	if (r->status == INS_EASM && r->log.len) {
		cli_err(CMD, "ptxas rejected %s for %s:", r->path, r->arch);
		fputs(sb_str(&r->log), stderr);
	} else {
		cli_err(CMD, "%s", r->err);
	}
}

/* 1 when the summaries of a and b differ on any line but file. */
static int summaries_differ(const ins_report *a, const ins_report *b)
{
	static ins_row ra[INS_MAX_ROWS], rb[INS_MAX_ROWS];
	int na = ins_summary_rows(a, ra, INS_MAX_ROWS), nb = ins_summary_rows(b, rb, INS_MAX_ROWS);
	if (na != nb)
		return 1;
	for (int i = 0; i < na; i++)
		if (strcmp(ra[i].label, rb[i].label) || (strcmp(ra[i].label, "file") && strcmp(ra[i].value, rb[i].value)))
			return 1;
	return 0;
}

static void print_one(const sass_opts *o, const ins_report *r, strbuf *out)
{
	if (o->verbose && r->log.len)
		fprintf(stderr, "%s", sb_str(&r->log));
	if (o->json) {
		ins_json_report(r, out);
		sb_addc(out, '\n');
		return;
	}
	if (!o->summary_only && r->have_sass) {
		const strbuf *l = o->raw ? &r->sass_text : &r->listing;
		size_t n = l->len;
		while (n > 0 && (l->data[n - 1] == '\n' || l->data[n - 1] == ' '))
			n--;
		sb_addn(out, sb_str(l), n);
		sb_add(out, "\n\n");
	}
	ins_summary_text(r, out);
}

/* The exit code of all reports, each error said (a tool's, the same for
 * every file, once). */
static int report_errors(const ins_report *rep, int n)
{
	int rc = EXIT_OK;
	for (int i = 0; i < n; i++) {
		int st = rep[i].status;
		if (st == INS_OK)
			continue;
		if (rc == EXIT_OK)
			rc = exit_code(st);
		report_error(&rep[i]);
		if (st == INS_ENOTOOL || st == INS_ETOOL || st == INS_EARCH)
			break;
	}
	return rc;
}

static int run(const sass_opts *o, const ins_tools *tools, const ins_input *in, ins_report *rep)
{
	ins_batch_info info;
	ins_inspect_many(tools, in, o->nfiles, o->arch, ins_jobs_default(), rep, &info, NULL);
	if (o->verbose && o->nfiles > 2)
		fprintf(stderr, "sass: %d files: %d from %d merged module%s, %d alone\n", o->nfiles, info.merged,
			info.modules, info.modules == 1 ? "" : "s", info.alone);
	int rc = report_errors(rep, o->nfiles);
	strbuf out;
	sb_init(&out);
	if (o->json && o->diff) {
		sb_add(&out, "{\"a\":");
		ins_json_report(&rep[0], &out);
		sb_add(&out, ",\"b\":");
		ins_json_report(&rep[1], &out);
		sb_add(&out, "}\n");
	} else if (o->diff && rc == EXIT_OK) {
		ins_summary_diff(&rep[0], &rep[1], &out);
	} else if (o->json || rc == EXIT_OK) {
		for (int i = 0; i < o->nfiles; i++)
			print_one(o, &rep[i], &out);
	}
	fputs(sb_str(&out), stdout);
	sb_free(&out);
	if (o->diff && rc == EXIT_OK && summaries_differ(&rep[0], &rep[1]))
		rc = EXIT_WRONG; /* as diff(1): 1 means "they differ" */
	return rc;
}

int cmd_sass(int argc, char **argv)
{
	sass_opts o;
	int rc = parse_args(argc, argv, &o);
	if (rc) {
		free(o.files);
		return rc == OPT_HELP ? EXIT_OK : rc;
	}
	ins_input *in = calloc((size_t)o.nfiles, sizeof *in);
	ins_report *rep = calloc((size_t)o.nfiles, sizeof *rep);
	ins_tools tools;
	char err[512];
	if (!in || !rep) {
		cli_err(CMD, "out of memory");
		rc = EXIT_TOOL;
		goto done;
	}
	for (int i = 0; i < o.nfiles; i++) {
		size_t len;
		if (cli_kernel_arg(o.files[i], &in[i].path, &in[i].ptx, &len, err, sizeof err)) {
			cli_err(CMD, "%s", err);
			rc = EXIT_INPUT;
			goto done;
		}
		in[i].tile = o.given.threads ? &o.given : NULL;
	}
	if (ins_find_ptxas(tools.ptxas, sizeof tools.ptxas, err, sizeof err) ||
	    ins_find_cuobjdump(tools.cuobjdump, sizeof tools.cuobjdump, err, sizeof err)) {
		cli_err(CMD, "%s", err);
		rc = EXIT_TOOL;
		goto done;
	}
	if (o.verbose)
		fprintf(stderr, "ptxas: %s\ncuobjdump: %s\n", tools.ptxas, tools.cuobjdump);
	rc = run(&o, &tools, in, rep);
	for (int i = 0; i < o.nfiles; i++)
		ins_report_free(&rep[i]);
done:
	free(rep);
	free(in);
	free(o.files);
	return rc;
}
