/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): process state -- the
 * allocation table, the last error, the call log and the device identity.
 * Bookkeeping lives in static arrays and mmap, never in malloc, so the
 * hipgrain preload sees no allocations the real runtime would not make.
 */
#include "fh.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FH_MAX_ALLOCS 4096
#define FH_FREED_RING 256

static pthread_mutex_t fh_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct fh_alloc fh_table[FH_MAX_ALLOCS];
static struct {
	uintptr_t base;
	size_t size;
} fh_freed[FH_FREED_RING];
static unsigned int fh_freed_next;
static __thread hipError_t fh_last_error;

void fh_lock(void)
{
	pthread_mutex_lock(&fh_mutex);
}

void fh_unlock(void)
{
	pthread_mutex_unlock(&fh_mutex);
}

/* A program may fork while another of its threads is inside the double
 * (stress-fork's churn thread): the child, alone, gets the lock free. */
static void fh_fork_child(void)
{
	pthread_mutex_init(&fh_mutex, NULL);
}

__attribute__((constructor)) static void fh_fork_handlers(void)
{
	pthread_atfork(fh_lock, fh_unlock, fh_fork_child);
}

hipError_t fh_ret(hipError_t err)
{
	fh_last_error = err;
	return err;
}

hipError_t hipGetLastError(void)
{
	hipError_t err = fh_last_error;
	fh_last_error = hipSuccess;
	return err;
}

hipError_t hipPeekAtLastError(void)
{
	return fh_last_error;
}

void fh_log(const char *fmt, ...)
{
	static int fd = -2;
	char line[512];
	va_list ap;

	if (fd == -2) {
		const char *path = getenv("HGFAKE_LOG");
		fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)
				   : -1;
	}
	if (fd < 0)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* One write per line: O_APPEND keeps lines whole across threads. */
	if (write(fd, line, (size_t)n) < 0)
		return;
}

struct fh_alloc *fh_find(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	for (size_t i = 0; i < FH_MAX_ALLOCS; i++) {
		struct fh_alloc *e = &fh_table[i];
		if (e->live && a >= e->base && a - e->base < (e->size ? e->size : 1))
			return e;
	}
	return NULL;
}

size_t fh_base_size(const void *p)
{
	struct fh_alloc *a;
	size_t size = 0;

	fh_lock();
	a = fh_find(p);
	if (a && (uintptr_t)p == a->base)
		size = a->size;
	fh_unlock();
	return size;
}

struct fh_alloc *fh_add(uintptr_t base, size_t size, void *map, size_t map_size,
			enum fh_kind kind, unsigned int flags)
{
	for (size_t i = 0; i < FH_MAX_ALLOCS; i++) {
		struct fh_alloc *e = &fh_table[i];
		if (!e->live) {
			*e = (struct fh_alloc){base, size, map, map_size, kind, flags, 1};
			return e;
		}
	}
	return NULL;
}

/*
 * The leading read-only zero page makes a misdirected free() fail the same
 * way every time: glibc reads a chunk size of 0 just below the pointer and
 * aborts with "free(): invalid pointer" instead of touching unmapped memory.
 */
/*
 * HGFAKE_REUSE=1 (bench/launch): a freed mapping is kept and handed out
 * again for the same size, as ROCr keeps small blocks for reuse.  Without
 * it every hipMalloc/hipFree pair costs the double an mmap, an mprotect and
 * a munmap, microseconds that move by more than what the bench measures.
 * Under fh_lock.
 */
#define FH_REUSE_SLOTS 8
static struct {
	char *map;
	size_t total;
} fh_reuse[FH_REUSE_SLOTS];

static int fh_reusing(void)
{
	static int on = -1;

	if (on < 0) {
		const char *v = getenv("HGFAKE_REUSE");
		on = v && *v == '1';
	}
	return on;
}

static char *fh_reuse_take(size_t total)
{
	for (int i = 0; i < FH_REUSE_SLOTS; i++)
		if (fh_reuse[i].map && fh_reuse[i].total == total) {
			char *map = fh_reuse[i].map;
			fh_reuse[i].map = NULL;
			return map;
		}
	return NULL;
}

static int fh_reuse_keep(char *map, size_t total)
{
	if (!fh_reusing())
		return 0;
	for (int i = 0; i < FH_REUSE_SLOTS; i++)
		if (!fh_reuse[i].map) {
			fh_reuse[i].map = map, fh_reuse[i].total = total;
			return 1;
		}
	return 0;
}

hipError_t fh_map(void **ptr, size_t size, enum fh_kind kind, unsigned int flags)
{
	size_t data = (size + FH_PAGE - 1) & ~(FH_PAGE - 1);
	size_t total = data + FH_PAGE;
	char *map = NULL;

	if (fh_reusing()) {
		fh_lock();
		map = fh_reuse_take(total);
		fh_unlock();
		if (map) /* zeroed, as a fresh mapping is */
			memset(map + FH_PAGE, 0, data);
	}
	if (!map) {
		map = mmap(NULL, total, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (map == MAP_FAILED)
			return hipErrorOutOfMemory;
		mprotect(map, FH_PAGE, PROT_READ);
	}
	fh_lock();
	struct fh_alloc *e = fh_add((uintptr_t)(map + FH_PAGE), size, map, total,
				    kind, flags);
	fh_unlock();
	if (!e) {
		munmap(map, total);
		return hipErrorOutOfMemory;
	}
	*ptr = map + FH_PAGE;
	return hipSuccess;
}

hipError_t fh_unmap(void *p, unsigned int kind_mask)
{
	fh_lock();
	struct fh_alloc *e = fh_find(p);
	if (!e || e->base != (uintptr_t)p || !(kind_mask & (1u << e->kind))) {
		fh_unlock();
		return hipErrorInvalidValue;
	}
	struct fh_alloc gone = *e;
	e->live = 0;
	fh_freed[fh_freed_next % FH_FREED_RING].base = gone.base;
	fh_freed[fh_freed_next % FH_FREED_RING].size = gone.size ? gone.size : 1;
	fh_freed_next++;
	fh_advice_forget(gone.base, gone.size);
	if (gone.map && fh_reuse_keep(gone.map, gone.map_size))
		gone.map = NULL;
	fh_unlock();
	if (gone.map)
		munmap(gone.map, gone.map_size);
	return hipSuccess;
}

int fh_was_freed(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;
	int hit = 0;
	fh_lock();
	if (!fh_find(p)) {
		for (size_t i = 0; i < FH_FREED_RING && !hit; i++) {
			uintptr_t b = fh_freed[i].base;
			hit = fh_freed[i].size && a < b + fh_freed[i].size &&
			      b < a + (n ? n : 1);
		}
	}
	fh_unlock();
	return hit;
}

/*
 * The device identity: $HGFAKE_ARCH, else gfx90a with the XNACK mode the
 * real runtime would report for this process's HSA_XNACK.
 */
static const char *arch_from_env(void)
{
	const char *arch = getenv("HGFAKE_ARCH");
	if (arch && *arch)
		return arch;
	const char *x = getenv("HSA_XNACK");
	return x && strcmp(x, "1") == 0 ? "gfx90a:sramecc+:xnack+"
					: "gfx90a:sramecc+:xnack-";
}

/* Read once: every call asks, and a benchmark of the launch path must not
 * measure getenv over the environment. */
const char *fh_arch(void)
{
	static const char *_Atomic arch;
	const char *a = arch;

	if (!a)
		arch = a = arch_from_env();
	return a;
}

int fh_no_device(void)
{
	return strcmp(fh_arch(), "none") == 0;
}
