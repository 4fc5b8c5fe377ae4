/* SPDX-License-Identifier: MIT */
/* The C allocator family.  Each hook forwards, then tells the registry. */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "reg.h"

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
	pl_depth++;
	reg_track_host_alloc(p, n, api, ra);
	pl_depth--;
}

static inline void track_free(void *p, uint8_t api, uintptr_t ra)
{
	if (!pl_tracking())
		return;
	pl_depth++;
	reg_track_host_free(p, api, ra);
	pl_depth--;
}

PL_EXPORT void *malloc(size_t n)
{
	void *p = NEXT(malloc, n);

	track_alloc(p, n, HG_API_MALLOC, PL_CALLER());
	return p;
}

PL_EXPORT void *calloc(size_t n, size_t m)
{
	void *p = NEXT(calloc, n, m);

	track_alloc(p, n * m, HG_API_CALLOC, PL_CALLER());
	return p;
}

PL_EXPORT void free(void *p)
{
	if (__builtin_expect(pl_boot_owns(p), 0))
		return;
	track_free(p, HG_API_FREE, PL_CALLER());
	NEXT(free, p);
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
