/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_gen(int argc, char **argv)
{
	cli_err("gen", "not implemented yet");
	return EXIT_USAGE;
}
