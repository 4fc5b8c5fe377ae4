/* SPDX-License-Identifier: MIT */
/* `hipgrain`: dispatch to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hg_config.h"

static const struct cli_cmd cmds[] = {
	{"run", cmd_run, "trace a program: hipgrain run [OPTIONS] -- PROGRAM [ARGS]"},
	{"report", cmd_report, "explain the hazards in traces: hipgrain report TRACE..."},
	{"scan", cmd_scan, "audit the GPU code in binaries: hipgrain scan FILE..."},
	{"dump", cmd_dump, "print the events of traces: hipgrain dump TRACE..."},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: hipgrain [--help] [--version] COMMAND [ARGS]\n\n"
		   "Find where GPU memory semantics bite in HIP programs.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n'hipgrain help COMMAND' and hipgrain-COMMAND(1) tell more.\n\n"
		   "Exit status of report and scan: 0 done, 1 an input or the "
		   "output could\nnot be read or written, 2 a finding reached "
		   "--fail-on, 64 bad usage; run\npasses the program's own "
		   "status through (hipgrain-run(1)).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* 'hipgrain help run' is 'hipgrain run --help' */
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			if (!strcmp(argv[2], cmds[i].name))
				return cmds[i].fn(2, (char *[]){argv[2], "--help",
								NULL});
		fprintf(stderr, "hipgrain help: '%s' is not a command; see "
				"'hipgrain --help'\n", argv[2]);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("hipgrain %s\n", HG_VERSION);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "hipgrain: '%s' is not a command; see 'hipgrain --help'\n",
		argv[1]);
	return CLI_EXIT_USAGE;
}
