/* ptxpose: generate, load, check, inspect and time PTX transposes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "common/strbuf.h"
#include "common/version.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *what;
} commands[] = {
	{"bench", cmd_bench, "time variants against the same-run copy over a grid of shapes"},
	{"check", cmd_check, "verify every PTX file over the odd shapes, on the GPU or emulated"},
	{"gen", cmd_gen, "run a Lua script that writes PTX variants"},
	{"list", cmd_list, "summarize PTX files: parameters, ptxas resources, SASS, bank model"},
	{"plan", cmd_plan, "choose a kernel for a problem by the cost model (no GPU)"},
	{"run", cmd_run, "load a PTX file, transpose random data, verify bit-exactly, time"},
	{"sass", cmd_sass, "assemble a PTX file and summarize its SASS"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

void cli_err(const char *cmd, const char *fmt, ...)
{
	strbuf msg, line;
	sb_init(&msg);
	sb_init(&line);
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&msg, fmt, ap);
	va_end(ap);
	sb_printf(&line, "ptxpose%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	sb_add_esc(&line, sb_str(&msg), msg.len, NULL);
	fprintf(stderr, "%s\n", sb_str(&line));
	sb_free(&msg);
	sb_free(&line);
}

void cli_emulate_hint(int device)
{
	fprintf(stderr, "(no CUDA %s here: --emulate runs the kernel in the CPU emulator)\n", device ? "device" : "driver");
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ptxpose COMMAND [ARGS]\n       ptxpose --version\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-6s %s\n", commands[i].name, commands[i].what);
	fprintf(f, "  %-6s %s\n", "help", "this text, or `ptxpose help COMMAND` for one command");
	fprintf(f, "\nWherever a command takes a FILE.ptx, the name of one of the library's kernels\n"
		   "(built in, or $PTXPOSE_PTX's; `ptxpose list` lists them) does too:\n"
		   "`ptxpose check --emulate fast_b32`.\n");
	fprintf(f, "\nEach command takes --help, anywhere among its arguments. --version prints the\n"
		   "version and the commit it was built from. Exit codes: 0 ok, 1 wrong result,\n"
		   "2 usage, 3 input, 4 no CUDA driver or device, 5 CUDA error, 6 script error,\n"
		   "7 missing tool, 8 emulator fault.\n");
}

/* `ptxpose help [COMMAND]`: this text, or the command's --help. */
static int help(int argc, char **argv)
{
	if (argc < 3 || !strcmp(argv[2], "help") || opt_is_help(argv[2])) {
		usage(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, argv[2])) {
			char *sub[] = {argv[2], "--help", NULL};
			return commands[i].fn(2, sub);
		}
	cli_err("help", "unknown command '%s' (try 'ptxpose help')", argv[2]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version")) {
		printf("ptxpose %s (commit %s)\n", PTXPOSE_VERSION, ver_commit());
		return EXIT_OK;
	}
	if (!strcmp(name, "help") || opt_is_help(name))
		return help(argc, argv);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(commands[i].name, name))
			continue;
		/* --help after other arguments: the command's help, whatever they are */
		for (int k = 2; k < argc; k++)
			if (opt_is_help(argv[k])) {
				char *sub[] = {argv[1], argv[k], NULL};
				return commands[i].fn(2, sub);
			}
		return commands[i].fn(argc - 1, argv + 1);
	}
	cli_err(NULL, "unknown command '%s' (try 'ptxpose help')", name);
	return EXIT_USAGE;
}
