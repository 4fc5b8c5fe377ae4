/* SPDX-License-Identifier: MIT */
/*
 * What every hook needs: the next definitions of the libc allocators, the
 * per-thread nesting depth, and whether hipgrain is tracing at all.
 */
#ifndef PL_BOOT_H
#define PL_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pl_libc {
	void *(*malloc)(size_t);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*reallocarray)(void *, size_t, size_t);
	void (*free)(void *);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
};

extern struct pl_libc pl_libc;
extern bool pl_enabled; /* set once the constructor ran, unless disabled */

/* Depth of hipgrain frames on this thread: hooks only record at depth 0, so
 * allocations made by hipgrain, lttng-ust or the HIP runtime on our behalf
 * are forwarded untouched.  initial-exec: no allocation on first use. */
extern __thread int pl_depth __attribute__((tls_model("initial-exec")));
extern __thread bool pl_thread_known __attribute__((tls_model("initial-exec")));

static inline void pl_nested_leave(int *unused)
{
	(void)unused;
	pl_depth--;
}

/* One level deeper until the enclosing scope ends, however it ends (an
 * early return, a C++ exception through the frame): as heaptrack's
 * RecursionGuard, so no path can leave the depth unbalanced. */
#define PL_NESTED()                                                            \
	int pl_nested_ __attribute__((cleanup(pl_nested_leave), unused)) =    \
		pl_depth++

#define PL_CALLER() ((uintptr_t)__builtin_return_address(0))

/* First call on a thread: lttng-ust's own threads are never traced. */
bool pl_thread_check(void);

static inline bool pl_tracking(void)
{
	return __builtin_expect(pl_enabled && pl_depth == 0 &&
				(pl_thread_known || pl_thread_check()), 1);
}

/* Front-end calls (HIP, OpenMP) in their real runtime on this thread: the
 * HSA calls the runtime makes meanwhile are evidence of what it did. */
extern __thread int pl_in_runtime __attribute__((tls_model("initial-exec")));

static inline bool pl_tracking_runtime(void)
{
	return pl_enabled && pl_depth == pl_in_runtime &&
	       (pl_thread_known || pl_thread_check());
}

/* Resolve pl_libc; until then allocations come from a static arena, which
 * serves the calloc that dlsym itself makes. */
void pl_boot_resolve(void);
bool pl_boot_ready(void);
void *pl_boot_alloc(size_t size, size_t align);
bool pl_boot_owns(const void *p);
size_t pl_boot_size(const void *p);

/* Resolve a symbol from the next object in the lookup order, or die with one
 * fixed message: running on with a missing real function would lose calls. */
void *pl_next_sym(const char *name);
/* The same, NULL when no library has it (an entry point of a newer
 * runtime than the one loaded). */
void *pl_find_sym(const char *name);

#endif
