/* SPDX-License-Identifier: MIT */
/* The report for people: like a compiler's diagnostics, grouped by rule. */
#include <stdlib.h>
#include <string.h>

#include "an_drv.h"
#include "an_gpus.h"
#include "an_names.h"
#include "an_output.h"
#include "an_rule.h"

struct an_tty {
	FILE *out;
	bool color;
	const struct an_ctx *c;
};

static const char *an_col(const struct an_tty *t, const char *code)
{
	return t->color ? code : "";
}

static const char *an_sev_color(enum an_sev s)
{
	return s == AN_SEV_ERROR ? "\033[1;31m"
	       : s == AN_SEV_WARNING ? "\033[1;33m" : "\033[1;36m";
}

/* "    driver: coarse-grained (vram), GPU 3 (MI250X, card 1's second GCD)" */
static void an_text_driver(const struct an_tty *t, const struct an_proc *p,
			   const struct an_drv *d)
{
	char why[128], gpu[96];

	fprintf(t->out, "    driver: %s-grained (%s)", an_gran_name(d->gran),
		an_drv_why(d, why, sizeof(why)));
	if (d->has_node && d->node)
		fprintf(t->out, ", %s",
			an_gpu_name(p, d->node, d->gpu, gpu, sizeof(gpu)));
	else if (d->has_node)
		fputs(", system memory", t->out);
	fputc('\n', t->out);
}

static void an_text_alloc(const struct an_tty *t, const struct an_group *g,
			  bool numbered)
{
	const struct an_alloc *a = &g->first->alloc;
	char site[1024], label[32] = "allocation";

	if (numbered)
		snprintf(label, sizeof(label), "argument %d", g->arg);
	fprintf(t->out, "    %s: %s, %llu bytes, %s-grained %s memory", label,
		an_api_name(a->api), (unsigned long long)a->size,
		an_gran_name(a->gran), an_mem_name(a->mem));
	an_site_text(g->frames, g->nframes, site, sizeof(site));
	if (site[0])
		fprintf(t->out, ", at %s", site);
	else if (a->callsite)
		fprintf(t->out, ", call site #%llu (no symbols)",
			(unsigned long long)a->callsite);
	fputc('\n', t->out);
	if (a->drv.gran)
		an_text_driver(t, g->first->proc, &a->drv);
}

/* "    call: hipFree at app.hip:42 (main)": the call a finding is about,
 * and the free before it. */
static void an_text_call(const struct an_tty *t, const char *label,
			 const struct an_call *c, const struct an_place *pl)
{
	if (!c->api)
		return;
	fprintf(t->out, "    %s: %s", label, an_api_name(c->api));
	if (pl->site[0])
		fprintf(t->out, " at %s", pl->site);
	else if (c->callsite)
		fprintf(t->out, ", call site #%llu (no symbols)",
			(unsigned long long)c->callsite);
	fputc('\n', t->out);
}

/* True when it printed a fix of its own, written for the finding's front
 * end and call site. */
static bool an_text_group(const struct an_tty *t, const struct an_group *g)
{
	const struct an_finding *f = g->first;
	char where[256];
	bool fixed = false;
	char seen[512];

	fprintf(t->out, "  %s×%llu%s %s\n", an_col(t, "\033[1m"),
		(unsigned long long)g->count, an_col(t, "\033[0m"),
		an_group_message(g) ? an_group_message(g) : "");
	an_text_call(t, "call", &f->call, &g->call);
	an_text_call(t, "freed", &f->freed, &g->freed);
	if (an_observed_text(t->c, f, an_group_observed(g), seen, sizeof(seen)))
		fprintf(t->out, "    observed: %s\n", seen);
	if (f->kernel)
		fprintf(t->out, "    kernel: %s\n", an_kernel_label(f->kernel));
	if (f->has_alloc)
		an_text_alloc(t, g, g->nalso > 0);
	for (unsigned i = 0; i < g->nalso; i++)
		an_text_alloc(t, &g->also[i], true);
	if (f->rule->fix_at) {
		char fix[1024];

		f->rule->fix_at(f, g->site, g->call.site, fix, sizeof(fix));
		if (fix[0])
			fprintf(t->out, "    fix: %s\n", fix);
		fixed = fix[0] != '\0';
	}
	an_where(f->proc, where, sizeof(where));
	if (g->nranks > 1) {
		char ranks[256];

		an_ranks_text(g, ranks, sizeof(ranks));
		fprintf(t->out, "    ranks: ×%u (%s)\n", g->nranks, ranks);
		fprintf(t->out, "    where: %s (one example)", where);
	} else {
		fprintf(t->out, "    where: %s", where);
		if (g->nprocs > 1)
			fprintf(t->out, " and %u other process%s",
				g->nprocs - 1, g->nprocs == 2 ? "" : "es");
	}
	fputc('\n', t->out);
	return fixed;
}

