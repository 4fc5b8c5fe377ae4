/* SPDX-License-Identifier: MIT */
/* Placeholder until the report module lands; replaced by its owner. */
#include <stdio.h>

#include "cli.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hipgrain report: not built yet\n");
	return CLI_EXIT_FAILURE;
}
