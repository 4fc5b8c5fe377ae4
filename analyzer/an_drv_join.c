/* SPDX-License-Identifier: MIT */
/* A block joined to what the driver was told about its addresses. */
#include <stdio.h>

#include "an_drv.h"
#include "an_gran.h"
#include "hg_events.h"
#include "kd_flags.h"

static uint8_t an_drv_gran(enum kd_gran g)
{
	return g == KD_GRAN_FINE ? HG_GRAN_FINE
	       : g == KD_GRAN_COARSE ? HG_GRAN_COARSE
				     : HG_GRAN_UNKNOWN;
}

struct an_bo_find {
	uint64_t lo, hi;
	const struct an_bo *bo;
};

static bool an_bo_holds(const struct an_span *r, void *arg)
{
	struct an_bo_find *f = arg;

	if (r->lo > f->lo || r->hi < f->hi)
		return true;
	f->bo = r->val;
	return false;
}

static bool an_drv_from_bo(const struct an_kfd *k, struct an_alloc *a)
{
	struct an_bo_find f = {a->addr, a->addr + (a->size ? a->size : 1), NULL};

	an_spans_each(&k->bo_at, f.lo, f.hi, an_bo_holds, &f);
	if (!f.bo)
		return false;
	enum kd_domain dom = kd_alloc_domain(f.bo->flags);
	/* Only VRAM is its GPU's.  Host memory (userptr, GTT) is registered
	 * through the first GPU's driver object whichever GPU the process
	 * runs on: its place is the system's (node 0, as an SVM range's). */
	a->drv = (struct an_drv){
		.flags = f.bo->flags, .has_node = true,
		.node = dom == KD_DOMAIN_VRAM ? f.bo->gpu_id : 0,
		.gran = an_drv_gran(kd_alloc_gran(f.bo->flags)),
		.domain = (uint8_t)dom,
	};
	a->gran = a->drv.gran;
	a->npieces = 0;
	return true;
}

/* The part of range r the block holds gets the range's granularity. */
static void an_drv_piece(struct an_alloc *a, const struct an_svm_range *r,
			 uint8_t gran)
{
	uint64_t end = a->addr + (a->size ? a->size : 1);
	uint64_t lo = r->lo > a->addr ? r->lo - a->addr : 0;
	uint64_t hi = (r->hi < end ? r->hi : end) - a->addr;

	if (!lo && hi >= a->size) {
		a->gran = gran;
		a->npieces = 0;
	} else {
		an_gran_set(a, lo, hi, gran);
	}
}

/* The flags and location are the first range's; a block over ranges of
 * both granularities is mixed. */
static bool an_drv_from_svm(const struct an_kfd *k, struct an_alloc *a)
{
	uint64_t end = a->addr + (a->size ? a->size : 1);
	const struct an_svm_range *r = an_svm_from(&k->svm, a->addr);
	const struct an_svm_range *last = k->svm.v + k->svm.n;

	for (; r && r < last && r->lo < end; r++) {
		uint8_t g = an_drv_gran(kd_svm_gran(r->set));

		if (!a->drv.gran)
			a->drv = (struct an_drv){
				.flags = r->set, .cleared = r->cleared,
				.node = r->loc, .has_node = r->has_loc,
				.gran = g, .domain = AN_DRV_SVM,
			};
		else if (a->drv.gran != g)
			a->drv.gran = HG_GRAN_MIXED;
		an_drv_piece(a, r, g);
	}
	return a->drv.gran != HG_GRAN_UNKNOWN;
}

/* A block the driver no longer maps keeps what it was: the runtime gives
 * a BO back inside the call that frees the block, before its free event. */
bool an_drv_resolve(const struct an_proc *p, struct an_alloc *a)
{
	uint8_t before = a->gran;
	struct an_drv was = a->drv;

	if (!p->kfd)
		return false;
	a->drv = (struct an_drv){0};
	if (!an_drv_from_bo(p->kfd, a) && !an_drv_from_svm(p->kfd, a))
		a->drv = was;
	else if (a->drv.has_node && a->drv.node)
		a->drv.gpu = an_kfd_gpu_slot(p, a->drv.node);
	return a->gran != before;
}

const char *an_drv_domain(const struct an_drv *d)
{
	const char *name = kd_domain_name((enum kd_domain)d->domain);

	return d->domain == AN_DRV_SVM ? "svm" : name ? name : "?";
}

const char *an_drv_why(const struct an_drv *d, char *buf, size_t cap)
{
	const uint32_t bo = KFD_IOC_ALLOC_MEM_FLAGS_VRAM |
			    KFD_IOC_ALLOC_MEM_FLAGS_GTT |
			    KFD_IOC_ALLOC_MEM_FLAGS_USERPTR |
			    KFD_IOC_ALLOC_MEM_FLAGS_COHERENT |
			    KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT |
			    KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;
	const uint32_t svm = KFD_IOCTL_SVM_FLAG_COHERENT |
			     KFD_IOCTL_SVM_FLAG_EXT_COHERENT;
	char names[128];

	if (d->domain != AN_DRV_SVM) {
		kd_alloc_flag_names(d->flags & bo, buf, cap);
	} else if (d->gran == HG_GRAN_MIXED) {
		snprintf(buf, cap, "svm, coherent on part of it");
	} else if (d->flags & svm) {
		kd_svm_flag_names(d->flags & svm, names, sizeof(names));
		snprintf(buf, cap, "svm|%s", names);
	} else if (d->cleared & svm) {
		kd_svm_flag_names(d->cleared & svm, names, sizeof(names));
		snprintf(buf, cap, "svm, %s cleared", names);
	} else {
		snprintf(buf, cap, "svm");
	}
	return buf;
}

uint8_t an_kfd_gpu_slot(const struct an_proc *p, uint32_t gpu_id)
{
	const struct an_kfd *k = p->kfd;

	for (unsigned i = 0; k && i < k->ngpus; i++)
		if (k->gpu_ids[i] == gpu_id)
			return (uint8_t)(i + 1);
	return 0;
}
