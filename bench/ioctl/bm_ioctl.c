/* SPDX-License-Identifier: MIT */
/*
 * An ioctl on a descriptor that is not the GPU driver's, the call every
 * program keeps making (terminals, sockets, files) under the driver front
 * end: N calls of FIONREAD on a pipe.  Prints nanoseconds per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	int p[2], avail;

	if (pipe(p))
		return 1;
	for (long i = 0; i < n / 10; i++)
		ioctl(p[0], FIONREAD, &avail);
	double t0 = now();
	for (long i = 0; i < n; i++)
		ioctl(p[0], FIONREAD, &avail);
	double t1 = now();
	printf("%.2f\n", (t1 - t0) * 1e9 / n);
	return 0;
}
