/* SPDX-License-Identifier: MIT */
/*
 * The C allocator family.  Each hook forwards, then tells the registry.
 * malloc, calloc and free remember and forget a small block inline
 * (reg_host_fast.h); only what that cannot take pays the nesting guard and
 * the registry's call, which may re-enter the allocator.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "reg.h"
#include "reg_host_fast.h"

#define NEXT(f, ...)                                                           \
	(__builtin_expect(pl_libc.f != NULL, 1) || (pl_boot_resolve(), pl_libc.f) \
		 ? pl_libc.f(__VA_ARGS__)                                      \
		 : boot_##f(__VA_ARGS__))

static void *boot_malloc(size_t n)
{
	return pl_boot_alloc(n, 16);
}

static void *boot_calloc(size_t n, size_t m)
{
	return n && m > SIZE_MAX / n ? NULL : pl_boot_alloc(n * m, 16);
}

static void boot_free(void *p)
{
	(void)p;
}

static void *boot_realloc(void *p, size_t n)
{
	void *q = pl_boot_alloc(n, 16);

	if (q && p && pl_boot_owns(p))
		memcpy(q, p, pl_boot_size(p) < n ? pl_boot_size(p) : n);
	return q;
}

static inline void track_alloc(void *p, size_t n, uint8_t api, uintptr_t ra)
{
	if (!pl_tracking())
		return;
	PL_NESTED();
	reg_track_host_alloc(p, n, api, ra);
}

static inline void track_free(void *p, uint8_t api, uintptr_t ra)
{
	if (!pl_tracking())
		return;
	PL_NESTED();
	reg_track_host_free(p, api, ra);
}

/* A block of this thread's own, small and at depth 0 (the runtime's and
 * hipgrain's own blocks are not the program's): one slot written. */
static inline bool put_fast(void *p, size_t n, uint8_t api, uintptr_t ra)
{
	return __builtin_expect(n < reg_host_fast_max && p && pl_depth == 0, 1) &&
	       reg_host_fast_put((uintptr_t)p, n, api, REG_HOST_BY_FREE, ra);
}

/* The rest out of line, so that the common path keeps no frame. */
static __attribute__((noinline)) void *alloc_slow(void *p, size_t n,
						  uint8_t api, uintptr_t ra)
{
	track_alloc(p, n, api, ra);
	return p;
}

/* The real malloc, once known; until then the resolver (or, while it
 * runs, the boot arena).  A pointer of its own saves the common call a
 * test: every thread that writes it writes the same value. */
static void *first_malloc(size_t n);
static void *(*next_malloc)(size_t) = first_malloc;

static void *first_malloc(size_t n)
{
	if (!pl_libc.malloc)
		pl_boot_resolve();
	if (!pl_libc.malloc)
		return boot_malloc(n);
	next_malloc = pl_libc.malloc;
	return pl_libc.malloc(n);
}

PL_EXPORT void *malloc(size_t n)
{
	void *p = next_malloc(n);

	if (put_fast(p, n, HG_API_MALLOC, PL_CALLER()))
		return p;
	return alloc_slow(p, n, HG_API_MALLOC, PL_CALLER());
}

PL_EXPORT void *calloc(size_t n, size_t m)
{
	void *p = NEXT(calloc, n, m);

	if (put_fast(p, n * m, HG_API_CALLOC, PL_CALLER()))
		return p;
	return alloc_slow(p, n * m, HG_API_CALLOC, PL_CALLER());
}

static __attribute__((noinline)) void free_slow(void *p, uintptr_t ra)
{
	if (!p || __builtin_expect(pl_boot_owns(p), 0))
		return;
	track_free(p, HG_API_FREE, ra);
	NEXT(free, p);
}

/* A block in this thread's front was tracked, so the real free is known:
 * the common free is the slot's one comparison and a jump.  No nesting
 * guard: forgetting a block cannot re-enter the allocator, and a block the
 * runtime frees on the program's behalf is gone all the same. */
PL_EXPORT void free(void *p)
{
	if (__builtin_expect(reg_host_fast_drop((uintptr_t)p, REG_HOST_BY_FREE),
			     1)) {
		pl_libc.free(p);
		return;
	}
	free_slow(p, PL_CALLER());
}

static void *realloc_from_arena(void *p, size_t n)
{
	void *q = malloc(n);
	size_t old = pl_boot_size(p);

	if (q)
		memcpy(q, p, old < n ? old : n);
	return q;
}

static void *do_realloc(void *p, size_t n, uintptr_t ra)
{
	size_t old;
	void *q;

	if (pl_boot_owns(p))
		return realloc_from_arena(p, n);
	if (!pl_tracking() || !pl_libc.realloc)
		return NEXT(realloc, p, n);
	old = p ? malloc_usable_size(p) : 0;
	/* Out of the registry first: once realloc returns, another thread may
	 * be handed the old address. */
	track_free(p, HG_API_REALLOC, ra);
	q = pl_libc.realloc(p, n);
	if (q)
		track_alloc(q, n, HG_API_REALLOC, ra);
	else if (p && n)
		track_alloc(p, old, HG_API_REALLOC, ra); /* p is still live */
	return q;
}

PL_EXPORT void *realloc(void *p, size_t n)
{
	return do_realloc(p, n, PL_CALLER());
}

PL_EXPORT void *reallocarray(void *p, size_t n, size_t m)
{
	if (m && n > SIZE_MAX / m) {
		errno = ENOMEM;
		return NULL;
	}
	return do_realloc(p, n * m, PL_CALLER());
}

PL_EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
	int rc;

	if (!pl_libc.posix_memalign)
		pl_boot_resolve();
	rc = pl_libc.posix_memalign(out, align, n);
	if (rc == 0) /* *out is ours to read only on success */
		track_alloc(*out, n, HG_API_POSIX_MEMALIGN, PL_CALLER());
	return rc;
}

#define ALIGNED_HOOK(name, api, params, args, size)                            \
	PL_EXPORT void *name params                                            \
	{                                                                      \
		void *p;                                                       \
		if (!pl_libc.name)                                             \
			pl_boot_resolve();                                     \
		p = pl_libc.name args;                                         \
		track_alloc(p, size, api, PL_CALLER());                        \
		return p;                                                      \
	}

ALIGNED_HOOK(aligned_alloc, HG_API_ALIGNED_ALLOC, (size_t al, size_t n), (al, n), n)
ALIGNED_HOOK(memalign, HG_API_MEMALIGN, (size_t al, size_t n), (al, n), n)
ALIGNED_HOOK(valloc, HG_API_VALLOC, (size_t n), (n), n)
ALIGNED_HOOK(pvalloc, HG_API_PVALLOC, (size_t n), (n), n)
