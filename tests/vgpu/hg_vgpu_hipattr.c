/* SPDX-License-Identifier: MIT */
/*
 * What HIP itself answers for hipDeviceAttributeHostNativeAtomicSupported
 * on the virtual GPU, through the machine's real libamdhip64: HIP 6
 * answers from the link info of the CPU's fine-grained pool (the same
 * flags hg-vgpu-link reads through ROCr), so a program asking whether its
 * atomics reach host memory learns the variant's AtomicOps.  HIP 5.2 has
 * no answer for it on any GPU (hipErrorInvalidValue, its attribute switch
 * ends in the default case), which is why the analyzer never takes the
 * link from a program's own question.  Releases between say what they say
 * as a diagnostic, not checked: none is tested here.
 *
 * usage: HIPGRAIN_VIRTUAL_GPU=NAME[:OPTION,...] LD_PRELOAD=libhipgrain-vgpu.so
 *        hg-vgpu-hipattr ATOMICS(0|1)
 */
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include "tap.h"

int main(int argc, char **argv)
{
	const char *name = getenv("HIPGRAIN_VIRTUAL_GPU");
	if (argc != 2 || !name)
		return 64;
	int atomics = atoi(argv[1]), n = 0, v = -1;
	if (hipGetDeviceCount(&n) != hipSuccess || n == 0) {
		printf("ok 1 # SKIP %s: this HIP knows no such GPU\n", name);
		printf("1..1\n");
		return 0;
	}
	hipError_t e = hipDeviceGetAttribute(&v, hipDeviceAttributeHostNativeAtomicSupported, 0);
#if HIP_VERSION_MAJOR >= 6
	ok(e == hipSuccess && v == atomics, "%s: HIP %d.%d says host-native atomics %s (%s, %d)",
	   name, HIP_VERSION_MAJOR, HIP_VERSION_MINOR, atomics ? "yes" : "no",
	   hipGetErrorName(e), v);
#elif HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR == 2
	(void)atomics;
	ok(e == hipErrorInvalidValue, "%s: HIP 5.2 has no answer for it (%s)", name,
	   hipGetErrorName(e));
#else
	printf("# %s: HIP %d.%d answers %s, %d\n", name, HIP_VERSION_MAJOR, HIP_VERSION_MINOR,
	       hipGetErrorName(e), v);
	ok(e != hipSuccess || v == atomics, "%s: an answer, if any, is the link's", name);
#endif
	return done();
}
