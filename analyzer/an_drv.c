/* SPDX-License-Identifier: MIT */
/* The driver's state of a process: its BOs, and its live blocks by address. */
#include "an_drv.h"

#include <stdlib.h>

#include "kd_flags.h"

struct an_kfd *an_kfd_of(struct an_proc *p)
{
	if (!p->kfd)
		p->kfd = calloc(1, sizeof(*p->kfd));
	return p->kfd;
}

static void an_free_bo(void *val, void *arg)
{
	free(val);
}

void an_kfd_fini(struct an_proc *p)
{
	struct an_kfd *k = p->kfd;

	if (!k)
		return;
	hg_map_each(&k->bos, an_free_bo, NULL);
	hg_map_fini(&k->bos);
	an_spans_fini(&k->bo_at);
	an_spans_fini(&k->live);
	an_svm_fini(&k->svm);
	free(k);
	p->kfd = NULL;
}

/* Doorbells and MMIO remaps are BOs too, but no block is ever in one. */
void an_drv_bo_add(struct an_proc *p, const struct an_bo *bo)
{
	struct an_kfd *k = an_kfd_of(p);
	struct an_bo *b = malloc(sizeof(*b));

	if (!k || !b || kd_alloc_gran(bo->flags) == KD_GRAN_NONE) {
		free(b);
		return;
	}
	*b = *bo;
	an_drv_bo_free(p, bo->handle); /* a handle the driver gave again */
	if (hg_map_put(&k->bos, b->handle, b)) {
		free(b);
		return;
	}
	if (an_spans_add(&k->bo_at, b->lo, b->hi, b))
		free(hg_map_del(&k->bos, b->handle));
}

void an_drv_bo_free(struct an_proc *p, uint64_t handle)
{
	struct an_bo *b = p->kfd ? hg_map_del(&p->kfd->bos, handle) : NULL;

	if (!b)
		return;
	an_spans_del(&p->kfd->bo_at, b->lo, b);
	free(b);
}

static void an_live_put(void *val, void *arg)
{
	an_drv_live_add(arg, val);
}

struct an_spans *an_drv_live(struct an_proc *p)
{
	struct an_kfd *k = an_kfd_of(p);

	if (!k)
		return NULL;
	if (!k->live_built) {
		k->live_built = true;
		hg_map_each(&p->allocs, an_live_put, p);
	}
	return &k->live;
}

void an_drv_live_add(struct an_proc *p, struct an_alloc *a)
{
	if (p->kfd && p->kfd->live_built)
		an_spans_add(&p->kfd->live, a->addr,
			     a->addr + (a->size ? a->size : 1), a);
}

void an_drv_live_del(struct an_proc *p, struct an_alloc *a)
{
	if (p->kfd && p->kfd->live_built)
		an_spans_del(&p->kfd->live, a->addr, a);
}
