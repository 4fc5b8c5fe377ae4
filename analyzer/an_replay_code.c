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
		an_fail_add(c, (unsigned)an_ev_u64(e, F_FN_API), rc);
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
	k->target = strdup(target);
	k->fp_sites = strdup(an_ev_str(e, F_KE_FP_SITES));
	k->int_sites = strdup(an_ev_str(e, F_KE_INT_SITES));
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

/*
 * One of the launch event's parallel arrays; *n shrinks to its length.  Each
 * array has its own length field, and a damaged trace can make them differ
 * (found by tests/hostile): an index past an array's end would read out of
 * bounds inside libbabeltrace2.
 */
static const bt_field *an_launch_arr(const struct an_ev *e, int f, uint64_t *n)
{
	uint64_t len;
	const bt_field *a = an_ev_arr(e, f, &len);

	if (len < *n)
		*n = len;
	return a;
}

static void an_launch_arg(struct an_ctx *c, struct an_launch_arg *a)
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
	for (unsigned r = 0; r < an_nrules; r++)
		if (an_rules[r]->on_launch_arg)
			an_rules[r]->on_launch_arg(c, an_rules[r], a);
	if (a->alloc)
		a->alloc->gpu_touched = true;
}

/*
 * Schemas 2 and 3: HG_LAUNCH_WORDS words per pointer argument (see
 * hg_tp_types.h); schema 4's bytes: HG_LAUNCH_BYTE_WORDS, a resolved
 * pointer's value left to its allocation (hg_events.h).  From where `it`
 * stands; a damaged trace's partial last group is left out.
 */
static void an_launch_packed(struct an_ctx *c, const struct an_launch *l,
			     struct an_words *it)
{
	uint64_t w[HG_LAUNCH_WORDS], codes;
	bool bytes = it->shape != NULL;
	unsigned n = bytes ? HG_LAUNCH_BYTE_WORDS : HG_LAUNCH_WORDS;
	unsigned next = 0; /* schema 5's index steps */

	for (;;) {
		for (unsigned i = 0; i < n; i++)
			if (!an_words_next(it, &w[i]))
				return;
		struct an_launch_arg a = {.launch = l};

		if (bytes) { /* the value of a resolved one: an_launch_arg */
			a.id = w[HG_LB_ID];
			if (a.id)
				a.offset = w[HG_LB_WHERE];
			else
				a.value = w[HG_LB_WHERE];
			codes = it->schema >= 5
					? hg_unpack_v5_codes(w[HG_LB_CODES], &next)
					: w[HG_LB_CODES];
		} else {
			a.value = w[0], a.id = w[1], a.offset = w[2];
			codes = w[3];
		}
		a.index = (unsigned)(codes & 0xffff);
		a.mem = (uint8_t)(codes >> 16), a.gran = (uint8_t)(codes >> 24);
		an_launch_arg(c, &a);
	}
}

/* A launch's `ref` (schema 6 on), opened past its head's number (*id, 0 when
 * damaged) and repeat less one, on its arguments. */
static bool an_launch_ref(const struct an_ev *e, struct an_words *it,
			  uint64_t *id, uint64_t *repeat1)
{
	if (!an_words_open_as(e, F_LA_REF, &hg_shape_launch6, 6, it))
		return false;
	if (!an_words_next(it, id) || !an_words_next(it, repeat1))
		*id = *repeat1 = 0;
	return true;
}

void an_on_head(struct an_proc *p, const struct an_ev *e)
{
	uint64_t id = an_ev_u64(e, F_HD_ID);
	struct an_head *h = malloc(sizeof(*h));

	if (!h)
		return;
	*h = (struct an_head){an_ev_u64(e, F_HD_HANDLE),
			      (int32_t)an_ev_i64(e, F_HD_RC),
			      (uint8_t)an_ev_u64(e, F_HD_API)};
	free(an_map_del(&p->heads, id));
	if (!id || an_map_put(&p->heads, id, h))
		free(h); /* 0 is no head's number */
}

/* The words after the head (schemas 3 to 6), schema 2's `args`, or schema
 * 1's six parallel sequences. */
