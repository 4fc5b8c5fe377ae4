/* SPDX-License-Identifier: MIT */
/* Placeholder until the scan module lands; replaced by its owner. */
#include <stdio.h>

#include "cli.h"

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hipgrain scan: not built yet\n");
	return CLI_EXIT_FAILURE;
}
