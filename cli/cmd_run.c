/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_run(int argc, char **argv)
{
	cli_err("run", "not implemented yet");
	return EXIT_USAGE;
}
