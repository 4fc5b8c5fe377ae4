// SPDX-License-Identifier: MIT
// A whole node through HIP on the virtual GPU (preloaded): as many devices
// as the machine has GPU nodes, each named as its product; every pair of
// them peers (xGMI); hipMemcpyPeer moves the bytes; and a kernel on one
// device adds another device's memory into its own once peer access is on.
//
// usage: HIPGRAIN_VIRTUAL_GPU=NAME LD_PRELOAD=libhipgrain-vgpu.so
//        hg-vgpu-peer GPUS TARGET
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_ok;

static void ok(bool cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n_ok, what);
}

__global__ void add(int *dst, const int *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] += src[i];
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 64;
	int want = atoi(argv[1]), n = 0;
	hipGetDeviceCount(&n);
	// The first ROCm that knows the MI300s' target is 5.7.
	if (!strcmp(argv[2], "gfx942") && HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR < 507) {
		printf("ok 1 # SKIP HIP %d.%d knows no gfx942\n1..1\n", HIP_VERSION_MAJOR,
		       HIP_VERSION_MINOR);
		return 0;
	}
	ok(n == want, "a device per GPU node");
	bool named = true, peers = true;
	for (int i = 0; i < n; i++) {
		hipDeviceProp_t p;
		hipGetDeviceProperties(&p, i);
		named &= strstr(p.name, "AMD Instinct") != NULL;
		for (int j = 0; j < n; j++) {
			int can = 0;
			hipDeviceCanAccessPeer(&can, i, j);
			peers &= can == (i != j);
		}
	}
	ok(named, "each named as its product");
	ok(peers, "every pair of devices can peer");
	if (n < 2) {
		printf("1..%d\n", n_ok);
		return 0;
	}
	const int N = 1024;
	int *a = nullptr, *b = nullptr, h[N];
	hipSetDevice(0);
	hipMalloc(&a, sizeof(h));
	hipMemset(a, 1, sizeof(h));
	hipSetDevice(n - 1);
	hipMalloc(&b, sizeof(h));
	hipMemset(b, 2, sizeof(h));
	ok(hipMemcpyPeer(b, n - 1, a, 0, sizeof(h)) == hipSuccess, "hipMemcpyPeer from device 0");
	hipMemcpy(h, b, sizeof(h), hipMemcpyDeviceToHost);
	ok(h[0] == 0x01010101 && h[N - 1] == 0x01010101, "moved the bytes");
	ok(hipDeviceEnablePeerAccess(0, 0) == hipSuccess, "peer access to device 0 enabled");
	hipLaunchKernelGGL(add, dim3(N / 256), dim3(256), 0, 0, b, a, N);
	ok(hipDeviceSynchronize() == hipSuccess, "a kernel reading device 0's memory ran");
	hipMemcpy(h, b, sizeof(h), hipMemcpyDeviceToHost);
	ok(h[0] == 0x02020202 && h[N - 1] == 0x02020202, "and added it in");
	hipFree(b);
	hipSetDevice(0);
	hipFree(a);
	printf("1..%d\n", n_ok);
	return 0;
}
