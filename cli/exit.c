/* exit: the exit code of each status (docs/DESIGN.md's table, cli/cli.h's
 * names), and the verbose log the commands write to stderr. */
#include <stdio.h>

#include "cli/cli.h"

/* Indexed by px_status; keep in the enum's order (loader/status.h). */
static const int exit_codes[] = {
	[PX_OK] = EXIT_OK,
	[PX_WRONG] = EXIT_WRONG,
	[PX_EUSAGE] = EXIT_USAGE,
	[PX_EINPUT] = EXIT_INPUT,
	[PX_ENODRIVER] = EXIT_NODEV,
	[PX_ENODEVICE] = EXIT_NODEV,
	[PX_ECUDA] = EXIT_CUDA,
	[PX_EJIT] = EXIT_CUDA,
	[PX_ENOMEM] = EXIT_CUDA,
	[PX_EUNAVAIL] = EXIT_CUDA,
};

int cli_exit(px_status st)
{
	if ((unsigned)st >= sizeof exit_codes / sizeof exit_codes[0])
		return EXIT_CUDA;
	return exit_codes[st];
}

int cli_exit_merge(int so_far, int code)
{
	if (so_far == 0 || (so_far == 1 && code != 0))
		return code;
	return so_far;
}

void cli_log_stderr(void *ud, const char *line)
{
	(void)ud;
	fprintf(stderr, "# %s\n", line);
}