/* The general fix of a rule's block, in the words of the front ends whose
 * findings had none of their own. */
static void an_text_rule_fix(const struct an_tty *t, const struct an_rule *r,
			     bool hip, bool omp)
{
	if (!r->fix_omp) {
		if (hip || omp)
			fprintf(t->out, "  fix: %s\n", r->fix);
		return;
	}
	if (hip && omp) {
		fprintf(t->out, "  fix (HIP): %s\n", r->fix);
		fprintf(t->out, "  fix (OpenMP): %s\n", r->fix_omp);
	} else if (hip || omp) {
		fprintf(t->out, "  fix: %s\n", omp ? r->fix_omp : r->fix);
	}
}

/* The rule's general fix only where no finding of it had its own: one fix
 * a finding, never a HIP and an OpenMP one side by side. */
static void an_text_findings(const struct an_tty *t, const struct an_groups *gs)
{
	const struct an_rule *cur = NULL;
	enum an_sev sev = AN_SEV_NONE;
	bool hip = false, omp = false; /* findings of the block with no fix */

	for (size_t i = 0; i < gs->n; i++) {
		const struct an_finding *f = gs->g[i].first;

		if (f->rule != cur || f->sev != sev) {
			if (cur)
				an_text_rule_fix(t, cur, hip, omp);
			cur = f->rule;
			sev = f->sev;
			hip = omp = false;
			fprintf(t->out, "\n%s%s%s[%s]: %s\n", an_col(t, an_sev_color(sev)),
				an_sev_name(sev), an_col(t, "\033[0m"), cur->id,
				cur->summary);
		}
		if (!an_text_group(t, &gs->g[i])) {
			if (an_finding_is_omp(f))
				omp = true;
			else
				hip = true;
		}
	}
	if (cur)
		an_text_rule_fix(t, cur, hip, omp);
}

/* How each process `hipgrain run` waited for ended, one line per fate:
 * "app[12]: killed by SIGSEGV (...), core dumped; ...". */
static void an_text_fates(const struct an_tty *t, const struct an_ctx *c)
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v);
	char *done = calloc(n ? n : 1, 1);

	for (size_t i = 0; done && i < n; i++) {
		char fate[160], other[160], where[256];
		unsigned same = 0;

		if (!v[i]->fate.known || done[i])
			continue;
		an_fate_text(&v[i]->fate, fate, sizeof(fate));
		for (size_t j = i + 1; j < n; j++)
			if (v[j]->fate.known && !done[j] &&
			    !strcmp(fate, an_fate_text(&v[j]->fate, other,
						       sizeof(other)))) {
				done[j] = 1;
				same++;
			}
		an_where(v[i], where, sizeof(where));
		fprintf(t->out, "%s%s", an_fate_normal(&v[i]->fate) ? ""
					: an_col(t, "\033[1;33m"), where);
		if (same)
			fprintf(t->out, " and %u other process%s", same,
				same == 1 ? "" : "es");
		fprintf(t->out, ": %s%s\n", fate,
			an_fate_normal(&v[i]->fate) ? ""
						    : an_col(t, "\033[0m"));
	}
	free(done);
	free(v);
}

/* A report over runs on different GPUs: each process's, one line per GPU
 * ("app[12] and 9 other processes: virtual MI300X: ..."). */
