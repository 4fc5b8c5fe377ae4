/* SPDX-License-Identifier: MIT */
/* The report for machines: one JSON object (see hipgrain-report(1)). */
#include <stdlib.h>
#include <string.h>

#include "an_atomic.h"
#include "an_gpus.h"
#include "an_inventory.h"
#include "an_leak_why.h"
#include "an_fmt.h"
#include "an_json.h"
#include "an_link.h"
#include "hg_path.h"
#include "an_names.h"
#include "hg_hiperr.h"
#include "an_output.h"
#include "an_rule.h"

/* "atomics": each atomic at risk at its own kernel line. */
static void an_json_atomics(FILE *out, const struct an_finding *f)
{
	const char *p = f->atomic_lines;
	struct an_aline e;

	if (!*p)
		return;
	fputs(",\"atomics\":[", out);
	for (bool first = true; an_atomic_line_next(&p, &e); first = false) {
		fputs(first ? "{\"op\":" : ",{\"op\":", out);
		if (e.op[0])
			hg_json_str(out, e.op);
		else
			fputs("null", out);
		fputs(",\"at\":", out);
		hg_json_str(out, e.at);
		fputc('}', out);
	}
	fputc(']', out);
}

static void an_json_alloc(FILE *out, const struct an_group *g)
{
	const struct an_alloc *a = &g->first->alloc;

	fputs(",\"allocation\":{\"api\":", out);
	hg_json_str(out, an_api_name(a->api));
	fprintf(out, ",\"size\":%llu,\"flags\":%u,\"granularity\":",
		(unsigned long long)a->size, a->flags);
	hg_json_str(out, an_gran_name(a->gran));
	fputs(",\"memory\":", out);
	hg_json_str(out, an_mem_name(a->mem));
	an_json_driver(out, a);
	an_json_site(out, g->frames, g->nframes);
	fputs(",\"callsite\":", out);
	an_json_frames(out, g->frames, g->nframes);
	fputc('}', out);
}

/* ,"call":{"api":"hipFree","site":{...},"callsite":[...]} */
static void an_json_call(FILE *out, const char *key, const struct an_call *c,
			 const struct an_place *pl)
{
	if (!c->api)
		return;
	fprintf(out, ",\"%s\":{\"api\":", key);
	hg_json_str(out, an_api_name(c->api));
	an_json_site(out, pl->frames, pl->nframes);
	fputs(",\"callsite\":", out);
	an_json_frames(out, pl->frames, pl->nframes);
	fputc('}', out);
}

static void an_json_group(FILE *out, const struct an_ctx *c,
			  const struct an_group *g)
{
	const struct an_finding *f = g->first;
	char where[256], seen[512];

	fputs("{\"rule\":", out);
	hg_json_str(out, f->rule->id);
	fputs(",\"severity\":", out);
	hg_json_str(out, an_sev_name(f->sev));
	fprintf(out, ",\"count\":%llu,\"message\":", (unsigned long long)g->count);
	hg_json_str(out, an_group_message(g));
	fputs(",\"fix\":", out);
	hg_json_str(out, an_rule_fix(f));
	if (f->kernel) {
		fputs(",\"kernel\":{\"name\":", out);
		hg_json_str(out, f->kernel->name);
		fputs(",\"demangled\":", out);
		hg_json_str(out, an_kernel_label(f->kernel));
		fputc('}', out);
	}
	an_json_call(out, "call", &f->call, &g->call);
	an_json_call(out, "freed_by", &f->freed, &g->freed);
	if (f->has_alloc)
		an_json_alloc(out, g);
	if (g->nalso) {
		fprintf(out, ",\"arguments\":[{\"index\":%d", g->arg);
		an_json_alloc(out, g);
		fputc('}', out);
		for (unsigned i = 0; i < g->nalso; i++) {
			fprintf(out, ",{\"index\":%d", g->also[i].arg);
			an_json_alloc(out, &g->also[i]);
			fputc('}', out);
		}
		fputc(']', out);
	}
	if (f->rule->fix_at) {
		char fix[1024];

		f->rule->fix_at(f, g->site, g->call.site, fix, sizeof(fix));
		fputs(",\"fix_at\":", out);
		if (fix[0])
			hg_json_str(out, fix);
		else
			fputs("null", out);
	}
	if (f->atomic_at[0]) {
		fputs(",\"atomic_at\":", out);
		hg_json_str(out, f->atomic_at);
	}
	an_json_atomics(out, f);
	if (f->race_at[0][0] || f->race_at[1][0]) {
		fputs(",\"race_at\":[", out);
		hg_json_str(out, f->race_at[0]);
		fputc(',', out);
		hg_json_str(out, f->race_at[1]);
		fputc(']', out);
	}
	if (an_observed_text(c, f, an_group_observed(g), seen, sizeof(seen))) {
		fprintf(out, ",\"observed\":{\"dropped\":%llu,\"text\":",
			(unsigned long long)an_group_observed(g));
		hg_json_str(out, seen);
		fputc('}', out);
	}
	an_where(f->proc, where, sizeof(where));
	fputs(",\"where\":{\"process\":", out);
	hg_json_str(out, where);
	fprintf(out, ",\"vpid\":%lld,\"processes\":%u,\"ranks\":[",
		(long long)f->proc->vpid, g->nprocs);
	for (unsigned i = 0; i < g->nranks; i++)
		fprintf(out, "%s%ld", i ? "," : "", g->ranks[i]);
	fputs("]}}", out);
}

