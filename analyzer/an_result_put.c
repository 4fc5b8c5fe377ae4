/* SPDX-License-Identifier: MIT */
/* A trace's result written (an_result.h): counters, processes, findings. */
#include <stdlib.h>
#include <string.h>

#include "an_drv.h"
#include "an_output.h"
#include "an_result.h"
#include "an_rule.h"

static void an_put_counters(struct an_wbuf *b, const struct an_ctx *t)
{
	an_w_u64(b, t->events);
	an_w_u64(b, t->hg_events);
	an_w_u64(b, t->discarded_events);
	an_w_u64(b, t->discarded_packets);
	an_w_u64(b, t->newest_schema);
	an_w_u64(b, t->gran_disagree);
	an_w_u64(b, t->unknown_launches);
	an_w_u64(b, AN_WARN_CODES);
	for (unsigned i = 0; i < AN_WARN_CODES; i++)
		an_w_u64(b, t->hg_warn[i]);
	an_w_u64(b, t->no_gpu);
	an_w_u64(b, t->traces_read);
	an_w_u64(b, t->traces_failed);
	an_w_u64(b, t->partial);
	an_w_u64(b, t->nwarnings);
	for (size_t i = 0; i < t->nwarnings; i++)
		an_w_str(b, t->warnings[i]);
}

static void an_put_kernel(void *val, void *arg)
{
	const struct an_kernel *k = val;
	struct an_wbuf *b = arg;

	an_w_u64(b, k->handle);
	an_w_str(b, k->name);
	an_w_str(b, k->demangled);
	an_w_str(b, k->target);
	an_w_str(b, k->fp_mnemonics);
	an_w_str(b, k->int_mnemonics);
	an_w_str(b, k->fp_sites);
	an_w_str(b, k->int_sites);
	an_w_str(b, k->sys_sites);
	an_w_i64(b, k->status);
	an_w_u64(b, k->fp_ops);
	an_w_u64(b, k->int_ops);
	an_w_u64(b, k->cas_count);
	an_w_u64(b, k->xnack);
	an_w_u64(b, k->profiled);
	an_w_u64(b, k->launched);
}

static void an_put_callsite(void *val, void *arg)
{
	const struct an_callsite *cs = val;
	struct an_wbuf *b = arg;

	an_w_u64(b, cs->id);
	an_w_u64(b, cs->n);
	for (unsigned i = 0; i < cs->n; i++)
		an_w_u64(b, cs->frames[i]);
}

static void an_put_kfd(struct an_wbuf *b, const struct an_kfd *k)
{
	an_w_u64(b, k != NULL);
	if (!k)
		return;
	an_w_i64(b, k->smi_rc);
	an_w_u64(b, k->smi_gpu);
	an_w_u64(b, k->ngpus);
	for (unsigned i = 0; i < k->ngpus && i < AN_KFD_GPUS; i++)
		an_w_u64(b, k->gpu_ids[i]);
}

static void an_put_names(struct an_wbuf *b, const struct an_proc *p)
{
	an_w_str(b, p->procname);
	an_w_str(b, p->host);
	an_w_str(b, p->rank);
	an_w_str(b, p->gpus);
	an_w_str(b, p->xnack_env);
	an_w_str(b, p->arch);
	an_w_str(b, p->dev_name);
	an_w_str(b, p->vgpu);
	an_w_str(b, p->co_targets);
	an_w_str(b, p->obs_kernel);
	an_w_str(b, p->vgpu_why ? p->vgpu_why : "");
}

/* What the driver's topology said (kfd_node): the report's judged-for
 * lines read it after the merge. */
static void an_put_topo(struct an_wbuf *b, const struct an_proc *p)
{
	an_w_u64(b, p->ntopo);
	for (unsigned i = 0; i < p->ntopo && i < AN_TOPO_GPUS; i++) {
		const struct an_topo_gpu *g = &p->topo[i];
		uint64_t v[] = {g->hive, g->gpu_id, g->target, g->device_id,
				g->cap, g->link_type, g->link_flags};
		for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++)
			an_w_u64(b, v[j]);
	}
	an_w_u64(b, p->kfd_major);
	an_w_u64(b, p->kfd_minor);
	an_w_str(b, p->driver);
}

