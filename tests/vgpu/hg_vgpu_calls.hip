// SPDX-License-Identifier: MIT
//
// What a program asks of a GPU, on the virtual one: the device count and
// properties, then one of each call test_vgpu.py checks.  Prints "key value"
// lines for test_vgpu.py; exits 0 whatever the runtime answers.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void add(double *x)
{
	atomicAdd(x, 1.0);
}

static void call(const char *name, hipError_t e)
{
	printf("%s %s\n", name, hipGetErrorName(e));
}

// Bytes through the device and back: a fill, an odd-sized copy each way
// and one device to device; "same" when every byte came back as sent.
static void bytes(double *d)
{
	enum { N = 4099 };
	static unsigned char out[N], in[N];
	for (int i = 0; i < N; i++)
		out[i] = (unsigned char)(i * 7 + 1);
	unsigned char *e = nullptr;
	call("hipMalloc(second)", hipMalloc(&e, N));
	call("hipMemset", hipMemset(d, 0x5a, N));
	call("hipMemcpy(fill)", hipMemcpy(in, d, N, hipMemcpyDeviceToHost));
	int filled = 1;
	for (int i = 0; i < N; i++)
		filled &= in[i] == 0x5a;
	printf("memset %s\n", filled ? "same" : "differs");
	call("hipMemcpy(odd-in)", hipMemcpy(d, out, N, hipMemcpyHostToDevice));
	call("hipMemcpyDtoD", hipMemcpy(e, d, N, hipMemcpyDeviceToDevice));
	call("hipMemcpy(odd-out)", hipMemcpy(in, e, N, hipMemcpyDeviceToHost));
	printf("odd-copy %s\n", memcmp(in, out, N) ? "differs" : "same");
	call("hipFree(second)", hipFree(e));
}

int main()
{
	int n = -1;
	call("hipGetDeviceCount", hipGetDeviceCount(&n));
	printf("devices %d\n", n);
	if (n < 1)
		return 0;
	hipDeviceProp_t p;
	call("hipGetDeviceProperties", hipGetDeviceProperties(&p, 0));
	printf("name %s\narch %s\ncus %d\nmemory %zu\n", p.name, p.gcnArchName,
	       p.multiProcessorCount, p.totalGlobalMem);
	double *d = nullptr, *h = nullptr, *m = nullptr, v = 42, w = 0;
	call("hipMalloc", hipMalloc(&d, 8192));
	call("hipMemcpyHtoD", hipMemcpy(d, &v, sizeof(v), hipMemcpyHostToDevice));
	call("hipMemcpyDtoH", hipMemcpy(&w, d, sizeof(w), hipMemcpyDeviceToHost));
	printf("roundtrip %g\n", w);
	bytes(d);
	unsigned flags[] = {0, hipHostMallocPortable, hipHostMallocMapped,
			    hipHostMallocWriteCombined, hipHostMallocCoherent,
			    hipHostMallocNonCoherent, hipHostMallocNumaUser};
	for (unsigned f : flags) {
		char name[48];
		snprintf(name, sizeof(name), "hipHostMalloc(0x%x)", f);
		call(name, hipHostMalloc(&h, 4096, f));
		call("hipHostFree", hipHostFree(h));
	}
	call("hipMallocManaged", hipMallocManaged(&m, 1 << 20, hipMemAttachGlobal));
	call("hipMemAdvise", hipMemAdvise(m, 1 << 20, hipMemAdviseSetCoarseGrain, 0));
	call("hipMemPrefetchAsync", hipMemPrefetchAsync(m, 1 << 20, 0, 0));
	hipLaunchKernelGGL(add, dim3(1), dim3(1), 0, 0, d);
	call("hipLaunchKernel", hipGetLastError());
	call("hipDeviceSynchronize", hipDeviceSynchronize());
	call("hipFree(managed)", hipFree(m));
	call("hipFree", hipFree(d));
	return 0;
}
