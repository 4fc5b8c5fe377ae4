/* SPDX-License-Identifier: MIT */
/* `hipgrain report`: options in, analyzer/ does the work. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"
#include "an_mpi.h"
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
	"  -j, --jobs N           read N traces at once, in worker processes\n"
	"                         (default: the CPUs this process may use);\n"
	"                         the report is the same for every N\n"
	"  --mpi                  under mpirun or srun: every rank judges its\n"
	"                         share of the traces, rank 0 writes the report\n"
	"  --summary FILE         write the one TRACE's summary to FILE, no\n"
	"                         report; a report reads FILE as the trace\n"
	"  -h, --help             this text\n"
	"\n" CLI_EXIT_TEXT;

enum { OPT_FORMAT = 256, OPT_INVENTORY, OPT_FAIL_ON, OPT_COLOR, OPT_SUMMARY,
       OPT_MPI };

static const struct option report_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"output", required_argument, NULL, 'o'},
	{"inventory", no_argument, NULL, OPT_INVENTORY},
	{"fail-on", required_argument, NULL, OPT_FAIL_ON},
	{"color", required_argument, NULL, OPT_COLOR},
	{"jobs", required_argument, NULL, 'j'},
	{"summary", required_argument, NULL, OPT_SUMMARY},
	{"mpi", no_argument, NULL, OPT_MPI},
	{"help", no_argument, NULL, 'h'},
	{0},
};

/* The CPUs this process may run on: what -j is by default. */
static unsigned report_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

static bool report_jobs(const char *s, unsigned *jobs)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || !v || v > 1024)
		return false;
	*jobs = (unsigned)v;
	return true;
}

static bool report_color(const char *mode)
{
	if (!strcmp(mode, "always"))
		return true;
	if (!strcmp(mode, "never"))
		return false;
	return isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

struct report_args {
	struct an_opts o;
	enum an_sev fail_on;
	const char *color, *output, *summary;
};

/* One option into a: -1 to go on, else the exit status. */
static int report_opt(int ch, char **argv, struct report_args *a)
{
	int fmt;

	switch (ch) {
	case OPT_FORMAT:
		fmt = an_format_parse(optarg);
		if (fmt < 0)
			return cli_bad_value("report", report_opts, ch, optarg);
		a->o.format = (enum an_format)fmt;
		return -1;
	case 'o':
		a->output = optarg;
		return -1;
	case 'j':
		if (report_jobs(optarg, &a->o.jobs))
			return -1;
		fprintf(stderr, "hipgrain report: --jobs '%s': want a number "
				"from 1 to 1024\n", optarg);
		return CLI_EXIT_USAGE;
	case OPT_INVENTORY:
		a->o.inventory = true;
		return -1;
	case OPT_FAIL_ON:
		a->fail_on = an_sev_parse(optarg);
		return a->fail_on == AN_SEV_NONE
			       ? cli_bad_value("report", report_opts, ch, optarg)
			       : -1;
	case OPT_COLOR:
		if (strcmp(optarg, "auto") && strcmp(optarg, "always") &&
		    strcmp(optarg, "never"))
			return cli_bad_value("report", report_opts, ch, optarg);
		a->color = optarg;
		return -1;
	case OPT_SUMMARY:
		a->summary = optarg;
		return -1;
	case OPT_MPI:
		a->o.mpi = true;
		return -1;
	case 'h':
		fputs(report_usage, stdout);
		return CLI_EXIT_OK;
	default:
		return cli_bad_option("report", argv, ch);
	}
}

/* The report itself, once the options hold: its exit status. */
static int report_write(struct report_args *a)
{
	struct cli_out out;
	struct an_outcome res;
	int rc;

	if (a->o.mpi) {
		int rank = an_mpi_start(stderr);

		if (rank < 0)
			return CLI_EXIT_FAILURE;
		/* Only rank 0 writes; the others' results go to it. */
		if (rank > 0)
			a->output = NULL;
	}
	if (!cli_out_open(&out, "report", a->output))
		rc = -1;
	else
		rc = an_report(&a->o, out.f, stderr, &res);
	if (a->o.mpi)
		an_mpi_end();
	if (!out.f)
		return CLI_EXIT_FAILURE;
	if (cli_out_close(&out, rc == 0) || rc)
		return CLI_EXIT_FAILURE;
	if (a->fail_on != AN_SEV_NONE && res.worst >= a->fail_on)
		return CLI_EXIT_FINDINGS;
	/* Nothing found, but the trace could not show all: not a pass. */
	if (a->fail_on != AN_SEV_NONE && res.unjudged)
		return CLI_EXIT_UNJUDGED;
	return CLI_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.o = {.format = AN_FMT_TEXT},
				.fail_on = AN_SEV_NONE, .color = "auto"};
	int ch, rc;

	optind = 0; /* glibc: 0 also resets state a previous getopt left */
	a.o.jobs = report_cpus();
	while ((ch = getopt_long(argc, argv, ":ho:j:", report_opts, NULL)) != -1)
		if ((rc = report_opt(ch, argv, &a)) >= 0)
			return rc;
	if (optind >= argc)
		return cli_missing("report", "TRACE",
				   "a trace directory 'hipgrain run' wrote, or "
				   "a folder holding some");
	if (a.summary && argc - optind != 1)
		return cli_conflict("report", "--summary: name one TRACE");
	if (a.summary)
		return an_summary_write(argv[optind], a.summary, stderr)
			       ? CLI_EXIT_FAILURE
			       : CLI_EXIT_OK;
	/* The inventory is a table of text and JSON; a page, a timeline or a
	 * code-scanning log that silently left it out would look complete. */
	if (a.o.inventory && a.o.format != AN_FMT_TEXT && a.o.format != AN_FMT_JSON) {
		fprintf(stderr, "hipgrain report: --inventory: only the text and "
				"json formats have one\n");
		return CLI_EXIT_USAGE;
	}
	a.o.inputs = argv + optind;
	a.o.ninputs = argc - optind;
	a.o.color = a.o.format == AN_FMT_TEXT &&
		    (a.output ? !strcmp(a.color, "always") : report_color(a.color));
	return report_write(&a);
}
