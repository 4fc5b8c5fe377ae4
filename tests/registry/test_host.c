/* SPDX-License-Identifier: MIT */
/* The host block table: exact and interior lookups, reuse, and 8 threads
 * churning at once (this test is also built with ThreadSanitizer). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "reg_host.h"
#include "tap.h"

#define THREADS 8
#define ROUNDS 20000

static void *churn(void *arg)
{
	uintptr_t base = 0x100000000ull * (1 + (uintptr_t)arg);
	struct reg_host_block b;
	long bad = 0;

	for (int r = 0; r < ROUNDS; r++) {
		uintptr_t a = base + (uintptr_t)(r % 512) * 64;

		bad += !reg_host_insert(a, 48, 1, 0);
		bad += !reg_host_find(a + 40, &b) || b.addr != a;
		bad += !reg_host_remove(a, &b) || b.size != 48;
	}
	return (void *)bad;
}

int main(void)
{
	struct reg_host_block b;
	pthread_t t[THREADS];
	long bad = 0;

	ok(reg_host_insert(0x5000, 100, 1, 0xabc), "insert a small block");
	ok(reg_host_find(0x5000, &b) && b.addr == 0x5000 && b.size == 100 &&
		   b.site == 0xabc,
	   "exact lookup returns size and call site");
	ok(reg_host_find(0x5063, &b) && b.addr == 0x5000, "last byte resolves");
	ok(!reg_host_find(0x5064, &b), "one past the end does not");
	ok(reg_host_insert(0x10000000, 1 << 20, 1, 0), "insert a large block");
	ok(reg_host_find(0x10000000 + 700000, &b) && b.addr == 0x10000000,
	   "interior pointer far into a large block resolves");
	ok(reg_host_set_id(0x5000, 42) && reg_host_find(0x5000, &b) && b.id == 42,
	   "a traced block keeps its event id");
	ok(reg_host_count() == 2, "two live blocks");
	ok(reg_host_remove(0x5000, &b) && b.id == 42, "remove returns the id");
	ok(!reg_host_remove(0x5000, &b), "double remove finds nothing");
	ok(!reg_host_find(0x5010, &b), "freed block no longer resolves");
	ok(reg_host_remove(0x10000000, &b), "remove the large block");
	ok(!reg_host_find(0x10000000 + 700000, &b),
	   "its interior no longer resolves");
	ok(reg_host_insert(0x30000000, 1 << 20, 1, 0) &&
		   reg_host_insert(0x30000000, 64, 1, 0) &&
		   !reg_host_find(0x30000000 + 4096, &b) &&
		   reg_host_find(0x30000000 + 8, &b) && b.size == 64,
	   "a large block reused as a small one (free unseen): only the small "
	   "one resolves");
	ok(reg_host_remove(0x30000000, &b), "and it is removed");
	for (int i = 0; i < 100000; i++)
		reg_host_insert(0x200000000ull + (uintptr_t)i * 32, 16, 1, 0);
	ok(reg_host_count() == 100000, "tables grow to 100000 blocks");
	for (int i = 0; i < 100000; i++)
		reg_host_remove(0x200000000ull + (uintptr_t)i * 32, &b);
	ok(reg_host_count() == 0, "and shrink back to none");

	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, churn, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	ok(bad == 0 && reg_host_count() == 0,
	   "%d threads x %d insert/find/remove: every operation consistent",
	   THREADS, ROUNDS);
	return done();
}
