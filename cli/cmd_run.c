/* SPDX-License-Identifier: MIT */
/* Placeholder until the run module lands; replaced by its owner. */
#include <stdio.h>

#include "cli.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hipgrain run: not built yet\n");
	return CLI_EXIT_FAILURE;
}
