/* SPDX-License-Identifier: MIT */
#include "pl_boot.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

struct pl_libc pl_libc;
bool pl_enabled;
__thread int pl_depth __attribute__((tls_model("initial-exec")));
__thread int pl_in_runtime __attribute__((tls_model("initial-exec")));
__thread bool pl_thread_known __attribute__((tls_model("initial-exec")));

/*
 * lttng-ust's listener threads (named "<program>-ust") allocate while they
 * register with the session daemon; an event from them could recurse into
 * the tracer, and blocking channels never block them, so --lossless would
 * lose their events.  They are the tracer's, not the program's: a thread
 * found to be one stays nested for good.
 */
bool pl_thread_check(void)
{
	char name[17] = "";
	size_t n;

	pl_thread_known = true;
	prctl(PR_GET_NAME, name, 0, 0, 0);
	n = strlen(name);
	if (n >= 4 && !strcmp(name + n - 4, "-ust"))
		pl_depth = 1 << 20;
	return pl_depth == 0;
}

#define ARENA_SIZE (64 * 1024)

static _Alignas(64) unsigned char arena[ARENA_SIZE];
static atomic_size_t arena_used;
static atomic_int state; /* 0: unresolved, 1: resolving, 2: ready */

/* Each arena block is preceded by its size, for realloc out of it. */
void *pl_boot_alloc(size_t size, size_t align)
{
	size_t off, start;

	if (align < 16)
		align = 16;
	off = atomic_load(&arena_used);
	do {
		start = (off + sizeof(size_t) + align - 1) & ~(align - 1);
		if (start + size > ARENA_SIZE)
			return NULL;
	} while (!atomic_compare_exchange_weak(&arena_used, &off, start + size));
	memcpy(&arena[start - sizeof(size_t)], &size, sizeof(size));
	return &arena[start];
}

bool pl_boot_owns(const void *p)
{
	return (const unsigned char *)p >= arena &&
	       (const unsigned char *)p < arena + ARENA_SIZE;
}

size_t pl_boot_size(const void *p)
{
	size_t n;

	memcpy(&n, (const unsigned char *)p - sizeof(size_t), sizeof(n));
	return n;
}

static void abort_missing_symbol(const char *what)
{
	static const char msg[] = "hipgrain: cannot find the real ";

	(void)!write(2, msg, sizeof(msg) - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
	abort();
}

/* A HIP runtime that came in with a plugin opened RTLD_LOCAL is not in the
 * global scope, so RTLD_NEXT misses it; ask the loaded library itself. */
static void *from_loaded_runtime(const char *name)
{
	static const char *const sonames[] = {"libamdhip64.so.5",
					      "libamdhip64.so.6",
					      "libamdhip64.so.7"};
	void *p = NULL;

	for (size_t i = 0; !p && i < sizeof(sonames) / sizeof(*sonames); i++) {
		void *h = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);

		if (h) {
			p = dlsym(h, name);
			dlclose(h);
		}
	}
	return p;
}

void *pl_find_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (!p && (!strncmp(name, "hip", 3) || !strncmp(name, "__hip", 5)))
		p = from_loaded_runtime(name);
	return p;
}

void *pl_next_sym(const char *name)
{
	void *p = pl_find_sym(name);

	if (!p)
		abort_missing_symbol(name);
	return p;
}

#define RESOLVE(f) pl_libc.f = (__typeof__(pl_libc.f))pl_next_sym(#f)

void pl_boot_resolve(void)
{
	int expected = 0;

	/* Whoever loses the race (the resolver itself, re-entered through
	 * dlsym's calloc, or another thread) is served by the arena meanwhile. */
	if (!atomic_compare_exchange_strong(&state, &expected, 1))
		return;
	RESOLVE(calloc);
	RESOLVE(malloc);
	RESOLVE(realloc);
	RESOLVE(free);
	RESOLVE(posix_memalign);
	RESOLVE(aligned_alloc);
	RESOLVE(memalign);
	RESOLVE(valloc);
	RESOLVE(pvalloc);
	RESOLVE(reallocarray);
	atomic_store(&state, 2);
}

bool pl_boot_ready(void)
{
	return atomic_load_explicit(&state, memory_order_acquire) == 2;
}
