/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_check(int argc, char **argv)
{
	cli_err("check", "not implemented yet");
	return EXIT_USAGE;
}
