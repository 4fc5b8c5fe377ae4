/* SPDX-License-Identifier: MIT */
/*
 * Every C++ operator new/delete (plain, array, sized, aligned, nothrow), by
 * their Itanium-ABI names.  new is malloc plus a new-handler loop and a
 * throw; the common path calls the allocator directly and only a failure is
 * handed to libstdc++'s own operator, which runs the handler or throws.  This
 * file is built with unwind tables so that exception can cross it.
 */
#include <stdlib.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "reg.h"
#include "reg_host_fast.h"

typedef void *(*new_fn)(size_t);
typedef void *(*new_al_fn)(size_t, size_t);

static __attribute__((noinline)) void *track_slow(void *p, size_t n,
						   uint8_t api, uintptr_t ra)
{
	if (p && pl_tracking()) {
		PL_NESTED();

		reg_track_host_alloc(p, n, api, ra);
	}
	return p;
}

/* As pl_libc.c: a small block at depth 0 inline, the rest through the
 * registry under the nesting guard. */
static inline void *track(void *p, size_t n, uint8_t api, uintptr_t ra)
{
	unsigned cls = api == HG_API_NEW_ARRAY ? REG_HOST_BY_DELETE_ARR
					       : REG_HOST_BY_DELETE;

	if (__builtin_expect(n < reg_host_fast_max && p && pl_depth == 0, 1) &&
	    reg_host_fast_put((uintptr_t)p, n, api, cls, ra))
		return p;
	return track_slow(p, n, api, ra);
}

static inline void untrack(void *p, uint8_t api, uintptr_t ra)
{
	if (p && pl_tracking()) {
		PL_NESTED();

		reg_track_host_free(p, api, ra);
	}
}

static void *plain(size_t n)
{
	if (!pl_libc.malloc)
		pl_boot_resolve();
	return pl_libc.malloc(n ? n : 1);
}

static void *aligned(size_t n, size_t al)
{
	void *p = NULL;

	if (!pl_libc.posix_memalign)
		pl_boot_resolve();
	if (al < sizeof(void *))
		al = sizeof(void *);
	return pl_libc.posix_memalign(&p, al, n ? n : 1) == 0 ? p : NULL;
}

/* libstdc++'s operator, for the failure path: handler loop, then throw.
 * The nesting guard's cleanup also runs if it throws std::bad_alloc
 * through this frame. */
static void *slow(const char *sym, size_t n)
{
	PL_NESTED();

	return ((new_fn)pl_next_sym(sym))(n);
}

static void *slow_al(const char *sym, size_t n, size_t al)
{
	PL_NESTED();

	return ((new_al_fn)pl_next_sym(sym))(n, al);
}

#define NEW(name, api)                                                         \
	PL_EXPORT void *name(size_t n);                                        \
	PL_EXPORT void *name(size_t n)                                         \
	{                                                                      \
		void *p = plain(n);                                            \
		return track(p ? p : slow(#name, n), n, api, PL_CALLER());     \
	}
#define NEW_NOTHROW(name, api)                                                 \
	PL_EXPORT void *name(size_t n, const void *nt);                        \
	PL_EXPORT void *name(size_t n, const void *nt)                         \
	{                                                                      \
		(void)nt;                                                      \
		return track(plain(n), n, api, PL_CALLER());                   \
	}
#define NEW_AL(name, api)                                                      \
	PL_EXPORT void *name(size_t n, size_t al);                             \
	PL_EXPORT void *name(size_t n, size_t al)                              \
	{                                                                      \
		void *p = aligned(n, al);                                      \
		return track(p ? p : slow_al(#name, n, al), n, api,            \
			     PL_CALLER());                                     \
	}
#define NEW_AL_NOTHROW(name, api)                                              \
	PL_EXPORT void *name(size_t n, size_t al, const void *nt);             \
	PL_EXPORT void *name(size_t n, size_t al, const void *nt)              \
	{                                                                      \
		(void)nt;                                                      \
		return track(aligned(n, al), n, api, PL_CALLER());             \
	}

NEW(_Znwm, HG_API_NEW)
NEW(_Znam, HG_API_NEW_ARRAY)
NEW_NOTHROW(_ZnwmRKSt9nothrow_t, HG_API_NEW)
NEW_NOTHROW(_ZnamRKSt9nothrow_t, HG_API_NEW_ARRAY)
NEW_AL(_ZnwmSt11align_val_t, HG_API_NEW)
NEW_AL(_ZnamSt11align_val_t, HG_API_NEW_ARRAY)
NEW_AL_NOTHROW(_ZnwmSt11align_val_tRKSt9nothrow_t, HG_API_NEW)
NEW_AL_NOTHROW(_ZnamSt11align_val_tRKSt9nothrow_t, HG_API_NEW_ARRAY)

static __attribute__((noinline)) void release_slow(void *p, uint8_t api,
						    uintptr_t ra)
{
	if (!p || pl_boot_owns(p))
		return;
	untrack(p, api, ra);
	if (!pl_libc.free)
		pl_boot_resolve();
	pl_libc.free(p);
}

static inline void release(void *p, uint8_t api, uintptr_t ra)
{
	unsigned cls = api == HG_API_DELETE_ARRAY ? REG_HOST_BY_DELETE_ARR
						  : REG_HOST_BY_DELETE;

	if (__builtin_expect(reg_host_fast_drop((uintptr_t)p, cls), 1)) {
		pl_libc.free(p);
		return;
	}
	release_slow(p, api, ra);
}

/* Every delete form ends in free(); the extra arguments are hints. */
#define DELETE(name, api, ...)                                                 \
	PL_EXPORT void name(void *p, ##__VA_ARGS__);                           \
	PL_EXPORT void name(void *p, ##__VA_ARGS__)                            \
	{                                                                      \
		release(p, api, PL_CALLER());                                  \
	}

DELETE(_ZdlPv, HG_API_DELETE)
DELETE(_ZdaPv, HG_API_DELETE_ARRAY)
DELETE(_ZdlPvm, HG_API_DELETE, size_t n)
DELETE(_ZdaPvm, HG_API_DELETE_ARRAY, size_t n)
DELETE(_ZdlPvRKSt9nothrow_t, HG_API_DELETE, const void *nt)
DELETE(_ZdaPvRKSt9nothrow_t, HG_API_DELETE_ARRAY, const void *nt)
DELETE(_ZdlPvSt11align_val_t, HG_API_DELETE, size_t al)
DELETE(_ZdaPvSt11align_val_t, HG_API_DELETE_ARRAY, size_t al)
DELETE(_ZdlPvmSt11align_val_t, HG_API_DELETE, size_t n, size_t al)
DELETE(_ZdaPvmSt11align_val_t, HG_API_DELETE_ARRAY, size_t n, size_t al)
DELETE(_ZdlPvSt11align_val_tRKSt9nothrow_t, HG_API_DELETE, size_t al,
       const void *nt)
DELETE(_ZdaPvSt11align_val_tRKSt9nothrow_t, HG_API_DELETE_ARRAY, size_t al,
       const void *nt)
