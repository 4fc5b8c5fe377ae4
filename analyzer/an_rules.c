/* SPDX-License-Identifier: MIT */
/*
 * How rules record what they find, and the questions they share; the list
 * that calls them is an_rule_list.c, so no rule calls back into its caller.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_gran.h"
#include "an_names.h"
#include "an_rule.h"
#include "hg_events.h"

static uint64_t an_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

/* What tells one finding from another besides rule, severity, process and
 * kernel: the block's allocator and site, and the calls it is about. */
struct an_key {
	const struct an_alloc *a;
	struct an_call call, freed;
	const char (*race_at)[96]; /* NULL: none */
	uint32_t arg; /* the launch argument's index + 1; 0: none */
};

static bool an_same_call(const struct an_call *x, const struct an_call *y)
{
	return x->api == y->api && x->callsite == y->callsite;
}

static bool an_same(const struct an_finding *f, const struct an_rule *r,
		    enum an_sev sev, struct an_proc *p, struct an_kernel *k,
		    const struct an_key *w)
{
	const struct an_alloc *a = w->a;

	return f->rule == r && f->sev == sev && f->proc == p && f->kernel == k &&
	       f->has_alloc == (a != NULL) &&
	       (!a || (f->alloc.api == a->api && f->alloc.callsite == a->callsite)) &&
	       an_same_call(&f->call, &w->call) &&
	       an_same_call(&f->freed, &w->freed) && f->arg == w->arg &&
	       !strcmp(f->race_at[0], w->race_at ? w->race_at[0] : "") &&
	       !strcmp(f->race_at[1], w->race_at ? w->race_at[1] : "");
}

static uint64_t an_finding_key(const struct an_rule *r, enum an_sev sev,
			       const struct an_proc *p,
			       const struct an_kernel *k,
			       const struct an_key *w)
{
	uint64_t key = an_mix(an_mix(an_mix((uintptr_t)r, sev), (uintptr_t)p),
			      (uintptr_t)k);

	if (w->call.api || w->freed.api)
		key = an_mix(an_mix(key, w->call.callsite), w->freed.callsite);
	if (w->arg)
		key = an_mix(key, w->arg);
	return w->a ? an_mix(an_mix(key, w->a->api), w->a->callsite) : key;
}

static struct an_finding *an_found(struct an_ctx *c, uint64_t key,
				   const struct an_rule *r, enum an_sev sev,
				   struct an_proc *p, struct an_kernel *k,
				   const struct an_key *w)
{
	for (struct an_finding *f = hg_map_get(&c->finding_index, key); f;
	     f = f->next)
		if (an_same(f, r, sev, p, k, w)) {
			f->count += an_weight(c);
			return f;
		}
	return NULL;
}

struct an_finding *an_count(struct an_ctx *c, const struct an_rule *r,
			    enum an_sev sev, struct an_proc *p,
			    struct an_kernel *k, const struct an_alloc *a)
{
	struct an_key w = {.a = a};

	return an_found(c, an_finding_key(r, sev, p, k, &w), r, sev, p, k, &w);
}

static struct an_finding *an_vfind(struct an_ctx *c, const struct an_rule *r,
				   enum an_sev sev, struct an_proc *p,
				   struct an_kernel *k, const struct an_key *w,
				   const char *fmt, va_list ap)
{
	uint64_t key = an_finding_key(r, sev, p, k, w);
	struct an_finding *f = an_found(c, key, r, sev, p, k, w);

	if (f)
		return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	*f = (struct an_finding){.rule = r, .sev = sev, .proc = p, .kernel = k,
				 .has_alloc = w->a != NULL,
				 .count = an_weight(c), .nprocs = 1,
				 .first_ns = c->now_ns, .first_tid = c->now_tid,
				 .call = w->call, .freed = w->freed,
				 .arg = w->arg};
	if (w->a)
		f->alloc = *w->a;
	for (int i = 0; i < 2 && w->race_at; i++)
		snprintf(f->race_at[i], sizeof(f->race_at[i]), "%s", w->race_at[i]);
	if (vasprintf(&f->message, fmt, ap) < 0)
		f->message = NULL;
	/* Chain: the index points at the newest finding with this key. */
	f->next = hg_map_get(&c->finding_index, key);
	hg_map_put(&c->finding_index, key, f);
	f->all_next = c->findings;
	c->findings = f;
	return f;
}

