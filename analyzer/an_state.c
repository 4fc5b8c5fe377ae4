/* SPDX-License-Identifier: MIT */
#include "an_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_drv.h"
#include "an_sym.h"
#include "hg_events.h"

struct an_proc *an_proc_get(struct an_ctx *c, const void *trace, int64_t vpid)
{
	uint64_t key = (((uint64_t)(uintptr_t)trace + c->epoch) *
			0x9e3779b97f4a7c15ull) ^
		       (uint64_t)vpid ^ (c->epoch << 40);
	struct an_proc *p = hg_map_get(&c->procs, key);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->key = key;
	p->vpid = vpid;
	p->epoch = c->epoch;
	if (hg_map_put(&c->procs, key, p)) {
		free(p);
		return NULL;
	}
	return p;
}

struct an_proc *an_proc_exec(struct an_ctx *c, struct an_proc *p)
{
	struct an_proc *n = calloc(1, sizeof(*n));
	uint64_t key = p->key;

	if (!n)
		return p;
	*n = (struct an_proc){.key = key, .trace = p->trace, .vpid = p->vpid,
			      .image = p->image + 1, .epoch = p->epoch};
	memcpy(n->host, p->host, sizeof(n->host));
	memcpy(n->rank, p->rank, sizeof(n->rank));
	hg_map_del(&c->procs, key);
	p->key = key ^ ((uint64_t)n->image * 0xbf58476d1ce4e5b9ull);
	if (hg_map_put(&c->procs, p->key, p) || hg_map_put(&c->procs, key, n)) {
		free(n);
		return p; /* out of memory: the images stay one process */
	}
	return n;
}

/* A handle is a code address: the product's high bits mix all of it. */
static size_t an_hot_kernel(uint64_t handle)
{
	return (size_t)((handle * 0x9e3779b97f4a7c15ull) >> 32) % AN_HOT_KERNELS;
}

struct an_kernel *an_kernel_get(struct an_proc *p, uint64_t handle, bool create)
{
	/* Kernels stay until the end, so a cached one is valid; a program
	 * launches the same few again and again. */
	struct an_kernel **hot = &p->kernel_hot[an_hot_kernel(handle)];
	struct an_kernel *k = *hot;

	if (k && k->handle == handle)
		return k;
	k = hg_map_get(&p->kernels, handle);
	if (k)
		*hot = k;
	if (k || !create)
		return k;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->handle = handle;
	k->xnack = HG_FEAT_ANY;
	if (hg_map_put(&p->kernels, handle, k)) {
		free(k);
		return NULL;
	}
	return k;
}

struct an_gone *an_gone_of(struct an_proc *p)
{
	if (!p->gone)
		p->gone = calloc(1, sizeof(*p->gone));
	return p->gone;
}

const struct an_alloc *an_freed_find(const struct an_proc *p, uint64_t addr)
{
	int s = p->gone ? dec_freed_at(&p->gone->ring, addr) : -1;

	return s < 0 ? NULL : &p->gone->freed[s];
}

const struct an_call *an_freed_call(const struct an_proc *p,
				    const struct an_alloc *old)
{
	return &p->gone->freed_by[old - p->gone->freed];
}

struct an_alloc *an_freed_by_id(struct an_proc *p, uint64_t id)
{
	int s = p->gone ? dec_freed_by_id(&p->gone->ring, id) : -1;

	return s < 0 ? NULL : &p->gone->freed[s];
}

static uint64_t an_warn_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h ? h : 1;
}

/* A note said once: a merged report's processes often say the same. */
static bool an_warn_said(struct an_ctx *c, const char *msg, uint64_t h)
{
	for (;; h++) {
		const char *seen = hg_map_get(&c->warn_seen, h);

		if (!seen)
			return false;
		if (!strcmp(seen, msg))
			return true;
	}
}

void an_warn(struct an_ctx *c, const char *fmt, ...)
{
	char **grown = realloc(c->warnings, (c->nwarnings + 1) * sizeof(*grown));
	va_list ap;
	char *msg;
	uint64_t h;
	int n;

	if (!grown)
		return;
	c->warnings = grown;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	h = an_warn_hash(msg);
	if (an_warn_said(c, msg, h)) {
		free(msg);
		return;
	}
	/* Colliding hashes take the next free key. */
	while (hg_map_get(&c->warn_seen, h))
		h++;
	if (hg_map_put(&c->warn_seen, h, msg) < 0) {
		free(msg);
		return;
	}
	c->warnings[c->nwarnings++] = msg;
}

bool an_proc_xnack_on(const struct an_proc *p)
{
	if (p->kfd_xnack)
		return p->kfd_xnack == HG_FEAT_ON;
	if (p->have_device && p->dev_xnack == HG_FEAT_ON)
		return true;
	if (p->have_device && p->dev_xnack == HG_FEAT_OFF)
		return false;
	return !strcmp(p->xnack_env, "1");
}

const char *an_arch(const struct an_proc *p, const struct an_kernel *k)
{
	if (p->arch[0])
		return p->arch;
	return k && k->target ? k->target : "";
}

static void an_free_val(void *val, void *arg)
{
	free(val);
}

static void an_free_kernel(void *val, void *arg)
{
	struct an_kernel *k = val;

	free(k->name);
	free(k->demangled);
	free(k->target);
	free(k->fp_mnemonics);
	free(k->int_mnemonics);
	free(k->fp_sites);
	free(k->int_sites);
	free(k->sys_sites);
	free(k);
}

void an_set_why(struct an_proc *p, const char *why)
{
	char cut[AN_WHY_MAX];

	snprintf(cut, sizeof(cut), "%s", why);
	free(p->vgpu_why);
	p->vgpu_why = cut[0] ? strdup(cut) : NULL;
}

static void an_free_proc(void *val, void *arg)
{
	struct an_proc *p = val;

	hg_map_each(&p->callsites, an_free_val, NULL);
	hg_map_each(&p->kernels, an_free_kernel, NULL);
	an_blocks_fini(p);
	free(p->vgpu_why);
	an_heads_fini(&p->heads);
	hg_map_fini(&p->callsites);
	hg_map_fini(&p->kernels);
	for (size_t i = 0; i < p->nbins; i++)
		free(p->bins[i].path);
	free(p->bins);
	an_sym_proc_fini(p);
	an_kfd_fini(p);
	free(p->gone);
	free(p);
}

void an_state_fini(struct an_ctx *c)
{
	an_observed_fini(&c->exec);
	an_traffic_fini(&c->traffic);
	for (struct an_finding *f = c->findings, *n; f; f = n) {
		n = f->all_next;
		free(f->message);
		free(f);
	}
	for (struct an_fail *f = c->fails, *n; f; f = n) {
		n = f->next;
		free(f);
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c->migrated);
	hg_map_each(&c->procs, an_free_proc, NULL);
	hg_map_fini(&c->procs);
	hg_map_fini(&c->finding_index);
	hg_map_fini(&c->warn_seen);
}
