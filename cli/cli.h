/* cli: exit codes and the subcommands of the ptxpose command. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

/* Exit codes; docs/DESIGN.md keeps the table. */
enum {
	EXIT_OK = 0,
	EXIT_WRONG = 1,   /* ran, but the result is wrong */
	EXIT_USAGE = 2,
	EXIT_INPUT = 3,
	EXIT_NODEV = 4,
	EXIT_CUDA = 5,
	EXIT_SCRIPT = 6,
	EXIT_TOOL = 7,
	EXIT_EMU = 8,
};

/* Each subcommand: argv[0] is its own name. Returns an exit code. */
int cmd_gen(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_sass(int argc, char **argv);
int cmd_plan(int argc, char **argv);

/* Print "ptxpose CMD: message" on stderr ("ptxpose: message" when cmd is
 * NULL), one line: control characters in the message are escaped (\n, \x1b),
 * so a file name or value given by the user cannot break it. */
void cli_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After "no CUDA driver" (or, with `device`, "no CUDA device"; exit 4) on the
 * GPU path of check and run: the one-line hint that --emulate needs neither. */
void cli_emulate_hint(int device);

#endif
