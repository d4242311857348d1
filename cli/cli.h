/* cli: exit codes and the subcommands of the ptxpose command. */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdint.h>

#include "loader/pxfile.h"
#include "loader/status.h"
#include "rig/rig.h"

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

/* The exit code of a status (exit.c; the table above): OK 0, WRONG 1,
 * EUSAGE 2, EINPUT 3, ENODRIVER/ENODEVICE 4, the CUDA failures 5. */
int cli_exit(px_status st);

/* Exit codes of several failures into one: the first that is not 1 (a
 * wrong result) wins over 1, which wins over 0. */
int cli_exit_merge(int so_far, int code);

/* A px_log fn that writes "# LINE" to stderr (ud unused). */
void cli_log_stderr(void *ud, const char *line);

/* ---- the emulator path (emulate.c) ---------------------------------------- */

/* Run f's kernel in the CPU emulator (emu/emu.h) over exact-size buffers
 * and compare. PX_OK, PX_WRONG, PX_ENOMEM, or PX_EUNAVAIL when the emulator
 * stopped: *emu_rc is then EMU_FAULT or EMU_UNSUPPORTED and err holds
 * "emulator: <its diagnostic>". */
px_status cli_emulate(const px_file *f, const rig_shape *s, uint64_t seed, vfy_result *res, int *emu_rc,
		      char *err, size_t errlen);

/* What an N-d shape runs in the emulator (cli_emulate takes this path): its
 * reduced problem (rig_shape_reduce) in *t, the reduction's line in why;
 * a copy (t->copy_elems) is one memcpy on the host, no kernel. PX_EUSAGE
 * (the library's message), or PX_EUNAVAIL with "not emulated: ..." in err:
 * f (when not NULL) that does not do the reduced problem (rig_kernel_pending), or
 * of another width than the reduced problem's. */
px_status cli_emulate_nd(const px_file *f, const rig_shape *s, ptxpose_tool_problem *t, char *why, size_t wlen,
			 char *err, size_t errlen);

#endif
