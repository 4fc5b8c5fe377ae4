/* SPDX-License-Identifier: MIT */
/* `hipgrain scan`: options only; codeobj/co_scan.c does the work. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "co_scan.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hipgrain scan [--format text|json|sarif] [-o FILE] [--target ARCH]\n"
		"                     [--fail-on hw-fp-atomics] [--decoder auto|own|comgr]\n"
		"                     FILE...\n\n"
		"Audit the GPU code objects in executables, shared libraries, offload\n"
		"bundles and .co/.hsaco files for atomics that misbehave on\n"
		"fine-grained memory.\n\n"
		"  --format text|json|sarif\n"
		"                      report format (default text; sarif for code\n"
		"                      scanning)\n"
		"  -o, --output FILE   write the report to FILE, not standard output\n"
		"  --target ARCH       only code objects loadable on ARCH (gfx90a:xnack-)\n"
		"  --fail-on hw-fp-atomics\n"
		"                      exit 2 when any kernel has hardware FP atomics\n"
		"  --decoder auto|own|comgr\n"
		"                      instruction decoder (default auto: own, comgr\n"
		"                      where the own one does not know the target)\n"
		"  -h, --help          this help\n\n"
		"Exit: 0 all read, 1 an input unreadable, 2 --fail-on reached, 64 usage.\n");
}

static int parse_decoder(const char *s, enum co_decoder *d)
{
	static const char *const names[] = {"auto", "own", "comgr"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*d = (enum co_decoder)i;
			return 0;
		}
	return -1;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"target", required_argument, NULL, 't'},
		{"fail-on", required_argument, NULL, 'F'},
		{"decoder", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	struct co_scan_opts o = {.out = stdout, .err = stderr};
	bool fail_on_fp = false;
	const char *output = NULL;
	struct cli_out out;
	int c, rc;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
			    strcmp(optarg, "sarif"))
				goto bad;
			o.json = !strcmp(optarg, "json");
			o.sarif = !strcmp(optarg, "sarif");
			break;
		case 'o':
			output = optarg;
			break;
		case 't':
			o.target = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "hw-fp-atomics"))
				goto bad;
			fail_on_fp = true;
			break;
		case 'd':
			if (parse_decoder(optarg, &o.decoder))
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return CLI_EXIT_OK;
		default:
			usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "hipgrain scan: no FILE given\n");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct co_scan_stats st;
	if (!cli_out_open(&out, "scan", output))
		return CLI_EXIT_FAILURE;
	o.out = out.f;
	rc = co_scan_run(&o, argv + optind, argc - optind, &st);
	/* A file that could not be read is in the report too: keep it. */
	if (cli_out_close(&out, true) || rc)
		return CLI_EXIT_FAILURE;
	if (fail_on_fp && st.fp_kernels)
		return CLI_EXIT_FINDINGS;
	return CLI_EXIT_OK;
bad:
	fprintf(stderr, "hipgrain scan: bad value '%s'\n", optarg);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
