/* SPDX-License-Identifier: MIT */
/*
 * The words every subcommand uses for a bad command line: one line,
 * "hipgrain CMD: what: why", then where to look.  The whole help on a typo
 * would bury the line that says what was wrong.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static int cli_try(const char *cmd)
{
	fprintf(stderr, "try 'hipgrain %s --help'\n", cmd);
	return CLI_EXIT_USAGE;
}

int cli_bad_option(const char *cmd, char **argv, int c)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		fprintf(stderr, "hipgrain %s: %s: needs an argument\n", cmd, opt);
	else if (optopt && opt[0] == '-' && opt[1] != '-')
		fprintf(stderr, "hipgrain %s: -%c: unknown option\n", cmd, optopt);
	else
		fprintf(stderr, "hipgrain %s: %s: unknown option\n", cmd, opt);
	return cli_try(cmd);
}

int cli_bad_value(const char *cmd, const struct option *opts, int c,
		  const char *arg)
{
	const char *name = "option";

	for (; opts->name; opts++)
		if (opts->val == c)
			name = opts->name;
	fprintf(stderr, "hipgrain %s: --%s '%s': unknown value\n", cmd,
		name, arg);
	return cli_try(cmd);
}

int cli_missing(const char *cmd, const char *what, const char *hint)
{
	fprintf(stderr, "hipgrain %s: no %s given: %s\n", cmd, what, hint);
	return cli_try(cmd);
}

int cli_conflict(const char *cmd, const char *why)
{
	fprintf(stderr, "hipgrain %s: %s\n", cmd, why);
	return cli_try(cmd);
}