static void an_json_summary(FILE *out, struct an_ctx *c,
			    const struct an_groups *gs)
{
	char buf[512];

	fprintf(out, "\"summary\":{\"findings\":%zu,\"errors\":%u,\"warnings\":%u,"
		     "\"notes\":%u,\"processes\":%u,\"events\":%llu,"
		     "\"hipgrain_events\":%llu,\"discarded_events\":%llu,"
		     "\"discarded_packets\":%llu,\"traces_read\":%u,"
		     "\"traces_failed\":%u,\"partial\":%s,",
		gs->n, gs->by_sev[AN_SEV_ERROR], gs->by_sev[AN_SEV_WARNING],
		gs->by_sev[AN_SEV_NOTE], an_nprocs(c),
		(unsigned long long)c->events, (unsigned long long)c->hg_events,
		(unsigned long long)c->discarded_events,
		(unsigned long long)c->discarded_packets, c->traces_read,
		c->traces_failed,
		c->partial || c->traces_failed ? "true" : "false");
	fputs("\"virtual_gpu\":", out);
	if (c->vgpu[0])
		hg_json_str(out, c->vgpu);
	else
		fputs("null", out);
	fprintf(out, ",\"virtual_gpu_executed\":%s", c->vgpu[0] && c->vgpu_exec ? "true" : "false");
	fprintf(out, ",\"virtual_gpu_launches\":{\"ran\":%llu,\"faulted\":%llu,"
		     "\"not_run\":%llu,\"unexplained_drops\":%llu}",
		(unsigned long long)c->exec.ran, (unsigned long long)c->exec.faulted,
		(unsigned long long)c->exec.not_run,
		(unsigned long long)c->exec.unexplained);
	fputs(",\"virtual_gpu_summary\":", out);
	if (an_exec_sentence(c, buf, sizeof(buf)))
		hg_json_str(out, buf);
	else
		fputs("null", out);
	fputs(",\"notice\":", out);
	if (an_notice(c, buf, sizeof(buf)))
		hg_json_str(out, buf);
	else
		fputs("null", out);
	fputs(",\"failed_calls\":[", out);
	for (const struct an_fail *f = c->fails; f; f = f->next) {
		an_fail_text(c, f, buf, sizeof(buf));
		fprintf(out, "%s{\"api\":", f == c->fails ? "" : ",");
		hg_json_str(out, an_api_name(f->api));
		fputs(",\"error\":", out);
		hg_json_str(out, hg_hip_error_name(f->rc));
		fprintf(out, ",\"code\":%d,\"count\":%llu,\"message\":", f->rc,
			(unsigned long long)f->count);
		hg_json_str(out, buf);
		fputc('}', out);
	}
	fputs("]}", out);
}

static void an_json_str_or_null(FILE *out, const char *s)
{
	if (s)
		hg_json_str(out, s);
	else
		fputs("null", out);
}

static const char *tri(enum an_tri t)
{
	return t == AN_TRI_YES ? "true" : t == AN_TRI_NO ? "false" : "null";
}

/* ,"judged":{...}: the machine facts its verdicts rest on, each with
 * where it came from ("trace", "virtual GPU", "assumed"). */
