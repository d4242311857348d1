/* ptxpose gen: run a Lua script that writes PTX variants. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "common/fsio.h"
#include "gen/lptx.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: ptxpose gen [--out DIR] [--force] [-v] SCRIPT.lua\n\n"
		"Runs SCRIPT.lua with the `ptx` module loaded. The script builds kernels with\n"
		"ptx.transpose{...} and queues files with ptx.write(name, text); the files\n"
		"are written to DIR only once the whole script has succeeded, each one\n"
		"atomically, so a failed run changes nothing. Files whose bytes would not\n"
		"change are left alone.\n\n"
		"  --out DIR   output folder (default ptx; created if missing)\n"
		"  --force     replace files there that ptxpose did not generate\n"
		"  -v          print a Lua traceback on errors\n\n"
		"exit codes: 0 ok, 2 usage, 3 script or output folder missing/unwritable,\n"
		"6 script error or a generator parameter refused\n");
}

int cmd_gen(int argc, char **argv)
{
	lptx_opts o = {.outdir = "ptx"};
	const char *script = NULL;
	for (int i = 1; i < argc; i++) {
		const char *v;
		int r;
		if (opt_is_help(argv[i])) {
			help(stdout);
			return EXIT_OK;
		} else if ((r = opt_value("gen", argv, argc, &i, "--out", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			o.outdir = v;
		} else if (!strcmp(argv[i], "--force")) {
			o.force = 1;
		} else if (!strcmp(argv[i], "-v")) {
			o.verbose = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cli_err("gen", "unknown flag '%s' (see ptxpose gen --help)", argv[i]);
			return EXIT_USAGE;
		} else if (script) {
			cli_err("gen", "one script at a time (got '%s' and '%s')", script, argv[i]);
			return EXIT_USAGE;
		} else {
			script = argv[i];
		}
	}
	if (!script) {
		cli_err("gen", "which script? (ptxpose gen scripts/variants.lua)");
		return EXIT_USAGE;
	}
	if (!fs_exists(script)) {
		cli_err("gen", "%s: no such file", script);
		return EXIT_INPUT;
	}
	struct stat st;
	if (stat(o.outdir, &st) != 0 && mkdir(o.outdir, 0755) != 0) {
		cli_err("gen", "cannot create the output folder %s", o.outdir);
		return EXIT_INPUT;
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
