/* SPDX-License-Identifier: MIT */
/*
 * The malloc+free path: N pairs over a small working set of sizes, as a
 * program's hot loop would make them.  Prints nanoseconds per pair.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	void *volatile sink;
	double t0, t1;

	for (long i = 0; i < n / 10; i++) /* warm the allocator and tables */
		free(malloc(16 + (i & 15) * 16));
	t0 = now();
	for (long i = 0; i < n; i++) {
		sink = malloc(16 + (i & 15) * 16);
		free(sink);
	}
	t1 = now();
	printf("%.2f\n", (t1 - t0) * 1e9 / n);
	return 0;
}