static void an_json_judged(FILE *out, const struct an_proc *p)
{
	static const char *const links[] = { "unknown", "pcie", "xgmi" };
	struct an_machine m;
	char text[256];

	an_link_facts(p, &m);
	fputs(",\"judged\":{\"text\":", out);
	hg_json_str(out, an_link_text(&m, text, sizeof(text)));
	fputs(",\"column\":", out);
	an_json_str_or_null(out, m.column ? an_column_name(m.column) : NULL);
	fputs(",\"product\":", out);
	an_json_str_or_null(out, m.product[0] ? m.product : NULL);
	fputs(",\"arch\":", out);
	an_json_str_or_null(out, m.arch[0] ? m.arch : NULL);
	fprintf(out, ",\"column_from\":\"%s\",\"cpu_link\":\"%s\",\"cpu_link_from\":\"%s\","
		     "\"pcie_atomics\":%s,\"pcie_atomics_from\":\"%s\",\"xnack\":%s,"
		     "\"xnack_from\":\"%s\",\"apu\":%s,\"apu_from\":\"%s\"",
		an_src_name(m.column_src), links[m.link], an_src_name(m.link_src),
		m.link == AN_LINK_XGMI ? "null" : tri(m.pcie_atomics),
		an_src_name(m.atomics_src), tri(m.xnack), an_src_name(m.xnack_src),
		tri(m.apu), an_src_name(m.apu_src));
	if (p->kfd_major)
		fprintf(out, ",\"kfd_version\":\"%u.%u\"", p->kfd_major, p->kfd_minor);
	else
		fputs(",\"kfd_version\":null", out);
	fputs(",\"driver\":", out);
	an_json_str_or_null(out, p->driver[0] ? p->driver : NULL);
	fputc('}', out);
}

/* ,"gpu":{"arch","name","virtual","executed","usable","judged"}: the process's own,
 * null when the trace does not say. */
static void an_json_gpu(FILE *out, const struct an_proc *p)
{
	fputs(",\"gpu\":", out);
	if (!p->have_device && !p->no_gpu && !p->vgpu[0] && !p->ntopo) {
		fputs("null", out);
		return;
	}
	fputs("{\"arch\":", out);
	an_json_str_or_null(out, p->have_device ? p->arch : NULL);
	fputs(",\"name\":", out);
	an_json_str_or_null(out, p->have_device && p->dev_name[0] ? p->dev_name
								: NULL);
	fputs(",\"virtual\":", out);
	an_json_str_or_null(out, p->vgpu[0] ? p->vgpu : NULL);
	fprintf(out, ",\"executed\":%s,\"usable\":%s",
		p->vgpu[0] && p->vgpu_exec ? "true" : "false",
		p->have_device || !p->no_gpu ? "true" : "false");
	an_json_judged(out, p);
	fputc('}', out);
}

/* Every process, with how it ended where `hipgrain run` saw it. */
static void an_json_procs(FILE *out, const struct an_ctx *c)
{
	struct an_proc **v;
	size_t n = an_procs_sorted(c, &v);

	fputs(",\"processes\":[", out);
	for (size_t i = 0; i < n; i++) {
		const struct an_fate *f = &v[i]->fate;
		char where[256], sig[32];

		an_where(v[i], where, sizeof(where));
		fprintf(out, "%s{\"process\":", i ? "," : "");
		hg_json_str(out, where);
		fprintf(out, ",\"vpid\":%lld,\"ended\":", (long long)v[i]->vpid);
		if (!f->known)
			fputs("null,\"exit_status\":null,\"signal\":null,"
			      "\"core_dumped\":null", out);
		else if (f->signaled) {
			fputs("\"signal\",\"exit_status\":null,\"signal\":", out);
			hg_json_str(out, an_fate_signal(f, sig, sizeof(sig)));
			fprintf(out, ",\"core_dumped\":%s",
				f->core ? "true" : "false");
		} else
			fprintf(out, "\"exit\",\"exit_status\":%d,\"signal\":"
				     "null,\"core_dumped\":false", f->code);
		fprintf(out, ",\"leaks_judged\":%s",
			an_leak_withheld(c, v[i]) ? "false" : "true");
		an_json_gpu(out, v[i]);
		fputc('}', out);
	}
	fputc(']', out);
	free(v);
}

void an_write_json(struct an_ctx *c, const struct an_groups *gs, FILE *out)
{
	fputs("{\"findings\":[", out);
	for (size_t i = 0; i < gs->n; i++) {
		if (i)
			fputc(',', out);
		an_json_group(out, c, &gs->g[i]);
	}
	fputs("],", out);
	an_json_summary(out, c, gs);
	an_json_procs(out, c);
	fputs(",\"warnings\":[", out);
	for (size_t i = 0; i < c->nwarnings; i++) {
		if (i)
			fputc(',', out);
		hg_json_str(out, c->warnings[i]);
	}
	fputc(']', out);
	if (c->opts->inventory) {
		fputs(",\"inventory\":", out);
		an_inventory_json(c, out);
	}
	fputs("}\n", out);
}
