/* SPDX-License-Identifier: MIT */
/*
 * OpenMP allocators with the pinned trait (seed 000's table: "Allocator with
 * pinned trait set: memory lock").  libomp hands out ordinary heap memory
 * and, on ROCm, locks it for the GPU: fine-grained host memory the GPU
 * reaches without XNACK, and where its hardware FP atomics do nothing on
 * MI100/MI200.  The allocators are libomp's (omp_init_allocator), so only
 * the handles built with the trait are remembered; every other omp_alloc is
 * the heap the malloc hooks already see, and is forwarded untouched.
 */
#include <dlfcn.h>
#include <stdatomic.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_hip.h"
#include "pl_omp.h"
#include "reg.h"

/* omp.h's omp_atk_pinned and omp_atv_true (OpenMP 5.0, 2.11.2). */
#define PL_OMP_ATK_PINNED 7
#define PL_OMP_ATV_TRUE 1

/* A program makes a handful of allocators; past this many, later pinned
 * ones go unseen rather than costing a lock on every omp_alloc. */
#define PINNED_MAX 64
static _Atomic uintptr_t pinned[PINNED_MAX];

static bool is_pinned(uintptr_t al)
{
	static uintptr_t (*dflt)(void);

	if (!al) { /* omp_null_allocator: the default allocator (ICV) */
		if (!dflt)
			dflt = (uintptr_t(*)(void))dlsym(
			    RTLD_DEFAULT, "omp_get_default_allocator");
		al = dflt ? dflt() : 0;
	}
	for (unsigned i = 0; al && i < PINNED_MAX; i++)
		if (atomic_load_explicit(&pinned[i], memory_order_acquire) == al)
			return true;
	return false;
}

void pl_omp_allocator_new(uintptr_t al, int n, const struct pl_omp_trait *t)
{
	bool pin = false;

	for (int i = 0; t && i < n; i++)
		pin |= t[i].key == PL_OMP_ATK_PINNED &&
		       t[i].value == PL_OMP_ATV_TRUE;
	for (unsigned i = 0; pin && al && i < PINNED_MAX; i++) {
		uintptr_t none = 0;

		if (atomic_compare_exchange_strong(&pinned[i], &none, al))
			return;
	}
}

void pl_omp_allocator_gone(uintptr_t al)
{
	for (unsigned i = 0; al && i < PINNED_MAX; i++) {
		uintptr_t mine = al;

		atomic_compare_exchange_strong(&pinned[i], &mine, 0);
	}
}

void pl_omp_pinned_alloc(void *p, size_t size, uintptr_t al)
{
	if (p && is_pinned(al))
		reg_track_hip_alloc(HG_API_OMP_ALLOC_PINNED, 0, p, size, 0, 0,
				    -1);
}

void pl_omp_calloc(void *p, size_t n, size_t size, uintptr_t al)
{
	size_t bytes;

	if (!__builtin_mul_overflow(n, size, &bytes))
		pl_omp_pinned_alloc(p, bytes, al);
}

/* Only a block the registry holds as pinned is this front end's to free;
 * any other goes back to the heap, where the free hook sees it. */
void pl_omp_pinned_free(void *p, const struct reg_hip_free *st)
{
	if (st->found)
		reg_track_hip_free_end(HG_API_OMP_FREE, 0, p, st,
				       (uintptr_t)__builtin_return_address(0));
}

void pl_omp_realloc(void *old, void *p, size_t size, uintptr_t al,
		    struct reg_hip_free *st)
{
	if (!p && size) { /* failed: the old block stays */
		if (st->found)
			reg_track_hip_free_end(HG_API_OMP_FREE, -1, old, st, 0);
		return;
	}
	pl_omp_pinned_free(old, st);
	pl_omp_pinned_alloc(p, size, al);
}
