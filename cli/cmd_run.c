/* SPDX-License-Identifier: MIT */
/* `hipgrain run`: options in, tracer/ does the work, report out. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"
#include "an_fate.h"
#include "an_inputs.h"
#include "cli.h"
#include "cli_known.h"
#include "trc.h"
#include "vg_node.h"
#include "vg_profile.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: hipgrain run [OPTIONS] [--] PROGRAM [ARGS...]\n\n"
	    "Run PROGRAM under the hipgrain preload, trace it with LTTng, "
	    "then report.\n\n"
	    "Options:\n"
	    "  -o, --output DIR          write the trace to DIR; %%h host, "
	    "%%p pid,\n"
	    "                            %%r rank, %%j job id (default "
	    "./hipgrain-trace-\n"
	    "                            DATE-TIME-PID; under mpirun/srun\n"
	    "                            ./hipgrain-trace-jobJOB/rankRANK-HOST)\n"
	    "      --relay HOST[:CTRL[:DATA]]\n"
	    "                            stream the trace to lttng-relayd on "
	    "HOST (ports\n"
	    "                            default to 5342 and 5343); DIR names "
	    "the session\n"
	    "      --force               accept an existing non-empty DIR\n"
	    "      --lossless            block the program rather than drop "
	    "events\n"
	    "      --no-report           only trace; 'hipgrain report DIR' "
	    "reads it later\n"
	    "      --subbuf-size SIZE    sub-buffer bytes, power of two, "
	    "k/M/G (default 256k)\n"
	    "      --num-subbuf N        sub-buffers per CPU, power of two "
	    "(default %u)\n"
	    "      --virtual-gpu NAME[:OPTION,...]\n"
	    "                            run on a virtual GPU (NAME: MI100, "
	    "MI210, MI250X,\n"
	    "                            MI300X, MI300A, or a node: 4xMI250X, "
	    "8xMI300X,\n"
	    "                            4xMI300A; OPTION: pcie, xgmi, "
	    "no-pcie-atomics,\n"
	    "                            xnack; 'list' describes them): "
	    "kernels\n"
	    "                            run on hipgrain's interpreter; for "
	    "machines with no\n"
	    "                            GPU (hipgrain-run(1), VIRTUAL GPU)\n"
	    "      --no-exec             on the virtual GPU, retire kernels "
	    "unexecuted\n"
	    "      --force-gpu           run on a virtual GPU the ROCm runtime "
	    "here cannot\n"
	    "                            drive (it finds no GPU); refused "
	    "otherwise\n"
	    "  -q, --quiet               print errors only\n"
	    "  -h, --help                show this help\n\n",
	    TRC_DEFAULT_NUM_SUBBUF);
	cli_known_note(f);
	fputs(
	    "\nExit status: the program's, or 128+N if signal N killed it; "
	    "125 if tracing\ncould not be set up, 126 if PROGRAM cannot or "
	    "must not run, 127 if it is not\nfound, 64 on bad usage. "
	    "See hipgrain-run(1).\n", f);
}

static bool pow2(unsigned long long v)
{
	return v && !(v & (v - 1));
}

/* A power of two in [lo, hi], with an optional binary k/M/G suffix. */
static int parse_count(const char *opt, const char *s, unsigned long long lo,
		       unsigned long long hi, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (errno || end == s || *end || *s == '-' || v > (hi >> shift) ||
	    !pow2(v << shift) || (v << shift) < lo) {
		fprintf(stderr,
			"hipgrain run: %s '%s': want a power of two "
			"between %llu and %llu\n",
			opt, s, lo, hi);
		return -1;
	}
	*out = v << shift;
	return 0;
}

enum {
	OPT_FORCE = 256,
	OPT_LOSSLESS,
	OPT_NO_REPORT,
	OPT_SUBBUF,
	OPT_NUMSUB,
	OPT_RELAY,
	OPT_VGPU,
	OPT_NO_EXEC,
	OPT_FORCE_GPU,
};

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, OPT_FORCE},
    {"lossless", no_argument, NULL, OPT_LOSSLESS},
    {"no-report", no_argument, NULL, OPT_NO_REPORT},
    {"subbuf-size", required_argument, NULL, OPT_SUBBUF},
    {"num-subbuf", required_argument, NULL, OPT_NUMSUB},
    {"relay", required_argument, NULL, OPT_RELAY},
    {"virtual-gpu", required_argument, NULL, OPT_VGPU},
    {"no-exec", no_argument, NULL, OPT_NO_EXEC},
    {"force-gpu", no_argument, NULL, OPT_FORCE_GPU},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Each product as it is deployed, then what NAME:OPTION,... changes. */
