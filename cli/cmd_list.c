/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_list(int argc, char **argv)
{
	cli_err("list", "not implemented yet");
	return EXIT_USAGE;
}
