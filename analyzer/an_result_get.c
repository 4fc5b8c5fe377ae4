/* SPDX-License-Identifier: MIT */
/*
 * A trace's result merged (an_result.h): its processes join the report's
 * under keys of their own, its findings and failed calls go before those
 * already there (the lists run newest first), its notes are said once.
 */
#include <stdlib.h>
#include <string.h>

#include "an_drv.h"
#include "an_result.h"
#include "an_rule.h"

void an_get_counters(struct an_get *g, struct an_ctx *c)
{
	struct an_rbuf *r = &g->r;
	uint64_t schema, codes;

	c->events += an_r_u64(r);
	c->hg_events += an_r_u64(r);
	c->discarded_events += an_r_u64(r);
	c->discarded_packets += an_r_u64(r);
	schema = an_r_u64(r);
	c->newest_schema = schema > c->newest_schema ? schema : c->newest_schema;
	c->gran_disagree += an_r_u64(r);
	c->unknown_launches += an_r_u64(r);
	codes = an_r_below(r, 1024);
	for (uint64_t i = 0; i < codes && !r->bad; i++) {
		uint64_t v = an_r_u64(r);

		if (i < AN_WARN_CODES)
			c->hg_warn[i] += v;
	}
	c->no_gpu |= an_r_u64(r) != 0;
	c->traces_read += (unsigned)an_r_u64(r);
	c->traces_failed += (unsigned)an_r_u64(r);
	c->partial |= an_r_u64(r) != 0;
	for (uint64_t n = an_r_u64(r); n && !r->bad; n--) {
		char *w = an_r_str(r);

		if (w)
			an_warn(c, "%s", w);
		free(w);
	}
}

static void an_get_names(struct an_rbuf *r, struct an_proc *p)
{
	char why[AN_WHY_MAX];

	an_r_chars(r, p->procname, sizeof(p->procname));
	an_r_chars(r, p->host, sizeof(p->host));
	an_r_chars(r, p->rank, sizeof(p->rank));
	an_r_chars(r, p->gpus, sizeof(p->gpus));
	an_r_chars(r, p->xnack_env, sizeof(p->xnack_env));
	an_r_chars(r, p->arch, sizeof(p->arch));
	an_r_chars(r, p->dev_name, sizeof(p->dev_name));
	an_r_chars(r, p->vgpu, sizeof(p->vgpu));
	an_r_chars(r, p->co_targets, sizeof(p->co_targets));
	an_r_chars(r, p->obs_kernel, sizeof(p->obs_kernel));
	an_r_chars(r, why, sizeof(why));
	an_set_why(p, why);
}

static void an_get_kernel(struct an_rbuf *r, struct an_proc *p)
{
	uint64_t handle = an_r_u64(r);
	/* Twice the same handle is damage. */
	struct an_kernel *k = hg_map_get(&p->kernels, handle)
				      ? NULL
				      : an_kernel_get(p, handle, true);

	if (!k) {
		r->bad = true;
		return;
	}
	k->name = an_r_str(r);
	k->demangled = an_r_str(r);
	k->target = an_r_str(r);
	k->fp_mnemonics = an_r_str(r);
	k->int_mnemonics = an_r_str(r);
	k->fp_sites = an_r_str(r);
	k->int_sites = an_r_str(r);
	k->sys_sites = an_r_str(r);
	k->status = (int32_t)an_r_i64(r);
	k->fp_ops = (uint32_t)an_r_u64(r);
	k->int_ops = (uint32_t)an_r_u64(r);
	k->cas_count = (uint32_t)an_r_u64(r);
	k->xnack = (uint8_t)an_r_u64(r);
	k->profiled = an_r_u64(r) != 0;
	k->launched = an_r_u64(r) != 0;
}

static void an_get_callsite(struct an_rbuf *r, struct an_proc *p)
{
	uint64_t id = an_r_u64(r);
	uint64_t n = an_r_below(r, UINT16_MAX + 1);
	struct an_callsite *cs;

	if (r->bad || n > (uint64_t)(r->end - r->p))
		goto bad;
	cs = malloc(sizeof(*cs) + n * sizeof(cs->frames[0]));
	if (!cs)
		goto bad;
	cs->id = id;
	cs->n = (uint16_t)n;
	for (uint64_t i = 0; i < n; i++)
		cs->frames[i] = an_r_u64(r);
	if (!hg_map_get(&p->callsites, id) && !hg_map_put(&p->callsites, id, cs))
		return;
	free(cs);
bad:
	r->bad = true;
}

