/* ptxpose list: one row per PTX file: its parameters, what ptxas made of it
 * (registers, shared memory, spills, 128-bit global accesses) and the
 * generator's shared-memory bank model. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/kernel_arg.h"
#include "cli/list.h"
#include "cli/progress.h"
#include "cli/opts.h"
#include "inspect/inspect.h"
#include "include/ptxpose_tools.h"

static const char help[] =
	"usage: ptxpose list [--arch sm_90] [--no-sass | --no-ptxas] [--csv | --json] [-v]\n"
	"                    [FILE.ptx... | NAME... | DIR]\n"
	"\n"
	"Summarizes PTX files (or the library's kernels of those NAMEs), one row each; with\n"
	"none given, the library's kernels\n"
	"(those built into ptxpose, and $PTXPOSE_PTX's), named by the file they came from:\n"
	"  name         the file name without .ptx\n"
	"  elem         element width in bits (metadata elem=)\n"
	"  tile         input rows x columns per block (tile=), or lin:N for a 1-D\n"
	"               grid of N elements per block (per_block=)\n"
	"  block        threads per block (block=)\n"
	"  vec          elements per vector access (vec=)\n"
	"  smem         shared-memory layout: none, plain, padded, swizzle (smem=)\n"
	"  regs         registers per thread (ptxas -v)\n"
	"  smem B       shared memory bytes per block: static (ptxas -v) plus the\n"
	"               dynamic bytes the metadata asks for (dyn_smem=)\n"
	"  spill/stack  spill bytes (stores + loads) / stack frame bytes (ptxas -v)\n"
	"  LDG128       yes if the SASS has a 128-bit global load (LDG.E.128)\n"
	"  STG128       yes if the SASS has a 128-bit global store (STG.E.128)\n"
	"  bank W/I     the generator's bank model, worst store and worst load:\n"
	"               wavefronts per warp request / conflict-free minimum\n"
	"               (st 32/1 = a 32-way conflict; st 4/4 = conflict-free)\n"
	"\n"
	"  --arch SM    target for ptxas (default sm_90)\n"
	"  --no-sass    skip cuobjdump: LDG128 and STG128 are -. Without cuobjdump\n"
	"               list does the same, with a one-line note on stderr\n"
	"  --no-ptxas   run no tool: the metadata's columns only (name to smem, bank\n"
	"               W/I); the others are -, null in JSON, empty in CSV\n"
	"  --csv        comma-separated values with a header, all numbers separate\n"
	"  --json       one JSON array, an object a file: file, name, elem, tile (\"64x64\"\n"
	"               or null), per_block, block, vec, smem, registers, smem_bytes\n"
	"               (static only, as --csv's),\n"
	"               spill_bytes, stack_bytes, ldg128 and stg128 (true/false, null\n"
	"               with --no-sass), bank {st_wavefronts, st_ideal, ld_wavefronts,\n"
	"               ld_ideal}, error; numbers are JSON numbers, null where the table\n"
	"               shows -\n"
	"  --jobs N     files inspected at a time (default: the processors online)\n"
	"  -v           the tools used, then each file's ptxas -v output on stderr,\n"
	"               under a line 'FILE:'\n"
	"\n"
	"Progress, on stderr while the tools run: on a terminal, a line rewritten and\n"
	"erased after; in a pipe or a file, a line once they have run 2 s, then every\n"
	"10 s, and one at the end. PTXPOSE_PROGRESS=0 turns it off. Errors follow the\n"
	"table on stderr, one line a file (a rejected file: ptxas's output); a file\n"
	"that cannot be read gets no row when no file could be.\n"
	"\n"
	"Exit codes: 0 ok, 2 usage, 3 a file missing, unreadable, empty, holding a NUL\n"
	"byte or without ptxpose metadata, 5 a file ptxas rejects,\n"
	"7 ptxas missing (cuobjdump: " INS_CUOBJDUMP_INSTALL "), or a tool\n"
	"that failed, ran past $PTXPOSE_TOOL_TIMEOUT seconds (default 300) or printed\n"
	"more than 64 MiB.\n";


typedef struct {
	const char *arch;
	int no_sass, no_ptxas, csv, json, verbose;
	uint64_t jobs;
	char **files;
	int nfiles;
} list_opts;

static int parse_args(int argc, char **argv, list_opts *o)
{
	memset(o, 0, sizeof *o);
	o->arch = "sm_90";
	o->jobs = (uint64_t)ins_jobs_default();
	o->files = calloc((size_t)argc, sizeof *o->files);
	if (!o->files)
		return -1;
	for (int i = 1; i < argc; i++) {
		int r = opt_value("list", argv, argc, &i, "--arch", &o->arch);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		const char *v;
		if ((r = opt_value("list", argv, argc, &i, "--jobs", &v)) < 0 ||
		    (r > 0 && opt_u64("list", "--jobs", v, 1, 64, &o->jobs)))
			return -1;
		if (r > 0)
			continue;
		if (!strcmp(argv[i], "--no-sass"))
			o->no_sass = 1;
		else if (!strcmp(argv[i], "--no-ptxas"))
			o->no_ptxas = o->no_sass = 1;
		else if (!strcmp(argv[i], "--csv"))
			o->csv = 1;
		else if (!strcmp(argv[i], "--json"))
			o->json = 1;
		else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			o->verbose = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			cli_err("list", "unknown flag '%s' (try --help)", argv[i]);
			return -1;
		} else
			o->files[o->nfiles++] = argv[i];
	}
	if (o->csv && o->json) {
		cli_err("list", "--csv and --json do not go together");
		return -1;
	}
	if (!ins_arch_valid(o->arch)) {
		cli_err("list", "--arch: expected sm_NN (sm_80, sm_90, sm_90a, sm_100, ...), got '%s'", o->arch);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* Append the .ptx files of a folder, sorted, to *paths. */
