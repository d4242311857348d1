/* Placeholder until its owner lands the command. */
#include "cli/cli.h"

int cmd_bench(int argc, char **argv)
{
	cli_err("bench", "not implemented yet");
	return EXIT_USAGE;
}
