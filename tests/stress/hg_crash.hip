// SPDX-License-Identifier: MIT
//
// Seed 000, managed-memory experiment 1: malloc memory handed to a kernel
// with XNACK off.  On an MI200 the runtime then stops the process with
// "Memory access fault by GPU ... Page not present" and SIGABRT.  The test
// double never runs kernels, so after the launch this program dies the way
// the real one would (abort), or by SIGSEGV or SIGKILL, to check that the
// trace stays readable to its last event and the report explains why.
#include <hip/hip_runtime.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void vadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
	const int n = 1 << 16;
	const char *how = argc > 1 ? argv[1] : "abort";
	float *a = (float *)malloc(n * sizeof(float));
	float *b = (float *)malloc(n * sizeof(float));
	float *c = (float *)malloc(n * sizeof(float));

	for (int i = 0; i < n; i++)
		a[i] = b[i] = 1.0f;
	vadd<<<n / 256, 256>>>(c, a, b, n);
	hipDeviceSynchronize();
	fprintf(stderr, "Memory access fault by GPU (emulated: %s)\n", how);
	if (!strcmp(how, "segv"))
		raise(SIGSEGV);
	else if (!strcmp(how, "kill"))
		kill(getpid(), SIGKILL);
	abort();
}