static int add_dir(const char *dir, char ***paths, int *n, int *cap)
{
	DIR *d = opendir(dir);
	if (!d) {
		cli_err("list", "%s: %s", dir, strerror(errno));
		return -1;
	}
	int first = *n;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".ptx") || e->d_name[0] == '.')
			continue;
		if (*n == *cap) {
			int nc = *cap ? *cap * 2 : 64;
			char **p = realloc(*paths, (size_t)nc * sizeof *p);
			if (!p)
				break;
			*paths = p;
			*cap = nc;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *s = malloc(len);
		if (!s)
			break;
		snprintf(s, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
		(*paths)[(*n)++] = s;
	}
	closedir(d);
	if (*n == first) {
		cli_err("list", "%s: no .ptx files", dir);
		return -1;
	}
	qsort(*paths + first, (size_t)(*n - first), sizeof **paths, cmp_str);
	return 0;
}

/* Files given, folders expanded. Returns the count or -1. */
static int collect(const list_opts *o, char ***paths)
{
	int n = 0, cap = 0;
	*paths = NULL;
	for (int i = 0; i < o->nfiles; i++) {
		struct stat st;
		if (!stat(o->files[i], &st) && S_ISDIR(st.st_mode)) {
			if (add_dir(o->files[i], paths, &n, &cap))
				return -1;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **p = realloc(*paths, (size_t)cap * sizeof *p);
			if (!p)
				return -1;
			*paths = p;
		}
		(*paths)[n] = strdup(o->files[i]);
		if (!(*paths)[n++])
			return -1;
	}
	return n;
}

/* No files given: the library's kernels (built in, and $PTXPOSE_PTX), each
 * named by the file it came from. Returns the count or -1. */