static void list_variants(FILE *f)
{
	const struct vg_node *n;
	const char *opt, *means;

	fprintf(f, "\nAs deployed: ");
	for (size_t i = 0; (n = vg_node_at(i)) && n->gpus == 1; i++)
		fprintf(f, "%s%s %s", i ? ", " : "", n->name,
			n->gpu->apu ? "an APU" : n->cpu_xgmi ? "xGMI to its CPU"
							     : "PCIe with AtomicOps");
	fprintf(f, "; XNACK off (amdgpu's noretry).\n"
		   "Variants, NAME:OPTION[,OPTION...]:\n");
	for (size_t i = 0; (opt = vg_variant_option(i, &means)); i++)
		fprintf(f, "  %-16s %s\n", opt, means);
}

/* The products, then the machines built of them. */
static void list_profiles(FILE *f)
{
	const struct vg_node *n;

	fprintf(f, "%-9s %-8s %5s %5s %9s %5s  %s\n", "NAME", "TARGET", "CUs", "GPUs",
		"MEMORY", "RUNS", "PRODUCT");
	for (size_t i = 0; (n = vg_node_at(i)); i++) {
		const struct vg_profile *p = n->gpu;
		char mem[16] = "host";
		if (p->vram_bytes)
			snprintf(mem, sizeof(mem), "%lluGB",
				 (unsigned long long)(p->vram_bytes >> 30));
		fprintf(f, "%-9s %-8s %5u %5u %9s %5s  ", n->name, p->gfx, p->cu_count,
			n->gpus, mem, cli_known_mark(p));
		if (n->gpus > 1)
			fprintf(f, "%s: ", n->where);
		fprintf(f, "%s\n", p->product);
	}
	fprintf(f, "\nRUNS: whether the ROCm runtime here knows the GPU's target. ");
	cli_known_note(f);
	list_variants(f);
}

/* --virtual-gpu NAME[:OPTION,...]: the machine, with only the options
 * that change it, or why not on stderr. */
static int vgpu_option(const char *arg, struct trc_opts *o)
{
	static struct vg_node n;
	char why[160];

	if (!vg_node_parse(arg, &n, why, sizeof(why))) {
		o->virtual_gpu = n.spec;
		return 0;
	}
	fprintf(stderr, "hipgrain run: --virtual-gpu '%s': %s\n", arg, why);
	if (!strncmp(why, "no such GPU", 11)) {
		fprintf(stderr, "one of:\n");
		list_profiles(stderr);
	}
	return -1;
}

/* 0 to go on, else the exit status (-1: help was asked for, -2: the
 * list of virtual GPUs). */