static void an_put_proc(struct an_wbuf *b, const struct an_proc *p)
{
	an_w_i64(b, p->vpid);
	an_w_u64(b, p->image);
	an_put_names(b, p);
	uint8_t small[] = {p->vgpu_exec, p->no_gpu, p->dev_xnack, p->kfd_xnack,
			   p->co_xnack, p->xnack_reported, p->have_device,
			   p->omp_offload, p->discarded, p->fate.known,
			   p->fate.signaled, p->fate.core, p->exited};
	an_w_bytes(b, small, sizeof(small));
	an_w_i64(b, p->fate.pid);
	an_w_i64(b, p->fate.code);
	an_w_u64(b, p->schema);
	an_put_topo(b, p);
	an_w_u64(b, p->omp_requires);
	an_w_u64(b, p->obs_kd);
	an_put_kfd(b, p->kfd);
	an_w_u64(b, p->nbins);
	for (size_t i = 0; i < p->nbins; i++) {
		an_w_u64(b, p->bins[i].baddr);
		an_w_u64(b, p->bins[i].memsz);
		an_w_str(b, p->bins[i].path);
		an_w_u64(b, p->bins[i].is_pic);
	}
	an_w_u64(b, p->kernels.live);
	hg_map_each(&p->kernels, an_put_kernel, b);
	an_w_u64(b, p->callsites.live);
	hg_map_each(&p->callsites, an_put_callsite, b);
}

static void an_put_call(struct an_wbuf *b, const struct an_call *x)
{
	an_w_u64(b, x->callsite);
	an_w_u64(b, x->api);
}

static void an_put_finding(struct an_put *w, const struct an_finding *f)
{
	struct an_wbuf *b = w->b;
	/* A finding's kernel is one of its process's. */
	bool own = f->kernel && f->proc &&
		   hg_map_get(&f->proc->kernels, f->kernel->handle) == f->kernel;

	an_w_str(b, f->rule->id);
	an_w_u64(b, f->sev);
	an_w_u64(b, an_put_proc_ref(w, f->proc));
	an_w_u64(b, own);
	if (own)
		an_w_u64(b, f->kernel->handle);
	an_w_u64(b, f->has_alloc);
	if (f->has_alloc)
		an_put_alloc(b, &f->alloc);
	an_w_u64(b, f->nprocs);
	an_w_u64(b, f->count);
	an_w_u64(b, f->first_ns);
	an_w_i64(b, f->first_tid);
	an_w_str(b, f->message);
	an_w_str(b, f->atomic_at);
	an_w_str(b, f->atomic_lines);
	an_put_call(b, &f->call);
	an_put_call(b, &f->freed);
	an_w_u64(b, f->arg);
	an_w_u64(b, f->observed);
	an_w_str(b, f->observed_op);
}

static void an_put_lists(struct an_put *w, const struct an_ctx *t)
{
	size_t n = 0;

	for (const struct an_finding *f = t->findings; f; f = f->all_next)
		n++;
	an_w_u64(w->b, n);
	for (const struct an_finding *f = t->findings; f; f = f->all_next)
		an_put_finding(w, f);
	n = 0;
	for (const struct an_fail *f = t->fails; f; f = f->next)
		n++;
	an_w_u64(w->b, n);
	for (const struct an_fail *f = t->fails; f; f = f->next) {
		an_w_u64(w->b, f->api);
		an_w_i64(w->b, f->rc);
		an_w_u64(w->b, f->count);
		an_w_u64(w->b, an_put_proc_ref(w, f->proc));
		an_w_u64(w->b, f->no_gpu);
	}
}

void an_result_put(struct an_wbuf *b, const struct an_ctx *t, int rc,
		   const char *msgs)
{
	struct an_put w = {.b = b};
	struct an_proc **v;
	/* Sorted, not in the map's order: that follows addresses. */
	size_t n = an_procs_sorted(t, &v);

	an_w_bytes(b, AN_RESULT_MAGIC, strlen(AN_RESULT_MAGIC));
	an_w_u64(b, AN_RESULT_VERSION);
	an_w_i64(b, rc);
	an_w_str(b, msgs);
	an_put_counters(b, t);
	an_w_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		if (hg_map_put(&w.idx, (uintptr_t)v[i], (void *)(uintptr_t)(i + 1)))
			b->failed = true;
		an_put_proc(b, v[i]);
	}
	free(v);
	an_put_lists(&w, t);
	an_put_more(&w, t);
	an_put_tl(&w, t->tl);
	hg_map_fini(&w.idx);
}
