// SPDX-License-Identifier: MIT
// Kernels on the virtual GPU's interpreter as a program sees them: printf
// from a kernel (the hostcall path: the kernel waits for the runtime's
// listener thread), and work-groups that race on one counter and one sum,
// whose results must not depend on how many threads ran the groups.
// Prints what it computed; exits 0 when every value is as expected.
#include <hip/hip_runtime.h>
#include <cstdio>

#define GROUPS 96
#define ITEMS 256
#define N (GROUPS * ITEMS)

__global__ void hello(int *out)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	if (i % 100 == 7)
		printf("work-item %d of group %d says hello\n", i, (int)blockIdx.x);
	out[i] = 3 * i;
}

__global__ void race(unsigned *counter, double *sum, double *pinned, unsigned *slot)
{
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	// every item takes a distinct ticket and leaves its mark there
	unsigned t = atomicAdd(counter, 1u);
	slot[t] = i + 1;
	atomicAdd(sum, 1.0);
	// fine-grained host memory: MI210's hardware FP atomics do nothing
	atomicAdd(pinned, 1.0);
}

int main()
{
	int *out, bad = 0;
	static int host[N];
	unsigned *counter, *slot;
	double *sum, *pinned;
	static unsigned marks[N];
	if (hipMalloc(&out, sizeof(host)) || hipMalloc(&counter, sizeof(*counter)) ||
	    hipMalloc(&slot, sizeof(marks)) || hipMalloc(&sum, sizeof(*sum)) ||
	    hipHostMalloc(&pinned, sizeof(*pinned), hipHostMallocCoherent)) {
		fprintf(stderr, "allocation failed\n");
		return 2;
	}
	hipLaunchKernelGGL(hello, dim3(GROUPS), dim3(ITEMS), 0, 0, out);
	hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost);
	for (int i = 0; i < N; i++)
		bad += host[i] != 3 * i;
	hipMemset(counter, 0, sizeof(*counter));
	hipMemset(slot, 0, sizeof(marks));
	hipMemset(sum, 0, sizeof(*sum));
	*pinned = 0;
	hipLaunchKernelGGL(race, dim3(GROUPS), dim3(ITEMS), 0, 0, counter, sum, pinned, slot);
	unsigned c;
	double s;
	hipMemcpy(&c, counter, sizeof(c), hipMemcpyDeviceToHost);
	hipMemcpy(&s, sum, sizeof(s), hipMemcpyDeviceToHost);
	hipMemcpy(marks, slot, sizeof(marks), hipMemcpyDeviceToHost);
	// each item's mark exactly once
	static unsigned char seen[N + 1];
	int dup = 0;
	for (int i = 0; i < N; i++) {
		dup += marks[i] == 0 || marks[i] > N || seen[marks[i]];
		if (marks[i] && marks[i] <= N)
			seen[marks[i]] = 1;
	}
	printf("hello: %d wrong; counter %u; sum %.1f; pinned sum %.1f; tickets %s\n", bad, c, s,
	       *pinned, dup ? "lost or repeated" : "each once");
	return bad || c != N || s != N || dup;
}