static int parse(int argc, char **argv, struct trc_opts *o, bool *report)
{
	long page = sysconf(_SC_PAGESIZE);
	int c;

	/* '+': PROGRAM's own options are not ours even without "--". */
	while ((c = getopt_long(argc, argv, "+:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (trc_output_check(optarg) < 0)
				return CLI_EXIT_USAGE;
			o->output = optarg;
			break;
		case OPT_RELAY:
			if (!*optarg || strpbrk(optarg, "/ ")) {
				fprintf(stderr, "hipgrain run: --relay '%s': "
						"want HOST[:CTRL[:DATA]]\n",
					optarg);
				return CLI_EXIT_USAGE;
			}
			o->relay = optarg;
			break;
		case OPT_VGPU:
			if (!strcmp(optarg, "list"))
				return -2;
			if (vgpu_option(optarg, o) < 0)
				return CLI_EXIT_USAGE;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_LOSSLESS:
			o->lossless = true;
			break;
		case OPT_NO_REPORT:
			*report = false;
			break;
		case OPT_NO_EXEC:
			o->no_exec = true;
			break;
		case OPT_FORCE_GPU:
			o->force_gpu = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			return -1;
		case OPT_SUBBUF:
			if (parse_count("--subbuf-size", optarg,
					page > 0 ? (unsigned long long)page
						 : 4096,
					1ull << 32, &o->subbuf_size) < 0)
				return CLI_EXIT_USAGE;
			break;
		case OPT_NUMSUB:
			if (parse_count("--num-subbuf", optarg, 2, 1u << 20,
					&o->num_subbuf) < 0)
				return CLI_EXIT_USAGE;
			break;
		default:
			return cli_bad_option("run", argv, c);
		}
	}
	if (optind >= argc)
		return cli_missing("run", "PROGRAM",
				   "the program to trace, after '--'");
	return 0;
}

/*
 * Under a launcher every rank runs us: one line each, not one report each
 * interleaved on the terminal.  `hipgrain report` on the job's traces
 * merges the ranks.
 */
static void rank_line(const struct trc_opts *o, const struct trc_result *r)
{
	struct an_opts ao = {.inputs = (char *[]){(char *)r->dir},
			     .ninputs = 1};
	struct an_outcome res;
	char sum[4096 + sizeof("/" AN_SUMMARY_FILE)];
	FILE *null;

	if (r->relayed) {
		printf("hipgrain: rank %s on %s: trace streamed to lttng-relayd "
		       "at %s as session %s\n", r->rank, r->host, o->relay,
		       r->session);
		fflush(stdout);
		return;
	}
	/* The rank's trace judged here, into the summary a report of the
	 * job merges in its place; the line counts from it. */
	if (snprintf(sum, sizeof(sum), "%s/" AN_SUMMARY_FILE, r->dir) <
		    (int)sizeof(sum) &&
	    !an_summary_write(r->dir, sum, stderr))
		ao.inputs[0] = sum;
	null = fopen("/dev/null", "w");
	if (!null || an_report(&ao, null, stderr, &res)) {
		printf("hipgrain: rank %s on %s: no report (see above); trace "
		       "in %s\n", r->rank, r->host, r->dir);
	} else {
		printf("hipgrain: rank %s on %s: %u finding%s (%u error, %u "
		       "warning, %u note)%s; trace in %s\n",
		       r->rank, r->host, res.findings,
		       res.findings == 1 ? "" : "s", res.by_sev[AN_SEV_ERROR],
		       res.by_sev[AN_SEV_WARNING], res.by_sev[AN_SEV_NOTE],
		       res.partial ? ", partial" : "", r->dir);
	}
	if (null)
		fclose(null);
	fflush(stdout);
}

/* A virtual GPU the runtime here cannot drive is refused in one line
 * before anything runs; with --force-gpu it runs, the reason said first
 * and recorded for the report. */
static bool unknown_gpu(struct trc_opts *o)
{
	static char why[640];
	struct vg_node n;
	char err[160];

	if (!o->virtual_gpu || vg_node_parse(o->virtual_gpu, &n, err, sizeof(err)) ||
	    !cli_known_check(&n, why, sizeof(why)))
		return false;
	if (!o->force_gpu) {
		fprintf(stderr, "hipgrain run: virtual %s (%s) not run: %s; --force-gpu runs "
				"it anyway\n", n.spec, n.gpu->gfx, why);
		return true;
	}
	fprintf(stderr, "hipgrain run: virtual %s (%s): %s; run anyway (--force-gpu)\n",
		n.spec, n.gpu->gfx, why);
	o->vgpu_why = why;
	return false;
}

int cmd_run(int argc, char **argv)
{
	struct trc_opts o = {
	    .subbuf_size = TRC_DEFAULT_SUBBUF_SIZE,
	    .num_subbuf = TRC_DEFAULT_NUM_SUBBUF,
	};
	struct trc_result *r;
	bool report = true;
	int st = parse(argc, argv, &o, &report);

	if (st == -1) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (st == -2) {
		list_profiles(stdout);
		return CLI_EXIT_OK;
	}
	if (st)
		return st; /* parse() said what was wrong, in one line */
	if (unknown_gpu(&o))
		return TRC_EXIT_NOEXEC;
	r = malloc(sizeof(*r));
	if (!r) {
		fprintf(stderr, "hipgrain run: out of memory\n");
		return TRC_EXIT_INTERNAL;
	}
	o.rank_line = report;
	trc_run(&o, argv + optind, r);
	st = r->status;
	/* How the program ended, for every later report of this trace. */
	if (r->written && !r->relayed && r->pid &&
	    an_fate_write(r->dir, r->pid, r->wstatus) < 0)
		fprintf(stderr, "hipgrain run: cannot write %s/%s: how the "
				"program ended will not be in its report\n",
			r->dir, AN_FATE_FILE);
	if (r->written && report) {
		fflush(stderr);
		if (r->in_job) {
			rank_line(&o, r);
		} else if (!r->relayed) {
			optind = 0; /* the report parses its own options */
			cmd_report(2, (char *[]){"report", r->dir, NULL});
		}
	}
	free(r);
	return st;
}
