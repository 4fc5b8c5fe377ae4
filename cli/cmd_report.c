/* SPDX-License-Identifier: MIT */
/* `hipgrain report`: options in, analyzer/ does the work. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"
#include "cli.h"

static const char report_usage[] =
	"usage: hipgrain report [OPTIONS] TRACE...\n"
	"\n"
	"Explain the GPU memory hazards recorded in hipgrain traces.\n"
	"\n"
	"  --format text|json|html|perfetto|sarif\n"
	"                         text for people (default), json for machines,\n"
	"                         html one self-contained page, perfetto a\n"
	"                         timeline for ui.perfetto.dev, sarif for code\n"
	"                         scanning\n"
	"  -o, --output FILE      write the report to FILE, not standard output\n"
	"  --inventory            add the allocation inventory\n"
	"  --fail-on error|warning|note\n"
	"                         exit 2 when a finding this severe exists\n"
	"  --color auto|always|never\n"
	"                         colour (auto: on a terminal, unless NO_COLOR)\n"
	"  -h, --help             this text\n"
	"\n" CLI_EXIT_TEXT;

enum { OPT_FORMAT = 256, OPT_INVENTORY, OPT_FAIL_ON, OPT_COLOR };

static const struct option report_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"output", required_argument, NULL, 'o'},
	{"inventory", no_argument, NULL, OPT_INVENTORY},
	{"fail-on", required_argument, NULL, OPT_FAIL_ON},
	{"color", required_argument, NULL, OPT_COLOR},
	{"help", no_argument, NULL, 'h'},
	{0},
};

static bool report_color(const char *mode)
{
	if (!strcmp(mode, "always"))
		return true;
	if (!strcmp(mode, "never"))
		return false;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

int cmd_report(int argc, char **argv)
{
	struct an_opts o = {.format = AN_FMT_TEXT};
	enum an_sev fail_on = AN_SEV_NONE;
	const char *color = "auto", *output = NULL;
	struct cli_out out;
	int fmt, rc;
	struct an_outcome res;
	int ch;

	optind = 0; /* glibc: 0 also resets state a previous getopt left */
	while ((ch = getopt_long(argc, argv, ":ho:", report_opts, NULL)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			fmt = an_format_parse(optarg);
			if (fmt < 0)
				return cli_bad_value("report", report_opts, ch,
						     optarg);
			o.format = (enum an_format)fmt;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_INVENTORY:
			o.inventory = true;
			break;
		case OPT_FAIL_ON:
			fail_on = an_sev_parse(optarg);
			if (fail_on == AN_SEV_NONE)
				return cli_bad_value("report", report_opts, ch,
						     optarg);
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") &&
			    strcmp(optarg, "never"))
				return cli_bad_value("report", report_opts, ch,
						     optarg);
			color = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return CLI_EXIT_OK;
		default:
			return cli_bad_option("report", argv, ch);
		}
	}
	if (optind >= argc)
		return cli_missing("report", "TRACE",
				   "a trace directory 'hipgrain run' wrote, or "
				   "a folder holding some");
	/* The inventory is a table of text and JSON; a page, a timeline or a
	 * code-scanning log that silently left it out would look complete. */
	if (o.inventory && o.format != AN_FMT_TEXT && o.format != AN_FMT_JSON) {
		fprintf(stderr, "hipgrain report: --inventory: only the text and "
				"json formats have one\n");
		return CLI_EXIT_USAGE;
	}
	o.inputs = argv + optind;
	o.ninputs = argc - optind;
	o.color = o.format == AN_FMT_TEXT &&
		  (output ? !strcmp(color, "always") : report_color(color));
	if (!cli_out_open(&out, "report", output))
		return CLI_EXIT_FAILURE;
	rc = an_report(&o, out.f, stderr, &res);
	if (cli_out_close(&out, rc == 0) || rc)
		return CLI_EXIT_FAILURE;
	if (fail_on != AN_SEV_NONE && res.worst >= fail_on)
		return CLI_EXIT_FINDINGS;
	/* Nothing found, but the trace could not show all: not a pass. */
	if (fail_on != AN_SEV_NONE && res.unjudged)
		return CLI_EXIT_UNJUDGED;
	return CLI_EXIT_OK;
}
