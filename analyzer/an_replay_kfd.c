/* SPDX-License-Identifier: MIT */
/* Replay of the driver front end: what the runtime told /dev/kfd (buffer
 * objects, SVM attributes, the XNACK mode) and what the driver's SMI event
 * file reported (migrations). */
#include <stdio.h>

#include "an_drv.h"
#include "an_replay.h"
#include "an_timeline.h"
#include "hg_events.h"
#include "kd_flags.h"

/* The pairs of one kfd_svm event are read this many at a time: they apply
 * in order, so the chunks change nothing. */
#define AN_SVM_PAIRS 32

/* An access attribute names its GPU by the GPU's bit: its place among the
 * process's GPUs, the last bit for one not known. */
static uint32_t an_svm_value(const struct an_proc *p, uint32_t type,
			     uint32_t v)
{
	uint8_t slot;

	if (type != KFD_IOCTL_SVM_ATTR_ACCESS &&
	    type != KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE &&
	    type != KFD_IOCTL_SVM_ATTR_NO_ACCESS)
		return v;
	slot = an_kfd_gpu_slot(p, v);
	return slot && slot < 32 ? 1u << (slot - 1) : 1u << 31;
}

void an_on_kfd_alloc(struct an_proc *p, const struct an_ev *e)
{
	uint32_t flags = (uint32_t)an_ev_u64(e, F_KA_FLAGS);
	uint64_t va = an_ev_u64(e, F_KA_VA), cpu = an_ev_u64(e, F_KA_CPU);
	uint64_t at = kd_alloc_domain(flags) == KD_DOMAIN_USERPTR && cpu ? cpu
									  : va;
	struct an_bo bo = {
		.lo = at, .hi = at + an_ev_u64(e, F_KA_SIZE),
		.handle = an_ev_u64(e, F_KA_HANDLE), .flags = flags,
		.gpu_id = (uint32_t)an_ev_u64(e, F_KA_GPU),
	};

	if (!an_ev_i64(e, F_KA_RC) && bo.hi > bo.lo)
		an_drv_bo_add(p, &bo);
}

void an_on_kfd_free(struct an_proc *p, const struct an_ev *e)
{
	if (!an_ev_i64(e, F_KF_RC))
		an_drv_bo_free(p, an_ev_u64(e, F_KF_HANDLE));
}

void an_on_kfd_svm(struct an_proc *p, const struct an_ev *e)
{
	uint64_t lo = an_ev_u64(e, F_KS_START), n, i = 0;
	uint64_t hi = lo + an_ev_u64(e, F_KS_SIZE);
	const bt_field *arr = an_ev_arr(e, F_KS_ATTRS, &n);
	struct an_kfd *k = an_kfd_of(p);
	uint32_t pairs[2 * AN_SVM_PAIRS];

	/* Only a SET_ATTR that succeeded changes the ranges. */
	if (!k || !arr || an_ev_u64(e, F_KS_OP) != KFD_IOCTL_SVM_OP_SET_ATTR ||
	    an_ev_i64(e, F_KS_RC))
		return;
	while (i + 1 < n) {
		size_t m = 0;

		for (; m < AN_SVM_PAIRS && i + 1 < n; m++, i += 2) {
			pairs[2 * m] = (uint32_t)an_arr_u64(arr, i);
			pairs[2 * m + 1] = an_svm_value(p, pairs[2 * m],
					(uint32_t)an_arr_u64(arr, i + 1));
		}
		an_svm_set(&k->svm, lo, hi, pairs, m);
	}
}

void an_on_kfd_xnack(struct an_proc *p, const struct an_ev *e)
{
	if (!an_ev_i64(e, F_KX_RC))
		p->kfd_xnack = an_ev_i64(e, F_KX_ENABLED) ? HG_FEAT_ON
							  : HG_FEAT_OFF;
}

void an_on_kfd_smi_open(struct an_proc *p, const struct an_ev *e)
{
	int32_t rc = (int32_t)an_ev_i64(e, F_KO_RC);
	struct an_kfd *k = an_kfd_of(p);

	if (k && k->ngpus < AN_KFD_GPUS)
		k->gpu_ids[k->ngpus++] = (uint32_t)an_ev_u64(e, F_KO_GPU);
	if (rc >= 0 || !k || k->smi_rc)
		return;
	k->smi_rc = rc;
	k->smi_gpu = (uint32_t)an_ev_u64(e, F_KO_GPU);
}

static bool an_mig_count(const struct an_span *r, void *arg)
{
	const struct an_tl_mig *m = arg;
	struct an_alloc *a = r->val;
	uint64_t lo = r->lo > m->addr ? r->lo : m->addr;
	uint64_t hi = r->hi < m->addr + m->size ? r->hi : m->addr + m->size;

	if (m->trigger < AN_MIG_TRIGGERS)
		a->mig.n[m->trigger]++;
	a->mig.bytes += hi - lo;
	return true;
}

/* A migration counts once on each live block it moved part of. */
void an_on_kfd_smi(struct an_ctx *c, struct an_proc *p, const struct an_ev *e)
{
	uint8_t kind = (uint8_t)an_ev_u64(e, F_SMI_KIND);
	struct an_tl_mig m = {
		.ns = an_ev_u64(e, F_SMI_NS), .addr = an_ev_u64(e, F_SMI_ADDR),
		.size = an_ev_u64(e, F_SMI_SIZE), .proc = p,
		.from = (uint32_t)an_ev_u64(e, F_SMI_FROM),
		.to = (uint32_t)an_ev_u64(e, F_SMI_TO),
		.error = (int32_t)an_ev_i64(e, F_SMI_ERROR),
		.trigger = (uint8_t)an_ev_u64(e, F_SMI_TRIGGER),
	};
	struct an_spans *live;

	if (kind == KFD_SMI_EVENT_MIGRATE_END) {
		an_tl_mig_end(c, &m);
		return;
	}
	if (kind != KFD_SMI_EVENT_MIGRATE_START || !m.size ||
	    m.addr + m.size < m.addr) /* a damaged trace's */
		return;
	an_tl_mig_start(c, &m);
	live = an_drv_live(p);
	if (live)
		an_spans_each(live, m.addr, m.addr + m.size, an_mig_count, &m);
}

void an_on_kfd_node(struct an_proc *p, const struct an_ev *e)
{
	struct an_topo_gpu *g;

	if (p->ntopo >= AN_TOPO_GPUS)
		return;
	g = &p->topo[p->ntopo++];
	g->gpu_id = (uint32_t)an_ev_u64(e, F_KN_GPU);
	g->target = (uint32_t)an_ev_u64(e, F_KN_TARGET);
	g->device_id = (uint32_t)an_ev_u64(e, F_KN_DEVICE);
	g->hive = an_ev_u64(e, F_KN_HIVE);
	g->cap = (uint32_t)an_ev_u64(e, F_KN_CAP);
	g->link_type = (uint32_t)an_ev_u64(e, F_KN_LTYPE);
	g->link_flags = (uint32_t)an_ev_u64(e, F_KN_LFLAGS);
	p->kfd_major = (uint32_t)an_ev_u64(e, F_KN_MAJOR);
	p->kfd_minor = (uint32_t)an_ev_u64(e, F_KN_MINOR);
	snprintf(p->driver, sizeof(p->driver), "%s", an_ev_str(e, F_KN_DRIVER));
}