static int library_kernels(ptxpose_tool_kernels **r, ins_input **in)
{
	ptxpose_status st = ptxpose_tool_kernels_new(r);
	if (!st)
		st = ptxpose_tool_kernels_add_library(*r);
	int n = st ? 0 : ptxpose_tool_kernels_count(*r);
	if (st) {
		cli_err("list", "%s", ptxpose_last_error());
		return -1;
	}
	if (!(*in = calloc((size_t)n + 1, sizeof **in))) {
		cli_err("list", "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		ptxpose_tool_kernel k;
		ptxpose_tool_kernels_get(*r, i, &k);
		(*in)[i] = (ins_input){.path = k.file, .ptx = k.ptx};
	}
	return n;
}


int cmd_list(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (opt_is_help(argv[i])) {
			fputs(help, stdout);
			return EXIT_OK;
		}
	list_opts o;
	int rc = EXIT_OK;
	char **paths = NULL;
	int n = -1;
	list_row *rows = NULL;
	ins_report *reps = NULL;
	ins_input *in = NULL;
	ptxpose_tool_kernels *reg = NULL;
	strbuf out, errors;
	sb_init(&out);
	sb_init(&errors);
	if (parse_args(argc, argv, &o)) {
		rc = EXIT_USAGE;
		goto done;
	}
	ins_tools tools;
	char err[512];
	tools.ptxas[0] = '\0';
	if (!o.no_ptxas && ins_find_ptxas(tools.ptxas, sizeof tools.ptxas, err, sizeof err)) {
		cli_err("list", "%s", err);
		rc = EXIT_TOOL;
		goto done;
	}
	tools.cuobjdump[0] = '\0';
	if (!o.no_sass && ins_find_cuobjdump(tools.cuobjdump, sizeof tools.cuobjdump, err, sizeof err)) {
		/* the table is still worth having: as --no-sass, with one note */
		fprintf(stderr, "ptxpose list: note: %s; LDG128 and STG128 are left as - (--no-sass)\n", err);
		tools.cuobjdump[0] = '\0';
	}
	if (o.verbose)
		fprintf(stderr, "ptxas: %s\ncuobjdump: %s\n", tools.ptxas, tools.cuobjdump[0] ? tools.cuobjdump : "(none)");
	if ((n = o.nfiles ? collect(&o, &paths) : library_kernels(&reg, &in)) < 0 ||
	    !(rows = calloc((size_t)n + 1, sizeof *rows)) || !(reps = calloc((size_t)n + 1, sizeof *reps)) ||
	    (!in && !(in = calloc((size_t)n + 1, sizeof *in)))) {
		rc = EXIT_INPUT;
		goto done;
	}
	for (int i = 0; o.nfiles && i < n; i++) {
		size_t len;
		if (cli_kernel_arg(paths[i], &in[i].path, &in[i].ptx, &len, err, sizeof err)) {
			cli_err("list", "%s", err);
			rc = EXIT_INPUT;
			goto done;
		}
	}
	/* what takes the time, on stderr (cli/progress.h) */
	cli_progress prog;
	cli_progress_init(&prog, "list");
	ins_progress step = {cli_progress_step, &prog};
	ins_inspect_many(&tools, in, n, o.arch, (int)o.jobs, reps, NULL, &step);
	cli_progress_end(&prog);
	int unread = 0;
	if (o.csv)
		sb_add(&out, LIST_CSV_HEAD);
	if (o.json)
		sb_addc(&out, '[');
	for (int i = 0; i < n; i++) {
		const ins_report *r = &reps[i];
		int st = r->status;
		if (st == INS_ENOTOOL || st == INS_ETOOL || st == INS_EARCH) {
			/* the same for every file: say it once and stop */
			cli_err("list", "%s", r->err);
			rc = st == INS_EARCH ? EXIT_USAGE : EXIT_TOOL;
			goto done;
		}
		list_fill_row(r, &rows[i]);
		if (o.verbose)
			fprintf(stderr, "%s:\n%s", in[i].path, sb_str(&r->log));
		if (o.csv)
			list_csv_row(r, &rows[i], &out);
		if (o.json) {
			if (i)
				sb_add(&out, ",\n ");
			list_json_row(r, &rows[i], &out);
		}
		if (st == INS_EASM) {
			sb_printf(&errors, "ptxpose list: ptxas rejected %s for %s:\n%s", in[i].path, o.arch, sb_str(&r->log));
			rc = EXIT_CUDA;
		} else if (st == INS_EINPUT || !r->have_meta) {
			/* the reading error names the file already */
			if (st == INS_EINPUT)
				sb_printf(&errors, "ptxpose list: %s\n", r->err), unread++;
			else
				sb_printf(&errors, "ptxpose list: %s: %s\n", in[i].path, r->meta_err);
			if (rc == EXIT_OK)
				rc = EXIT_INPUT;
		}
	}
	if (o.json)
		sb_add(&out, "]\n");
	if (o.csv || o.json)
		fputs(sb_str(&out), stdout);
	else if (unread < n)  /* no table of files none of which could be read */
		list_print_table(rows, n);
	if (errors.len) {
		fflush(stdout);
		fprintf(stderr, "%s%s", unread < n ? "\n" : "", sb_str(&errors));
	}
done:
	for (int i = 0; i < n; i++) {
		if (paths)
			free(paths[i]);
		if (reps)
			ins_report_free(&reps[i]);
	}
	free(reps);
	free(paths);
	free(in);
	ptxpose_tool_kernels_free(reg);
	free(rows);
	free(o.files);
	sb_free(&out);
	sb_free(&errors);
	return rc;
}
