/* SPDX-License-Identifier: MIT */
/*
 * Stacks that a thread's stack memo (registry/reg_stack.c) could confuse:
 * the same allocating function reached from two callers at the same depth
 * (so hipMalloc sees the same frame address each time), in turn; the same
 * function at three recursion depths; a frame of varying size (alloca)
 * under one caller; and a second thread.
 *
 * Prints one line per allocation: "alloc PTR path=THREAD/NAME ret=ADDR", where
 * ADDR is the return address into the allocating function's caller, which
 * the allocation's call site must hold.
 */
#include <pthread.h>
#include <stdio.h>

#include <hip/hip_runtime_api.h>

#define ROUNDS 5

static __thread const char *thread_name = "main";

static void note(const char *path, void *p, void *ret)
{
	printf("alloc %p path=%s/%s ret=%p\n", p, thread_name, path, ret);
}

__attribute__((noinline)) static void leaf(const char *path)
{
	void *p = NULL;

	if (hipMalloc(&p, 64) == hipSuccess)
		note(path, p, __builtin_return_address(0));
	__asm__ volatile("" ::: "memory"); /* keep the call a call */
}

/* Twins: the same frame, so leaf's frame address is the same under both. */
__attribute__((noinline)) static void via_a(void)
{
	leaf("a");
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void via_b(void)
{
	leaf("b");
	__asm__ volatile("" ::: "memory");
}

/* The same function at recursion depth n: a frame address per depth. */
__attribute__((noinline)) static void deep(int n, const char *path)
{
	if (n == 0)
		leaf(path);
	else
		deep(n - 1, path);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void varying(int n)
{
	/* A frame whose size changes: leaf's frame address moves with it. */
	volatile char *scratch = __builtin_alloca((size_t)n);

	scratch[0] = 1;
	leaf("alloca");
	__asm__ volatile("" ::: "memory");
	(void)scratch[0];
}

static void *thread_main(void *arg)
{
	(void)arg;
	thread_name = "thread";
	for (int i = 0; i < ROUNDS; i++) {
		via_a();
		via_b();
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < ROUNDS; i++) {
		via_a();
		via_b();
		deep(i % 3, (const char *[]){"deep0", "deep1", "deep2"}[i % 3]);
		varying(16 + 64 * (i % 3));
	}
	if (pthread_create(&t, NULL, thread_main, NULL) == 0)
		pthread_join(t, NULL);
	return 0;
}
