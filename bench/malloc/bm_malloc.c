/* SPDX-License-Identifier: MIT */
/*
 * The malloc+free path: N pairs, as a program's hot loop would make them.
 * Prints nanoseconds per pair.
 *
 *   bm-malloc N        one block live at a time, sizes cycling over 16
 *                      steps (bench/launch prices an event with this)
 *   bm-malloc N ring   64 blocks live, each pair frees the oldest and
 *                      allocates 16..271 bytes, sizes from a fixed seed
 *   bm-malloc N wide   10,000 blocks live, each pair frees one drawn at
 *                      random (fixed seed) and allocates 16..271 bytes:
 *                      far more blocks than a thread's own table holds
 *
 * A third argument, `cpu`, times the loop by the thread's CPU clock
 * instead of the wall clock: on a host other work keeps busy, the time the
 * thread spends preempted is not the allocator's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 64
/* Sizes are drawn before the clock starts, so the loop times only the
 * allocator; a table much longer than the ring keeps the pattern from
 * repeating in step with it. */
#define NSIZES 4096

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double one_live(long n)
{
	void *volatile sink;
	double t0;

	for (long i = 0; i < n / 10; i++) /* warm the allocator and tables */
		free(malloc(16 + (i & 15) * 16));
	t0 = now();
	for (long i = 0; i < n; i++) {
		sink = malloc(16 + (i & 15) * 16);
		free(sink);
	}
	return now() - t0;
}

static void ring_pairs(void **ring, const unsigned short *size, long n)
{
	for (long i = 0; i < n; i++) {
		void **slot = &ring[i & (RING - 1)];

		free(*slot);
		*slot = malloc(size[i & (NSIZES - 1)]);
		/* A store into the block, as its program would make. */
		*(volatile char *)*slot = (char)i;
	}
}

static void xorshift(unsigned long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
}

#define WIDE 10000

static double wide_live(long n)
{
	static void *live[WIDE];
	unsigned long x = 0x9e3779b97f4a7c15ul; /* fixed: every run the same */
	double t0, t;

	for (int i = 0; i < WIDE; i++)
		live[i] = malloc(16 + i % 256);
	t0 = now();
	for (long i = 0; i < n; i++) {
		void **slot;

		xorshift(&x);
		slot = &live[x % WIDE];
		free(*slot);
		*slot = malloc(16 + (x >> 32) % 256);
		*(volatile char *)*slot = (char)i;
	}
	t = now() - t0;
	for (int i = 0; i < WIDE; i++)
		free(live[i]);
	return t;
}

static double ring_live(long n)
{
	static unsigned short size[NSIZES];
	void *ring[RING] = {0};
	unsigned long x = 0x2545f4914f6cdd1dul; /* fixed: every run the same */
	double t0, t;

	for (int i = 0; i < NSIZES; i++) {
		xorshift(&x);
		size[i] = (unsigned short)(16 + (x >> 24) % 256);
	}
	ring_pairs(ring, size, n / 10 + RING); /* warm, and fill the ring */
	t0 = now();
	ring_pairs(ring, size, n);
	t = now() - t0;
	for (int i = 0; i < RING; i++)
		free(ring[i]);
	return t;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	const char *shape = argc > 2 ? argv[2] : "one";
	const char *clk = argc > 3 ? argv[3] : "wall";
	double t;

	if (n <= 0) {
		fprintf(stderr, "bm-malloc: N must be a positive count\n");
		return 2;
	}
	if (!strcmp(clk, "cpu")) {
		clock_id = CLOCK_THREAD_CPUTIME_ID;
	} else if (strcmp(clk, "wall")) {
		fprintf(stderr, "bm-malloc: unknown clock '%s' (wall, cpu)\n",
			clk);
		return 2;
	}
	if (!strcmp(shape, "ring"))
		t = ring_live(n);
	else if (!strcmp(shape, "wide"))
		t = wide_live(n);
	else if (!strcmp(shape, "one"))
		t = one_live(n);
	else {
		fprintf(stderr, "bm-malloc: unknown shape '%s' (one, ring, wide)\n",
			shape);
		return 2;
	}
	printf("%.2f\n", t * 1e9 / n);
	return 0;
}
