/* SPDX-License-Identifier: MIT */
/* Replay of code: registered functions, kernel profiles and launches. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "an_gran.h"
#include "an_replay.h"
#include "an_rule.h"
#include "an_sym.h"
#include "an_timeline.h"
#include "hg_events.h"

static void an_kernel_name(struct an_kernel *k, const char *name)
{
	if (k->name || !name[0])
		return;
	k->name = strdup(name);
	k->demangled = an_demangle(name);
}

void an_on_function(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	int32_t rc = (int32_t)an_ev_i64(e, F_FN_RC);
	struct an_kernel *k;

	if (rc) {
		an_fail_add(c, p, (unsigned)an_ev_u64(e, F_FN_API), rc);
		return;
	}
	k = an_kernel_get(p, an_ev_u64(e, F_FN_HANDLE), true);
	if (k)
		an_kernel_name(k, an_ev_str(e, F_FN_NAME));
}

/* Whether target names the same processor as the device arch. */
static bool an_same_gfx(const char *arch, const char *target)
{
	size_t n = strcspn(arch, ":");

	return n && !strncmp(arch, target, n) &&
	       (target[n] == '\0' || target[n] == ':');
}

void an_on_kernel(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct an_kernel *k = an_kernel_get(p, an_ev_u64(e, F_KE_HANDLE), true);
	const char *target = an_ev_str(e, F_KE_TARGET);

	if (!k)
		return;
	an_kernel_name(k, an_ev_str(e, F_KE_NAME));
	if (an_kernel_is_omp(k))
		p->omp_offload = true;
	/* One profile per handle: the device's target wins over others; with
	 * no device, the target whose code has hardware FP atomics does. */
	if (k->profiled && p->arch[0] &&
	    (!an_same_gfx(p->arch, target) || an_same_gfx(p->arch, k->target)))
		return;
	if (k->profiled && !p->arch[0] &&
	    (k->fp_ops || !an_ev_u64(e, F_KE_FP_OPS)))
		return;
	free(k->target);
	free(k->fp_mnemonics);
	free(k->int_mnemonics);
	free(k->fp_sites);
	free(k->int_sites);
	free(k->sys_sites);
	k->target = strdup(target);
	k->fp_sites = strdup(an_ev_str(e, F_KE_FP_SITES));
	k->int_sites = strdup(an_ev_str(e, F_KE_INT_SITES));
	k->sys_sites = strdup(an_ev_str(e, F_KE_SYS_SITES));
	k->fp_mnemonics = strdup(an_ev_str(e, F_KE_FP_MN));
	k->int_mnemonics = strdup(an_ev_str(e, F_KE_INT_MN));
	k->status = (int32_t)an_ev_i64(e, F_KE_STATUS);
	k->xnack = (uint8_t)an_ev_u64(e, F_KE_XNACK);
	k->fp_ops = (uint32_t)an_ev_u64(e, F_KE_FP_OPS);
	k->int_ops = (uint32_t)an_ev_u64(e, F_KE_INT_OPS);
	k->cas_count = (uint32_t)an_ev_u64(e, F_KE_CAS);
	k->profiled = true;
	if (k->status == -ENOEXEC)
		an_warn(c, "no code object of %s can run on %s: the closest, "
			   "%s, was checked instead",
			an_kernel_label(k), p->arch[0] ? p->arch : "this GPU",
			k->target);
	else if (k->status < 0)
		an_warn(c, "the code object of %s (%s) could not be read "
			   "(status %d): its atomics were not checked",
			an_kernel_label(k), k->target, k->status);
}