static void an_get_kfd(struct an_rbuf *r, struct an_proc *p)
{
	struct an_kfd *k;

	if (!an_r_u64(r))
		return;
	k = an_kfd_of(p);
	if (!k) {
		r->bad = true;
		return;
	}
	k->smi_rc = (int32_t)an_r_i64(r);
	k->smi_gpu = (uint32_t)an_r_u64(r);
	k->ngpus = (unsigned)an_r_below(r, AN_KFD_GPUS + 1);
	for (unsigned i = 0; i < k->ngpus && !r->bad; i++)
		k->gpu_ids[i] = (uint32_t)an_r_u64(r);
}

static void an_get_bins(struct an_rbuf *r, struct an_proc *p)
{
	uint64_t n = an_r_below(r, (uint64_t)(r->end - r->p) + 1);

	p->bins = n ? calloc((size_t)n, sizeof(*p->bins)) : NULL;
	if (n && !p->bins) {
		r->bad = true;
		return;
	}
	for (uint64_t i = 0; i < n && !r->bad; i++, p->nbins++) {
		p->bins[i].baddr = an_r_u64(r);
		p->bins[i].memsz = an_r_u64(r);
		p->bins[i].path = an_r_str(r);
		p->bins[i].is_pic = an_r_u64(r) != 0;
	}
}

static void an_get_topo(struct an_rbuf *r, struct an_proc *p)
{
	p->ntopo = (uint8_t)an_r_below(r, AN_TOPO_GPUS + 1);
	for (unsigned i = 0; i < p->ntopo && !r->bad; i++) {
		struct an_topo_gpu *g = &p->topo[i];
		g->hive = an_r_u64(r);
		g->gpu_id = (uint32_t)an_r_u64(r);
		g->target = (uint32_t)an_r_u64(r);
		g->device_id = (uint32_t)an_r_u64(r);
		g->cap = (uint32_t)an_r_u64(r);
		g->link_type = (uint32_t)an_r_u64(r);
		g->link_flags = (uint32_t)an_r_u64(r);
	}
	p->kfd_major = (uint32_t)an_r_u64(r);
	p->kfd_minor = (uint32_t)an_r_u64(r);
	an_r_chars(r, p->driver, sizeof(p->driver));
}

static void an_get_proc(struct an_rbuf *r, struct an_proc *p)
{
	const uint8_t *s;

	p->vpid = an_r_i64(r);
	p->image = (unsigned)an_r_u64(r);
	an_get_names(r, p);
	s = an_r_bytes(r, 13);
	if (!s)
		return;
	p->vgpu_exec = s[0], p->no_gpu = s[1], p->dev_xnack = s[2];
	p->kfd_xnack = s[3], p->co_xnack = s[4], p->xnack_reported = s[5];
	p->have_device = s[6], p->omp_offload = s[7], p->discarded = s[8];
	p->fate.known = s[9], p->fate.signaled = s[10], p->fate.core = s[11];
	p->exited = s[12];
	p->fate.pid = (int)an_r_i64(r);
	p->fate.code = (int)an_r_i64(r);
	p->schema = (uint16_t)an_r_below(r, UINT16_MAX + 1);
	an_get_topo(r, p);
	p->omp_requires = an_r_u64(r);
	p->obs_kd = an_r_u64(r);
	an_get_kfd(r, p);
	an_get_bins(r, p);
	for (uint64_t n = an_r_u64(r); n && !r->bad; n--)
		an_get_kernel(r, p);
	for (uint64_t n = an_r_u64(r); n && !r->bad; n--)
		an_get_callsite(r, p);
}

/* splitmix64: a bijection, so distinct (result, index) pairs never share
 * a key, and the keys do not depend on where anything was in memory. */
static uint64_t an_proc_key(uint64_t seq, uint64_t i)
{
	uint64_t z = (seq << 24 | i) + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int an_get_procs(struct an_get *g, struct an_ctx *c)
{
	uint64_t n = an_r_below(&g->r, (uint64_t)(g->r.end - g->r.p) + 1);

	c->epoch++;
	g->procs = n ? calloc((size_t)n, sizeof(*g->procs)) : NULL;
	if (n && !g->procs)
		return -1;
	for (uint64_t i = 0; i < n && !g->r.bad; i++) {
		struct an_proc *p = calloc(1, sizeof(*p));

		if (!p)
			return -1;
		p->key = an_proc_key(c->epoch, i);
		p->epoch = c->epoch;
		if (hg_map_put(&c->procs, p->key, p)) {
			free(p);
			return -1;
		}
		g->procs[g->nprocs++] = p;
		an_get_proc(&g->r, p);
	}
	return 0;
}