static void an_text_gpus(const struct an_tty *t, const struct an_ctx *c)
{
	struct an_gpu_line *l;
	size_t n = an_gpu_lines(c, &l);

	for (size_t i = 0; i < n; i++) {
		char where[256];

		an_where(l[i].first, where, sizeof(where));
		fprintf(t->out, "%s%s", an_col(t, "\033[1;33m"), where);
		if (l[i].others)
			fprintf(t->out, " and %u other process%s", l[i].others,
				l[i].others == 1 ? "" : "es");
		fprintf(t->out, ": %s%s\n", l[i].text, an_col(t, "\033[0m"));
	}
	free(l);
}

/* What the verdicts rest on: one line per machine, its processes named
 * only when there are several. */
static void an_text_judged(const struct an_tty *t, const struct an_ctx *c)
{
	struct an_gpu_line *l;
	size_t n = an_judged_lines(c, &l);

	for (size_t i = 0; i < n; i++) {
		char where[256] = "";

		if (n > 1)
			an_where(l[i].first, where, sizeof(where));
		fprintf(t->out, "%s%s%s%s\n", where, n > 1 ? ": " : "",
			l[i].text, l[i].others && n > 1 ? " (and others)" : "");
	}
	free(l);
}

static void an_text_header(const struct an_tty *t, struct an_ctx *c,
			   const struct an_groups *gs)
{
	char line[640];

	if (an_gpus_mixed(c))
		an_text_gpus(t, c);
	else if (an_exec_sentence(c, line, sizeof(line)))
		fprintf(t->out, "%s%s%s\n", an_col(t, "\033[1;33m"), line,
			an_col(t, "\033[0m"));
	char notice[512];

	if (an_notice(c, notice, sizeof(notice)))
		fprintf(t->out, "%s%s%s\n", an_col(t, "\033[1;33m"), notice,
			an_col(t, "\033[0m"));
	an_text_judged(t, c);
	fprintf(t->out, "hipgrain report: %zu finding%s (%u error, %u warning, "
			"%u note) in %u process%s; %llu events read\n",
		gs->n, gs->n == 1 ? "" : "s", gs->by_sev[AN_SEV_ERROR],
		gs->by_sev[AN_SEV_WARNING], gs->by_sev[AN_SEV_NOTE], an_nprocs(c),
		an_nprocs(c) == 1 ? "" : "es", (unsigned long long)c->events);
	an_text_fates(t, c);
	if (c->discarded_events || c->discarded_packets)
		fprintf(t->out, "%sincomplete trace:%s %llu events and %llu packets "
				"were discarded while tracing; findings may be "
				"missing and leaks are not reported\n",
			an_col(t, "\033[1;33m"), an_col(t, "\033[0m"),
			(unsigned long long)c->discarded_events,
			(unsigned long long)c->discarded_packets);
	if (c->partial || c->traces_failed)
		fprintf(t->out, "%spartial report:%s %s\n", an_col(t, "\033[1;33m"),
			an_col(t, "\033[0m"),
			c->partial ? "a trace could not be read to its end"
				   : "some traces could not be read");
	an_withheld_text(c, t->out, an_col(t, "\033[1;33m"),
			 an_col(t, "\033[0m"));
}

static void an_text_tail(const struct an_tty *t, struct an_ctx *c)
{
	char buf[512];

	if (c->fails)
		fprintf(t->out, "\nfailed runtime calls:\n");
	for (const struct an_fail *f = c->fails; f; f = f->next) {
		an_fail_text(c, f, buf, sizeof(buf));
		fprintf(t->out, "  %s\n", buf);
	}
	if (c->nwarnings)
		fprintf(t->out, "\nnotes on the trace:\n");
	for (size_t i = 0; i < c->nwarnings; i++)
		fprintf(t->out, "  %s\n", c->warnings[i]);
}

void an_write_text(struct an_ctx *c, const struct an_groups *gs, FILE *out)
{
	struct an_tty t = {out, c->opts->color, c};

	an_text_header(&t, c, gs);
	an_text_findings(&t, gs);
	an_text_tail(&t, c);
}