static void an_launch_arg(struct an_ctx *c, uint32_t rules,
			  struct an_launch_arg *a)
{
	/* Live when launched, freed since: a count written late. */
	a->alloc = an_alloc_get(a->launch->proc, a->id);
	if (a->alloc)
		an_drv_refresh(c, a->launch->proc, a->alloc);
	else
		a->alloc = an_freed_by_id(a->launch->proc, a->id);
	/* From schema 4 on, a resolved pointer's value is not written: it is
	 * its allocation's address plus the offset (where a value is written,
	 * a resolved one is never 0). */
	if (a->id && !a->value && a->alloc)
		a->value = a->alloc->addr + a->offset;
	/* A split block: the page the pointer points into decides (traces of
	 * older preloads say "mixed" for the rest); where the driver was told
	 * a granularity, the driver's. */
	if (a->alloc && (a->alloc->npieces || a->alloc->drv.gran))
		a->gran = an_gran_at(a->alloc, a->offset);
	a->first_touch = a->alloc && !a->alloc->gpu_touched;
	an_tl_launch_arg(c, a);
	an_rules_on_arg(c, rules, a);
	if (a->alloc)
		a->alloc->gpu_touched = true;
}

/* The arguments as the decoder reads them, whatever the schema; a damaged
 * trace's partial last argument is left out. */
static void an_launch_args(struct an_ctx *c, const struct an_launch *l,
			   struct dec_args *it)
{
	uint32_t rules = an_rules_for_args(l);
	struct dec_arg d;

	while (dec_args_next(it, &d)) {
		struct an_launch_arg a = {
			.launch = l, .value = d.value, .id = d.id,
			.offset = d.offset, .index = d.index, .mem = d.mem,
			.gran = d.gran,
		};

		an_launch_arg(c, rules, &a);
	}
}

/* A number declared again takes the new values in place. */
void an_on_head(struct an_proc *p, const struct an_ev *e)
{
	uint64_t id = an_ev_u64(e, F_HD_ID);
	struct an_head *h = id ? an_head_put(&p->heads, id) : NULL;

	if (!h)
		return; /* 0 is no head's number */
	*h = (struct an_head){.handle = an_ev_u64(e, F_HD_HANDLE),
			      .callsite = an_ev_u64(e, F_HD_CALLSITE),
			      .rc = (int32_t)an_ev_i64(e, F_HD_RC),
			      .device = e->cls->field[F_HD_DEVICE] < 0
						? -1
						: (int32_t)an_ev_i64(e, F_HD_DEVICE),
			      .api = (uint8_t)an_ev_u64(e, F_HD_API)};
}

/* The launch's own values: its declared head's (a `ref`), or those the
 * event holds.  A head never declared in the trace (its event lost) leaves
 * the kernel unknown. */
static unsigned an_launch_read(const struct an_ev *e, struct an_launch *l,
			       uint32_t *repeat, struct dec_args *args)
{
	struct dec_launch d;

	dec_bt_launch(&e->cls->dec, e->payload, &d, args, NULL);
	*repeat = d.repeat;
	if (e->cls->dec.form == DEC_FORM_REF) {
		const struct an_head *h =
			an_head_get(&l->proc->heads, d.head_id);

		if (!h)
			return 0;
		l->handle = h->handle;
		l->callsite = h->callsite;
		l->rc = h->rc;
		if (h->device >= 0)
			l->device = h->device;
		return h->api;
	}
	l->handle = d.handle;
	l->rc = d.rc;
	return d.api;
}

void an_on_launch(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	const struct an_hooked *hk = an_rules_hooked(AN_ON_LAUNCH);
	struct an_launch l = {.proc = p, .device = p->cur_device};
	struct dec_args args;
	/* A coalesced event stands for `repeat` identical launches. */
	unsigned api = an_launch_read(e, &l, &c->weight, &args);

	l.api = (uint8_t)api;
	l.kernel = an_kernel_get(p, l.handle, false);
	if (!l.kernel)
		c->unknown_launches += an_weight(c);
	else if (!l.rc)
		l.kernel->launched = true;
	for (unsigned r = 0; r < hk->n; r++)
		hk->r[r]->on_launch(c, hk->r[r], &l);
	an_tl_launch(c, &l);
	an_launch_args(c, &l, &args);
	if (l.rc)
		an_fail_add(c, p, api, l.rc);
	c->weight = 0;
}
