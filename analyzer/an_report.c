/* SPDX-License-Identifier: MIT */
/* an_report(): inputs → reader → replay → rules → a report. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "an_drv.h"
#include "an_gpus.h"
#include "an_inventory.h"
#include "hg_events.h"
#include "an_output.h"
#include "hg_env.h"
#include "an_inputs.h"
#include "an_jobs.h"
#include "an_judge.h"
#include "an_reader.h"
#include "an_replay.h"
#include "an_salvage.h"
#include "an_rule.h"
#include "an_timeline.h"

/* The text report, and the inventory after it when asked for. */
static void an_write_text_all(struct an_ctx *c, const struct an_groups *gs,
			      FILE *out)
{
	an_write_text(c, gs, out);
	if (c->opts->inventory)
		an_inventory_text(c, out);
}

static const struct an_writer {
	const char *name;
	void (*write)(struct an_ctx *c, const struct an_groups *gs, FILE *out);
} an_writers[] = {
#define AN_X(id, name, write) [AN_FMT_##id] = {name, write},
	AN_FORMAT_LIST(AN_X)
#undef AN_X
};

/* A format past the table is written as text, as the default is. */
static const struct an_writer *an_writer_of(enum an_format f)
{
	return &an_writers[(unsigned)f < sizeof(an_writers) / sizeof(*an_writers)
				   ? f
				   : AN_FMT_TEXT];
}

int an_format_parse(const char *s)
{
	for (unsigned i = 0; i < sizeof(an_writers) / sizeof(*an_writers); i++)
		if (!strcmp(s, an_writers[i].name))
			return (int)i;
	return -1;
}

/* How the program of each trace directory ended, as its run left it. */
static int an_collect_fates(const char *input, char **dirs, size_t from,
			    size_t n, struct an_fate **fates)
{
	struct an_fate *f = realloc(*fates, (n ? n : 1) * sizeof(**fates));

	if (!f)
		return -1;
	*fates = f;
	for (size_t i = from; i < n; i++)
		if (an_is_summary(dirs[i]))
			f[i] = (struct an_fate){0}; /* the summary has it */
		else
			an_fate_find(dirs[i], input, &f[i]);
	return 0;
}

static int an_collect(const struct an_opts *o, FILE *err, char ***dirs,
		      size_t *n, struct an_fate **fates)
{
	for (int i = 0; i < o->ninputs; i++) {
		size_t before = *n;
		/* The pictures need a timeline, which summaries lack: found
		 * ones are passed over for their traces. */
		bool pictures = o->format == AN_FMT_HTML ||
				o->format == AN_FMT_PERFETTO;
		int rc = an_find_inputs(o->inputs[i], !pictures, dirs, n);

		if (!rc && an_collect_fates(o->inputs[i], *dirs, before, *n,
					    fates))
			rc = -ENOMEM;
		/* Under MPI a node sees its own traces, not the others'. */
		if (o->mpi && rc != -ENOMEM)
			continue;
		if (rc) {
			fprintf(err, "hipgrain report: %s: %s\n", o->inputs[i],
				strerror(-rc));
			return -1;
		}
		if (*n == before) {
			fprintf(err, "hipgrain report: %s: no CTF trace here (no "
				     "'metadata' file in it or below it)\n",
				o->inputs[i]);
			return -1;
		}
	}
	return 0;
}

/* A finding already says what this kernel's atomics do to its memory. */
static bool an_kernel_judged(const struct an_ctx *c, const struct an_kernel *k)
{
	if (k->judged)
		return true;
	for (const struct an_finding *f = c->findings; f; f = f->all_next)
		if (f->kernel == k || (f->kernel && k->name && f->kernel->name &&
				       !strcmp(f->kernel->name, k->name)))
			return true;
	return false;
}

/* " at arraysum.hip:65" from codeobj's sites, "1@arraysum.hip:65;0". */
static void an_first_site(const char *sites, char *buf, size_t cap)
{
	const char *at = sites ? strchr(sites, '@') : NULL;

	buf[0] = '\0';
	if (at)
		snprintf(buf, cap, " at %.*s", (int)strcspn(at + 1, ";"), at + 1);
}

static void an_static_kernel(void *val, void *arg)
{
	const struct an_kernel *k = val;
	char site[160];

	if (!k->profiled || k->launched || k->status < 0 || !k->fp_ops ||
	    an_kernel_judged(arg, k))
		return;
	an_first_site(k->fp_sites, site, sizeof(site));
	an_warn(arg, "%s (%s) holds hardware FP atomics (%s%s) and no launch "
		     "of it ran on a GPU: on gfx908/gfx90a it must only get "
		     "coarse-grained memory",
		an_kernel_label(k), k->target, k->fp_mnemonics, site);
}

static void an_static_proc(void *val, void *arg)
{
	hg_map_each(&((struct an_proc *)val)->kernels, an_static_kernel, arg);
}

