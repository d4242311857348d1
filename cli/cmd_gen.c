/* ptxpose gen: run a Lua script that writes PTX variants. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "gen/lptx.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: ptxpose gen [--out DIR] [--force] [--time-limit S] [--mem-limit MIB] [-v] SCRIPT.lua\n\n"
		"Runs SCRIPT.lua with the `ptx` module loaded. The script builds kernels with\n"
		"ptx.transpose{...} and queues files with ptx.write(name, text); names are\n"
		"plain file names (no '/', no control characters; ./a.ptx is a.ptx), checked\n"
		"at the call. Only once the whole script has succeeded are the files written,\n"
		"all of them or none: DIR is created then if missing, each file goes to a\n"
		"copy beside it, a journal names them, and all are renamed at the end; a run\n"
		"killed while renaming is finished by the next gen into DIR. Files whose bytes\n"
		"would not change are left alone.\n\n"
		"Scripts run in a sandbox: the base, string, table, math and utf8 libraries\n"
		"only (no io, os, require, dofile, loadfile or debug; load takes text only),\n"
		"text scripts only (no precompiled chunks), and limits on memory and time;\n"
		"reaching one is an error at the script's line. The script runs in a child\n"
		"process killed at the time limit, whatever it is doing. Pattern functions\n"
		"refuse a pattern that could backtrack for hours over a long string,\n"
		"string.rep beyond the memory limit, table.sort more than 2^22 elements,\n"
		"table.move more than 2^24.\n\n"
		"  --out DIR         output folder (default ptx)\n"
		"  --force           replace files there that ptxpose did not generate\n"
		"  --time-limit S    seconds the script may run (default 10)\n"
		"  --mem-limit MIB   MiB of memory the script may hold (default 256)\n"
		"  -v                print a Lua traceback on errors\n\n"
		"exit codes: 0 ok, 2 usage, 3 script missing or unreadable (a folder, not a\n"
		"regular file), or an output file that cannot be written, 6 script error, a\n"
		"generator parameter refused, or a limit reached\n");
}

/* An argument for a message: control characters escaped, so it stays one
 * line. Valid until sb changes. */
static const char *esc(strbuf *sb, const char *s)
{
	sb_reset(sb);
	sb_add_esc(sb, s, strlen(s), NULL);
	return sb_str(sb);
}

int cmd_gen(int argc, char **argv)
{
	lptx_opts o = {.outdir = "ptx"};
	const char *script = NULL;
	strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	int code = -1;
	for (int i = 1; i < argc; i++) {
		const char *v;
		uint64_t n;
		int r;
		if (opt_is_help(argv[i])) {
			help(stdout);
			return EXIT_OK;
		} else if ((r = opt_value("gen", argv, argc, &i, "--out", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			o.outdir = v;
		} else if ((r = opt_value("gen", argv, argc, &i, "--time-limit", &v))) {
			if (r < 0 || opt_u64("gen", "--time-limit", v, 1, 3600, &n))
				return EXIT_USAGE;
			o.limits.time_ms = (unsigned)n * 1000;
		} else if ((r = opt_value("gen", argv, argc, &i, "--mem-limit", &v))) {
			if (r < 0 || opt_u64("gen", "--mem-limit", v, 1, 65536, &n))
				return EXIT_USAGE;
			o.limits.mem_bytes = (size_t)n << 20;
		} else if (!strcmp(argv[i], "--force")) {
			o.force = 1;
		} else if (!strcmp(argv[i], "-v")) {
			o.verbose = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_err("gen", "unknown flag '%s' (see ptxpose gen --help)", esc(&a, argv[i]));
			code = EXIT_USAGE;
			break;
		} else if (script) {
			cli_err("gen", "one script at a time (got '%s' and '%s')", esc(&a, script), esc(&b, argv[i]));
			code = EXIT_USAGE;
			break;
		} else {
			script = argv[i];
		}
	}
	sb_free(&a);
	sb_free(&b);
	if (code >= 0)
		return code;
	if (!script) {
		cli_err("gen", "which script? (ptxpose gen scripts/variants.lua)");
		return EXIT_USAGE;
	}
	strbuf report, err;
	sb_init(&report);
	sb_init(&err);
	int rc = lptx_run(script, &o, &report, &err);
	if (rc == LPTX_OK)
		fputs(sb_str(&report), stdout);
	else
		cli_err("gen", "%s", sb_str(&err));
	sb_free(&report);
	sb_free(&err);
	return rc == LPTX_OK ? EXIT_OK : rc == LPTX_IO ? EXIT_INPUT : EXIT_SCRIPT;
}
