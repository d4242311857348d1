/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_sass(int argc, char **argv)
{
	cli_err("sass", "not implemented yet");
	return EXIT_USAGE;
}