struct an_finding *an_find(struct an_ctx *c, const struct an_rule *r,
			   enum an_sev sev, struct an_proc *p,
			   struct an_kernel *k, const struct an_alloc *a,
			   const char *fmt, ...)
{
	struct an_key w = {.a = a};
	struct an_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = an_vfind(c, r, sev, p, k, &w, fmt, ap);
	va_end(ap);
	return f;
}

struct an_finding *an_find_at(struct an_ctx *c, const struct an_rule *r,
			      enum an_sev sev, struct an_proc *p,
			      struct an_kernel *k, const struct an_alloc *a,
			      const struct an_call *call,
			      const struct an_call *freed, const char *fmt, ...)
{
	struct an_key w = {.a = a};
	struct an_finding *f;
	va_list ap;

	if (call)
		w.call = *call;
	if (freed)
		w.freed = *freed;
	va_start(ap, fmt);
	f = an_vfind(c, r, sev, p, k, &w, fmt, ap);
	va_end(ap);
	return f;
}

struct an_finding *an_find_arg(struct an_ctx *c, const struct an_rule *r,
			       enum an_sev sev, struct an_proc *p,
			       struct an_kernel *k, const struct an_alloc *a,
			       unsigned arg, const char *fmt, ...)
{
	struct an_key w = {.a = a, .arg = arg + 1};
	struct an_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = an_vfind(c, r, sev, p, k, &w, fmt, ap);
	va_end(ap);
	return f;
}

struct an_finding *an_find_race(struct an_ctx *c, const struct an_rule *r,
				 enum an_sev sev, struct an_proc *p,
				 struct an_kernel *k, const char at[2][96],
				 const char *fmt, ...)
{
	struct an_key w = {.race_at = at};
	struct an_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = an_vfind(c, r, sev, p, k, &w, fmt, ap);
	va_end(ap);
	return f;
}

bool an_mem_is_host(uint8_t mem)
{
	return mem == HG_MEM_HOST_PINNED || mem == HG_MEM_HOST_REGISTERED ||
	       mem == HG_MEM_SYSTEM || mem == HG_MEM_SYSTEM_UNTRACKED;
}

bool an_mem_is_fine(uint8_t gran)
{
	return gran == HG_GRAN_FINE || gran == HG_GRAN_MIXED;
}

const char *an_kernel_label(const struct an_kernel *k)
{
	if (!k)
		return "a kernel never registered";
	return k->demangled ? k->demangled : k->name ? k->name : "a kernel";
}

bool an_kernel_is_omp(const struct an_kernel *k)
{
	return k && k->name && !strncmp(k->name, "__omp_offloading_", 17);
}

bool an_finding_is_omp(const struct an_finding *f)
{
	if (f->kernel)
		return an_kernel_is_omp(f->kernel);
	if (f->has_alloc && !strcmp(an_api_lib(f->alloc.api), "OpenMP"))
		return true;
	return f->proc && f->proc->omp_offload;
}

const char *an_rule_fix(const struct an_finding *f)
{
	return f->rule->fix_omp && an_finding_is_omp(f) ? f->rule->fix_omp
							: f->rule->fix;
}

const char *an_split_note(const struct an_launch_arg *a, char *buf, size_t cap)
{
	char pieces[192];

	buf[0] = '\0';
	if (a->alloc && a->alloc->npieces)
		snprintf(buf, cap, " (offset %llu of a split range: %s)",
			 (unsigned long long)a->offset,
			 an_gran_pieces(a->alloc, pieces, sizeof(pieces)));
	return buf;
}

bool an_sites_reach_ops(const char *sites, unsigned arg, uint32_t mask,
			uint32_t *ops, char *at, size_t cap)
{
	return co_sites_reach(sites, arg, mask, AN_SCOPES_ALL, ops, at, cap);
}

bool an_sites_reach(const char *sites, unsigned arg, char *at, size_t cap)
{
	uint32_t ops;

	return an_sites_reach_ops(sites, arg, ~0u, &ops, at, cap);
}

bool an_sites_reach_scoped(const char *sites, unsigned arg, unsigned scopes,
			   char *at, size_t cap)
{
	uint32_t ops;

	return co_sites_reach(sites, arg, ~0u, scopes, &ops, at, cap);
}
