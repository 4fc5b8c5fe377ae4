/* SPDX-License-Identifier: MIT */
/*
 * Launch forms and a module's unload, against the test double with a real
 * gfx90a code object (tests/codeobj's atomics, whose dadd_unsafe adds
 * doubles with a hardware FP atomic):
 *
 *   hg-modules CODE_OBJECT FAT_BINARY
 *
 * registers the fat binary's dadd_unsafe as hipcc's constructors would,
 * launches it on two streams with hipExtLaunchMultiKernelMultiDevice, loads
 * the code object as a module, launches it with hipHccModuleLaunchKernel,
 * unloads the module and launches its function again (refused), and makes
 * NULL calls.  Prints "NAME rc=N key=ADDR..." lines (decimal).
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define U(p) ((unsigned long)(uintptr_t)(p))
#define KERNEL "_Z11dadd_unsafePdPKdi"

void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *host_fn,
			   char *device_fn, const char *device_name,
			   unsigned int thread_limit, void *tid, void *bid,
			   dim3 *block, dim3 *grid, int *wsize);
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy,
				    uint32_t gz, uint32_t bx, uint32_t by,
				    uint32_t bz, size_t shm, hipStream_t st,
				    void **args, void **extra, hipEvent_t e0,
				    hipEvent_t e1);

static void *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	return buf;
}

/* The host function hipcc would have made: only its address matters. */
static char dadd_unsafe;

int main(int argc, char **argv)
{
	struct {
		uint32_t magic, version;
		const void *binary, *unused;
	} w = {0x48495046u, 1, NULL, NULL};
	double *acc = NULL, *x = NULL;
	int n = 256;
	void *args[] = {&acc, &x, &n};
	hipStream_t s1 = NULL, s2 = NULL;
	hipModule_t m = NULL;
	hipFunction_t f = NULL;
	hipError_t rc;

	if (argc != 3 || !(w.binary = slurp(argv[2])))
		return 2;
	__hipRegisterFunction(__hipRegisterFatBinary(&w), &dadd_unsafe, KERNEL,
			      KERNEL, (unsigned int)-1, NULL, NULL, NULL, NULL,
			      NULL);
	if (hipHostMalloc((void **)&acc, sizeof(double), 0) != hipSuccess ||
	    hipMalloc((void **)&x, n * sizeof(double)) != hipSuccess ||
	    hipStreamCreate(&s1) != hipSuccess ||
	    hipStreamCreate(&s2) != hipSuccess)
		return 1;
	printf("setup acc=%lu x=%lu fn=%lu s1=%lu s2=%lu\n", U(acc), U(x),
	       U(&dadd_unsafe), U(s1), U(s2));

	hipLaunchParams lp[2] = {
		{&dadd_unsafe, {4, 1, 1}, {64, 1, 1}, args, 0, s1},
		{&dadd_unsafe, {2, 1, 1}, {128, 1, 1}, args, 16, s2},
	};
	printf("hipExtLaunchMultiKernelMultiDevice rc=%d\n",
	       (int)hipExtLaunchMultiKernelMultiDevice(lp, 2, 0));
	printf("hipExtLaunchMultiKernelMultiDevice NULL rc=%d\n",
	       (int)hipExtLaunchMultiKernelMultiDevice(NULL, 0, 0));

	rc = hipModuleLoad(&m, argv[1]);
	if (rc == hipSuccess)
		rc = hipModuleGetFunction(&f, m, KERNEL);
	printf("hipModuleLoad rc=%d module=%lu function=%lu\n", (int)rc, U(m),
	       U(f));
	printf("hipHccModuleLaunchKernel rc=%d\n",
	       (int)hipHccModuleLaunchKernel(f, 256, 1, 1, 64, 1, 1, 0, s1,
					     args, NULL, NULL, NULL));
	printf("hipModuleUnload rc=%d\n", (int)hipModuleUnload(m));
	printf("hipModuleLaunchKernel unloaded rc=%d\n",
	       (int)hipModuleLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, s1, args,
					  NULL));
	printf("hipModuleUnload NULL rc=%d\n", (int)hipModuleUnload(NULL));
	return 0;
}
