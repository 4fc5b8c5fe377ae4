/* SPDX-License-Identifier: MIT */
/*
 * Streams by address, with the device each was made on.  Read on every
 * launch on a stream, written when one is made: open addressing with no
 * lock, each slot's address claimed once and kept, so a reader never
 * follows a chain a writer is changing.  A destroyed stream's slot keeps
 * its address with no device; the allocator's next stream there takes it
 * again.  A program that makes more streams at distinct addresses than
 * the table holds has its later ones judged on the launching thread's
 * device, as every stream was before streams were followed.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "pl_device.h"
#include "pl_stream.h"

#define SLOTS 4096u /* a power of two */
#define PROBES 64u

static struct {
	_Atomic uintptr_t key;
	_Atomic int dev; /* -1: destroyed */
} tab[SLOTS];

static unsigned hash(uintptr_t k)
{
	return (unsigned)((k >> 4) * 0x9e3779b97f4a7c15ull >> 40) & (SLOTS - 1);
}

void pl_stream_made(hipError_t rc, const hipStream_t *s)
{
	uintptr_t k = s && rc == hipSuccess ? (uintptr_t)*s : 0;
	int dev = pl_device_current();

	for (unsigned i = 0, h = hash(k); k && i < PROBES; i++) {
		uintptr_t none = 0;
		unsigned at = (h + i) & (SLOTS - 1);

		if (atomic_load_explicit(&tab[at].key, memory_order_acquire) == k ||
		    atomic_compare_exchange_strong(&tab[at].key, &none, k)) {
			atomic_store_explicit(&tab[at].dev, dev, memory_order_release);
			return;
		}
	}
}

static int slot_of(uintptr_t k)
{
	for (unsigned i = 0, h = hash(k); k && i < PROBES; i++) {
		unsigned at = (h + i) & (SLOTS - 1);
		uintptr_t here = atomic_load_explicit(&tab[at].key, memory_order_acquire);

		if (here == k)
			return (int)at;
		if (!here)
			break;
	}
	return -1;
}

void pl_stream_gone(hipError_t rc, hipStream_t s)
{
	int at = rc == hipSuccess ? slot_of((uintptr_t)s) : -1;

	if (at >= 0)
		atomic_store_explicit(&tab[at].dev, -1, memory_order_release);
}

int pl_stream_device(hipStream_t s)
{
	int at = s && s != hipStreamPerThread ? slot_of((uintptr_t)s) : -1;
	int dev = at >= 0 ? atomic_load_explicit(&tab[at].dev, memory_order_acquire) : -1;

	return dev >= 0 ? dev : pl_device_current();
}