/* Processes whose driver would not open an SMI event file: the first one,
 * and how many. */
struct an_smi_gap {
	const struct an_proc *first;
	unsigned n;
};

static void an_smi_proc(void *val, void *arg)
{
	const struct an_proc *p = val;
	struct an_smi_gap *g = arg;

	if (!p->kfd || !p->kfd->smi_rc)
		return;
	if (!g->n++)
		g->first = p;
}

static void an_smi_note(struct an_ctx *c)
{
	struct an_smi_gap g = {0};
	char where[256], gpu[96];
	uint32_t id;

	hg_map_each(&c->procs, an_smi_proc, &g);
	if (!g.n)
		return;
	an_where(g.first, where, sizeof(where));
	id = g.first->kfd->smi_gpu;
	an_warn(c, "the driver's SMI events of %s could not be opened in "
		   "%s (%s)%s: page migrations, faults and evictions there "
		   "were not observed",
		an_gpu_name(g.first, id, an_kfd_gpu_slot(g.first, id), gpu,
			    sizeof(gpu)),
		where,
		strerror(-g.first->kfd->smi_rc),
		g.n > 1 ? " and other processes" : "");
}

static void an_trace_notes(struct an_ctx *c)
{
	/* Without a GPU nothing runs: the kernels' own facts still count. */
	hg_map_each(&c->procs, an_static_proc, c);
	an_smi_note(c);
	if (c->unknown_launches)
		an_warn(c, "%llu launches of kernels the trace never named: "
			   "their atomics were not checked",
			(unsigned long long)c->unknown_launches);
	if (c->gran_disagree)
		an_warn(c, "the runtime reported a granularity other than "
			   "the report's for %llu blocks; the report uses "
			   "what the driver was told where the trace shows "
			   "it, else hipgrain's model",
			(unsigned long long)c->gran_disagree);
}

static enum an_sev an_worst(const struct an_groups *gs)
{
	for (int s = AN_SEV_ERROR; s > AN_SEV_NONE; s--)
		if (gs->by_sev[s])
			return (enum an_sev)s;
	return AN_SEV_NONE;
}

static int an_write(struct an_ctx *c, FILE *out, struct an_outcome *res)
{
	struct an_groups gs;

	if (an_groups_build(c, &gs))
		return -1;
	an_writer_of(c->opts->format)->write(c, &gs, out);
	res->worst = an_worst(&gs);
	res->findings = (unsigned)gs.n;
	memcpy(res->by_sev, gs.by_sev, sizeof(res->by_sev));
	res->partial = c->partial || c->traces_failed;
	res->unjudged = an_unjudged(c);
	an_groups_free(&gs);
	return fflush(out) ? -1 : 0;
}

int an_report(const struct an_opts *o, FILE *out, FILE *err,
	      struct an_outcome *res)
{
	struct an_ctx *c = calloc(1, sizeof(*c));
	char **dirs = NULL;
	struct an_fate *fates = NULL;
	size_t n = 0;
	int rc = -1, judged;

	*res = (struct an_outcome){0};
	if (!c || an_collect(o, err, &dirs, &n, &fates))
		goto end;
	c->opts = o;
	if (an_groups_live_for(c) && !hg_env_get_ull(HG_ENV_GROUP_AT_OUTPUT, 0, 1) &&
	    !(c->live = calloc(1, sizeof(*c->live))))
		goto end;
	if (o->format == AN_FMT_HTML || o->format == AN_FMT_PERFETTO) {
		c->tl = calloc(1, sizeof(*c->tl));
		if (!c->tl)
			goto end;
	}
	judged = an_judge_all(c, dirs, n, fates, err);
	if (judged == 2) /* an MPI rank whose results rank 0 merges */
		rc = 0;
	if (judged)
		goto end;
	if (c->newest_schema > HG_TRACE_SCHEMA) {
		fprintf(err, "hipgrain report: trace schema %llu is newer than "
			     "this hipgrain reads (%d); upgrade hipgrain\n",
			(unsigned long long)c->newest_schema, HG_TRACE_SCHEMA);
		goto end;
	}
	if (!c->hg_events) {
		fprintf(err, "hipgrain report: no hipgrain event in %s: not a "
			     "hipgrain trace, or the traced program never "
			     "started\n",
			/* dirs[] may name a salvaged copy: the user's words */
			o->ninputs == 1 ? o->inputs[0] : "these traces");
		goto end;
	}
	an_replay_end(c);
	an_trace_notes(c);
	rc = an_write(c, out, res);
end:
	if (c) {
		an_tl_free_all(c->tl);
		if (c->live)
			an_groups_free(c->live);
		free(c->live);
		an_state_fini(c);
	}
	free(c);
	for (size_t i = 0; i < n; i++) {
		an_salvage_cleanup(dirs[i]);
		free(dirs[i]);
	}
	free(dirs);
	free(fates);
	return rc;
}
