/* SPDX-License-Identifier: MIT */
/*
 * The allocator hooks' inline path (reg_host_fast.h) gives the answers the
 * rest of the table gives: what it remembers is found, interior pointers
 * included; a free it cannot judge alone (another family's deallocator, a
 * traced block, a null pointer) is left to the out-of-line path, which
 * reports it; blocks that share a front slot are all kept.  Calls are made
 * as the hooks make them: the inline path first, the rest when it says no.
 * Also built with ThreadSanitizer.
 */
#include <stdint.h>

#include "hg_events.h"
#include "reg_host.h"
#include "reg_host_fast.h"
#include "tap.h"

#define BASE 0x7000000000ull
#define WINDOW ((uintptr_t)REG_HOST_FRONT * 16) /* blocks a slot apart */

static void alloc(uintptr_t a, size_t n, uint8_t api, unsigned cls)
{
	if (!reg_host_fast_put(a, n, api, cls, 0x1234))
		reg_host_insert(a, n, api, 0x1234);
}

/* As the free hook: true when the block was known and forgotten. */
static int release(uintptr_t a, unsigned cls)
{
	struct reg_host_block b;

	return reg_host_fast_drop(a, cls) || reg_host_remove(a, &b);
}

int main(void)
{
	struct reg_host_block b;
	int bad = 0;

	alloc(BASE, 100, HG_API_MALLOC, REG_HOST_BY_FREE);
	ok(reg_host_find(BASE + 99, &b) && b.addr == BASE && b.size == 100 &&
		   b.api == HG_API_MALLOC && b.site == 0x1234 && b.id == 0,
	   "a block remembered inline is found from its last byte, with its "
	   "size, allocator and call site");
	ok(!reg_host_find(BASE + 100, &b), "one past its end is not");
	ok(!reg_host_fast_drop(0, REG_HOST_BY_FREE) && reg_host_count() == 1,
	   "free(NULL) forgets nothing");
	ok(reg_host_fast_drop(BASE, REG_HOST_BY_FREE) &&
		   !reg_host_find(BASE, &b) && reg_host_count() == 0,
	   "its free forgets it inline");

	alloc(BASE + 0x100, 64, HG_API_NEW, REG_HOST_BY_DELETE);
	ok(!reg_host_fast_drop(BASE + 0x100, REG_HOST_BY_FREE) &&
		   !reg_host_fast_drop(BASE + 0x100, REG_HOST_BY_DELETE_ARR) &&
		   reg_host_find(BASE + 0x100, &b) && b.api == HG_API_NEW,
	   "a block of operator new freed by free() or delete[] is left for "
	   "the path that reports the mismatch");
	ok(reg_host_remove(BASE + 0x100, &b) && b.api == HG_API_NEW,
	   "which finds it, with its allocator");
	alloc(BASE + 0x200, 64, HG_API_NEW_ARRAY, REG_HOST_BY_DELETE_ARR);
	ok(reg_host_fast_drop(BASE + 0x200, REG_HOST_BY_DELETE_ARR),
	   "delete[] forgets a block of new[] inline");

	alloc(BASE + 0x300, 48, HG_API_MALLOC, REG_HOST_BY_FREE);
	ok(reg_host_set_id(BASE + 0x300, 77) &&
		   !reg_host_fast_drop(BASE + 0x300, REG_HOST_BY_FREE),
	   "a block a GPU call traced is not forgotten inline");
	ok(reg_host_remove(BASE + 0x300, &b) && b.id == 77 && b.size == 48,
	   "its free finds its event id");

	/* Eight blocks that all name one front slot. */
	for (unsigned k = 0; k < 8; k++)
		alloc(BASE + 0x400 + k * WINDOW, 32 + k, HG_API_CALLOC,
		      REG_HOST_BY_FREE);
	for (unsigned k = 0; k < 8; k++)
		bad += !reg_host_find(BASE + 0x400 + k * WINDOW + 31 + k, &b) ||
		       b.addr != BASE + 0x400 + k * WINDOW || b.size != 32 + k ||
		       b.api != HG_API_CALLOC;
	ok(bad == 0 && reg_host_count() == 8,
	   "blocks that share a front slot are all found, interior pointers "
	   "too");
	for (unsigned k = 0; k < 8; k++)
		bad += !release(BASE + 0x400 + k * WINDOW, REG_HOST_BY_FREE);
	ok(bad == 0 && reg_host_count() == 0, "and all freed");

	/* Allocators other than glibc's hand out 8-byte blocks 8-aligned. */
	alloc(BASE + 0x608, 8, HG_API_MALLOC, REG_HOST_BY_FREE);
	ok(reg_host_set_id(BASE + 0x608, 5) &&
		   reg_host_remove(BASE + 0x608, &b) && b.addr == BASE + 0x608 &&
		   b.size == 8 && b.id == 5,
	   "a block only 8-aligned is known by its own address");
	alloc(BASE + 0x618, 8, HG_API_MALLOC, REG_HOST_BY_FREE);
	ok(release(BASE + 0x618, REG_HOST_BY_FREE) && reg_host_count() == 0,
	   "and freed");

	alloc(BASE + 0x500, 32, HG_API_MALLOC, REG_HOST_BY_FREE);
	alloc(BASE + 0x500, 80, HG_API_MALLOC, REG_HOST_BY_FREE);
	ok(reg_host_find(BASE + 0x500 + 79, &b) && b.size == 80 &&
		   reg_host_count() == 1,
	   "an address freed unseen and allocated again is the new block");
	ok(release(BASE + 0x500, REG_HOST_BY_FREE) &&
		   !release(BASE + 0x500, REG_HOST_BY_FREE),
	   "freed once, then unknown");
	return done();
}
