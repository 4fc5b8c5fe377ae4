/* SPDX-License-Identifier: MIT */
/*
 * What the driver's range checks see of the CPU's mappings.  Shared
 * virtual memory is refused where a page has no mapping or is mapped from
 * a device (VM_IO or VM_PFNMAP, as every mmap of a buffer object through
 * the render node or /dev/kfd is), so the device remembers the mappings
 * made through its own fds; any other mapping laid over one forgets it.
 * Unmapped pages are found by asking the kernel (msync fails with ENOMEM).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "vg.h"

struct span {
	uint64_t lo, hi;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct span *spans;
static size_t nspan, capspan;

static int push(uint64_t lo, uint64_t hi)
{
	if (nspan == capspan) {
		size_t cap = capspan ? capspan * 2 : 64;
		struct span *n = realloc(spans, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		spans = n;
		capspan = cap;
	}
	spans[nspan++] = (struct span){ lo, hi };
	return 0;
}

/* Cut [lo, hi) out of every span; a span cut in its middle leaves two. */
static void cut(uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < nspan;) {
		struct span s = spans[i];
		if (s.hi <= lo || hi <= s.lo) {
			i++;
			continue;
		}
		spans[i] = spans[--nspan];
		if (s.lo < lo)
			push(s.lo, lo);
		if (hi < s.hi)
			push(hi, s.hi);
	}
}

/* The books below allocate, and an allocation may map: a mapping made
 * while this thread keeps them is the allocator's, at a free address. */
static __thread int keeping;

void vg_vma_mapped(void *addr, size_t len, int device)
{
	uint64_t lo = (uintptr_t)addr, hi = lo + len;
	if (addr == MAP_FAILED || !len || keeping)
		return;
	keeping = 1;
	/* A buffer object's mapping is not inherited by a child (amdgpu's
	 * mmap of a KFD object, kfd's of doorbells and events: VM_DONTCOPY). */
	if (device)
		madvise(addr, len, MADV_DONTFORK);
	pthread_mutex_lock(&lock);
	cut(lo, hi);
	if (device)
		push(lo, hi);
	pthread_mutex_unlock(&lock);
	/* A new mapping replaced whatever was there, and its SVM ranges. */
	vg_svm_unmapped(lo, len);
	keeping = 0;
}

static int device_mapped(uint64_t lo, uint64_t hi)
{
	int hit = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nspan && !hit; i++)
		hit = spans[i].lo < hi && lo < spans[i].hi;
	pthread_mutex_unlock(&lock);
	return hit;
}

int vg_vma_check(uint64_t start, uint64_t size)
{
	if (msync((void *)(uintptr_t)start, size, MS_ASYNC) && errno == ENOMEM)
		return -EFAULT;
	return device_mapped(start, start + size) ? -EFAULT : 0;
}

/* A child has none of its parent's device mappings: the driver's are
 * VM_DONTCOPY, and the shim marks them so (MADV_DONTFORK). */
void vg_vma_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD)
		nspan = 0;
	pthread_mutex_unlock(&lock);
}