static void an_launch_args(struct an_ctx *c, const struct an_launch *l,
			   const struct an_ev *e)
{
	uint64_t n = UINT64_MAX, head, number, repeat1;
	struct an_words it;
	const bt_field *packed;

	if (an_launch_ref(e, &it, &number, &repeat1)) {
		if (number)
			an_launch_packed(c, l, &it);
		return;
	}
	if (an_words_open(e, F_LA_WORDS, &hg_shape_launch, &it)) {
		for (unsigned i = 0; i < HG_LAUNCH_HEAD; i++)
			if (!an_words_next(&it, &head))
				return;
		an_launch_packed(c, l, &it);
		return;
	}
	if ((packed = an_ev_arr(e, F_LA_ARGS, &n))) {
		it = (struct an_words){.arr = packed, .len = n};
		an_launch_packed(c, l, &it);
		return;
	}
	n = UINT64_MAX;
	const bt_field *idx = an_launch_arr(e, F_LA_IDX, &n);
	const bt_field *val = an_launch_arr(e, F_LA_VAL, &n);
	const bt_field *id = an_launch_arr(e, F_LA_ID, &n);
	const bt_field *off = an_launch_arr(e, F_LA_OFF, &n);
	const bt_field *mem = an_launch_arr(e, F_LA_MEM, &n);
	const bt_field *gran = an_launch_arr(e, F_LA_GRAN, &n);

	if (!idx || !val || !id || !off || !mem || !gran)
		return;
	for (uint64_t i = 0; i < n; i++) {
		struct an_launch_arg a = {
			.launch = l, .value = an_arr_u64(val, i),
			.id = an_arr_u64(id, i),
			.offset = an_arr_u64(off, i),
			.index = (unsigned)an_arr_u64(idx, i),
			.mem = (uint8_t)an_arr_u64(mem, i),
			.gran = (uint8_t)an_arr_u64(gran, i),
		};

		an_launch_arg(c, &a);
	}
}

/* The launch's own values: its declared head's (schema 6), the head words
 * of schemas 3 to 5, or older fields.  A head never declared in the trace
 * (its event lost) leaves the kernel unknown. */
static unsigned an_launch_read(const struct an_ev *e, struct an_launch *l,
			       uint32_t *repeat)
{
	uint64_t w[HG_LAUNCH_HEAD], id, repeat1;
	struct an_words it;
	unsigned schema;

	if (an_launch_ref(e, &it, &id, &repeat1)) {
		const struct an_head *h =
			id ? an_map_get(&l->proc->heads, id) : NULL;

		*repeat = (uint32_t)(repeat1 + 1);
		if (!h)
			return 0;
		l->handle = h->handle;
		l->rc = h->rc;
		return h->api;
	}
	schema = an_ev_words(e, F_LA_WORDS, &hg_shape_launch, w,
			     HG_LAUNCH_HEAD);
	if (schema) {
		if (schema >= 5)
			hg_unpack_v5_launch_head(w);
		l->handle = w[HG_LW_HANDLE];
		l->rc = (int32_t)(uint32_t)(w[HG_LW_SHMEM_RC] >> 32);
		*repeat = (uint32_t)w[HG_LW_REPEAT_API];
		return (uint8_t)(w[HG_LW_REPEAT_API] >> 32);
	}
	l->handle = an_ev_u64(e, F_LA_HANDLE);
	l->rc = (int32_t)an_ev_i64(e, F_LA_RC);
	*repeat = (uint32_t)an_ev_u64(e, F_LA_REPEAT);
	return (uint8_t)an_ev_u64(e, F_LA_API);
}

void an_on_launch(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	struct an_launch l = {.proc = p};
	/* A coalesced event stands for `repeat` identical launches. */
	unsigned api = an_launch_read(e, &l, &c->weight);

	l.kernel = an_kernel_get(p, l.handle, false);
	if (!l.kernel)
		c->unknown_launches += an_weight(c);
	else if (!l.rc)
		l.kernel->launched = true;
	for (unsigned r = 0; r < an_nrules; r++)
		if (an_rules[r]->on_launch)
			an_rules[r]->on_launch(c, an_rules[r], &l);
	an_tl_launch(c, &l);
	an_launch_args(c, &l, e);
	if (l.rc)
		an_fail_add(c, api, l.rc);
	c->weight = 0;
}
