// SPDX-License-Identifier: MIT
// A HIP program that places its atomic target through HSA itself, run
// against tests/fakehip and tests/fakehsa (test doubles): what the HSA
// calls did is what hipgrain's report must follow.
//   svm-coarse   malloc'd, then hsa_amd_svm_attributes_set(COARSE): quiet
//   svm-none     malloc'd and left fine: fp-atomic-fine-grain (XNACK on)
//   pool-coarse  from a coarse-grained pool: quiet
//   pool-fine    from a fine-grained device pool: fp-atomic-fine-grain
//   lock         malloc'd and hsa_amd_memory_lock'ed: fp-atomic-fine-grain
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void sum(const double *in, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		unsafeAtomicAdd(out, in[i]);
}

static void check(hsa_status_t rc, const char *what)
{
	if (rc != HSA_STATUS_SUCCESS) {
		fprintf(stderr, "%s failed: %d\n", what, (int)rc);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const int n = 64;
	double *in = nullptr, *out = nullptr;
	void *agent_ptr = nullptr;
	hsa_amd_memory_pool_t pool = {0};

	check(hsa_init(), "hsa_init");
	if (hipMalloc((void **)&in, n * sizeof(double)) != hipSuccess) {
		fprintf(stderr, "hipMalloc failed\n");
		return 1;
	}
	if (!strcmp(what, "pool-coarse") || !strcmp(what, "pool-fine")) {
		pool.handle = !strcmp(what, "pool-coarse") ? 2 : 3;
		check(hsa_amd_memory_pool_allocate(pool, 4096, 0, (void **)&out),
		      "hsa_amd_memory_pool_allocate");
	} else {
		out = (double *)aligned_alloc(4096, 4096);
		if (!strcmp(what, "svm-coarse")) {
			hsa_amd_svm_attribute_pair_t a = {
			    HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG,
			    HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED};
			check(hsa_amd_svm_attributes_set(out, 4096, &a, 1),
			      "hsa_amd_svm_attributes_set");
		} else if (!strcmp(what, "lock")) {
			check(hsa_amd_memory_lock(out, 4096, nullptr, 0,
						  &agent_ptr),
			      "hsa_amd_memory_lock");
		} else if (strcmp(what, "svm-none")) {
			fprintf(stderr, "usage: %s svm-coarse|svm-none|"
					"pool-coarse|pool-fine|lock\n", argv[0]);
			return 2;
		}
	}
	hipLaunchKernelGGL(sum, dim3(1), dim3(n), 0, 0, in, out, n);
	hipDeviceSynchronize();
	if (pool.handle)
		hsa_amd_memory_pool_free(out);
	else {
		if (agent_ptr)
			hsa_amd_memory_unlock(out);
		free(out);
	}
	hipFree(in);
	check(hsa_shut_down(), "hsa_shut_down");
	printf("hsa: %s done\n", what);
	return 0;
}
