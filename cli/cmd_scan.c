/* SPDX-License-Identifier: MIT */
/* `hipgrain scan`: options only; codeobj/co_scan.c does the work. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "an.h"
#include "cli.h"
#include "co_scan.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hipgrain scan [OPTIONS] FILE...\n\n"
		"Audit the GPU code objects in executables, shared libraries, offload\n"
		"bundles and .co/.hsaco files for atomics that misbehave on\n"
		"fine-grained memory.\n\n"
		"  --format text|json|sarif\n"
		"                      text for people (default), json for machines,\n"
		"                      sarif for code scanning\n"
		"  -o, --output FILE   write the report to FILE, not standard output\n"
		"  --target ARCH       only code objects loadable on ARCH (gfx90a:xnack-)\n"
		"  --fail-on error|warning|note\n"
		"                      exit 2 when a kernel has atomics this severe:\n"
		"                      error, hardware FP atomics; warning and note,\n"
		"                      integer atomics that misbehave too\n"
		"  --decoder auto|own|comgr\n"
		"                      instruction decoder (default auto: own, comgr\n"
		"                      where the own one does not know the target)\n"
		"  -v, --verbose       list every code object and kernel, not only\n"
		"                      those at risk\n"
		"  -h, --help          this help\n\n"
		CLI_EXIT_TEXT);
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
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	struct co_scan_opts o = {.out = stdout, .err = stderr};
	enum an_sev fail_on = AN_SEV_NONE;
	const char *output = NULL;
	struct cli_out out;
	int c, rc;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:v", longopts, NULL)) != -1) {
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
			/* hw-fp-atomics: the name scan's threshold had first */
			fail_on = strcmp(optarg, "hw-fp-atomics")
					  ? an_sev_parse(optarg)
					  : AN_SEV_ERROR;
			if (fail_on == AN_SEV_NONE)
				goto bad;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'd':
			if (parse_decoder(optarg, &o.decoder))
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return CLI_EXIT_OK;
		default:
			return cli_bad_option("scan", argv, c);
		}
	}
	if (optind >= argc)
		return cli_missing("scan", "FILE", "a program, library or code "
						   "object to audit");
	struct co_scan_stats st;
	if (!cli_out_open(&out, "scan", output))
		return CLI_EXIT_FAILURE;
	o.out = out.f;
	rc = co_scan_run(&o, argv + optind, argc - optind, &st);
	/* A file that could not be read is in the report too: keep it. */
	if (cli_out_close(&out, true) || rc || st.target_unmatched)
		return CLI_EXIT_FAILURE;
	/* A kernel that synchronizes at system scope is a note: whether its
	 * memory is coarse-grained only a run can say. */
	if ((fail_on == AN_SEV_ERROR && st.fp_kernels) ||
	    (fail_on != AN_SEV_NONE && fail_on < AN_SEV_ERROR &&
	     (st.fp_kernels || st.int_kernels)) ||
	    (fail_on == AN_SEV_NOTE && st.sync_kernels))
		return CLI_EXIT_FINDINGS;
	return CLI_EXIT_OK;
bad:
	return cli_bad_value("scan", longopts, c, optarg);
}
