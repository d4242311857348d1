/* ptxpose: generate, load, check, inspect and time PTX transposes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "common/strbuf.h"

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
	sb_add_esc(&line, sb_str(&msg), NULL);
	fprintf(stderr, "%s\n", sb_str(&line));
	sb_free(&msg);
	sb_free(&line);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ptxpose COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-6s %s\n", commands[i].name, commands[i].what);
	fprintf(f, "  %-6s %s\n", "help", "this text, or `ptxpose help COMMAND` for one command");
	fprintf(f, "\nEach command takes --help. Exit codes: 0 ok, 1 wrong result, 2 usage,\n"
		   "3 input, 4 no CUDA driver or device, 5 CUDA error, 6 script error,\n"
		   "7 missing tool, 8 emulator fault.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
		if (argc > 2 && strcmp(name, "help") == 0 && strcmp(argv[2], "help") != 0) {
			for (size_t i = 0; i < NCOMMANDS; i++)
				if (!strcmp(commands[i].name, argv[2])) {
					char *sub[] = {argv[2], "--help", NULL};
					return commands[i].fn(2, sub);
				}
			cli_err("help", "unknown command '%s'", argv[2]);
			return EXIT_USAGE;
		}
		usage(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].fn(argc - 1, argv + 1);
	cli_err(NULL, "unknown command '%s' (try 'ptxpose help')", name);
	return EXIT_USAGE;
}
