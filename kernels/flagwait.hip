// SPDX-License-Identifier: MIT
//
// flagwait: a kernel that waits for the host mid-kernel (issue 49).  One
// work-item publishes "ready" to the host, then spins on a flag the host
// sets once it has seen ready; the host waits for ready (a bounded number
// of polls, then it sets the flag anyway), sets the flag, and waits for
// the kernel.  Granularity is about exactly this: only fine-grained
// memory is coherent with the host while a kernel runs.  Coarse-grained
// memory is seen by the GPU through its L2, which keeps the line the
// first read brought in: the spin reads the stale flag for ever.
//
//   flagwait            the flag in hipHostMalloc memory (fine-grained):
//   flagwait host       the kernel sees the host's write and ends; no
//                       finding.
//   flagwait noncoherent   hipHostMallocNonCoherent (coarse-grained host
//                       memory): on a card the kernel hangs; on the
//                       virtual GPU the spin stops at the dispatch's
//                       instruction budget and coarse-sync fires.
//   flagwait device     hipMalloc: the host writes the flag with
//                       hipMemcpyAsync on a second stream.  On a card the
//                       copy lands in memory past the L2 that holds the
//                       line; the virtual GPU holds no lines of device
//                       memory (doc/testing.md), so it completes.
//   flagwait managed    hipMallocManaged: the host writes the flag itself.
//   flagwait exchange   no host part: two work-groups hand a value to each
//                       other through hipHostMallocNonCoherent memory at
//                       device scope, which works on a card (its compute
//                       units share one L2) and must on the virtual GPU,
//                       whose threads each keep lines of their own.
//   flagwait publish    the other way: the kernel stores a value to
//                       hipHostMallocNonCoherent memory and spins on a flag
//                       in hipHostMalloc memory that the host sets once it
//                       has seen the value.  The store stays in the GPU's
//                       L2 until the kernel ends: the host never sees it
//                       while the kernel runs, and the spin stops at the
//                       budget on the virtual GPU (hangs on a card).
//   flagwait publish-fence   the same with __threadfence_system() after the
//                       store: where a system-scope release writes the L2
//                       back (MI200, MI300) the host sees the value and the
//                       kernel ends; MI100 has no such instruction.
//   flagwait publish-fine    the value in hipHostMalloc memory: seen at once.
//
// Exit 0 with the result line, "OK" when the kernel saw the flag and
// "MISMATCH" when it did not (it was stopped, or never ran).
#include <unistd.h>

#include "demo.h"

// The flag and ready in lines of their own: 32 ints apart is 128 bytes.
#define FLAG 0
#define READY 32
#define OUT 64
#define DATA 96
#define INTS 128

// The flag's line is read before ready is published, and ready is in
// hipHostMalloc memory (fine-grained), the channel that works on every
// product: otherwise a host quick to answer could write the flag before
// the spin's first read, which would then see it even in coarse-grained
// memory; and a coarse-grained ready would itself stay in the GPU's L2
// until a write-back (never, on MI100) and the host would not answer.
__global__ void wait_flag(volatile int *sync, int *ready)
{
	if (threadIdx.x || blockIdx.x)
		return;
	if (sync[FLAG] == 0)
		__hip_atomic_store(&ready[READY], 1, __ATOMIC_RELEASE,
				   __HIP_MEMORY_SCOPE_SYSTEM);
	while (sync[FLAG] == 0)
		;
	sync[OUT] = sync[FLAG] + 1;
	__threadfence_system();
}

// Group 0 reads DATA (its line now held), lets group 1 go, waits for it
// to have written DATA, and reads it again; device-scope acquire and
// release are all the two need where both sit behind one L2.
__global__ void exchange(int *sync)
{
	if (threadIdx.x)
		return;
	if (blockIdx.x == 0) {
		int before = sync[DATA];
		__hip_atomic_store(&sync[FLAG], 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
		while (!__hip_atomic_load(&sync[READY], __ATOMIC_ACQUIRE,
					  __HIP_MEMORY_SCOPE_AGENT))
			;
		sync[OUT] = sync[DATA] + before + 1;
	} else {
		while (!__hip_atomic_load(&sync[FLAG], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT))
			;
		sync[DATA] = 1;
		__hip_atomic_store(&sync[READY], 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
	}
}

// The value, then the wait for the host's answer in fine-grained memory.
template <bool fence>
__global__ void publish(int *value, volatile int *answer)
{
	if (threadIdx.x || blockIdx.x)
		return;
	value[DATA] = 1;
	if (fence)
		__threadfence_system();
	while (answer[FLAG] == 0)
		;
	answer[OUT] = answer[FLAG] + 1;
}

// The host watches for the value while the kernel runs, and answers once
// it has seen it; a kernel that ends first (stopped, on the virtual GPU)
// ends the watch.  Returns what the kernel wrote once it saw the answer.
static int run_publish(int mode)
{
	int *value, *answer;
	size_t bytes = INTS * sizeof(int);
	CHECK(hipHostMalloc(&value, bytes,
			    mode == 7 ? hipHostMallocDefault : hipHostMallocNonCoherent));
	CHECK(hipHostMalloc(&answer, bytes, hipHostMallocDefault));
	memset(value, 0, bytes);
	memset(answer, 0, bytes);
	if (mode == 6)
		publish<true><<<1, 64>>>(value, answer);
	else
		publish<false><<<1, 64>>>(value, answer);
	CHECK_LAUNCH();
	bool seen = false;
	while (!(seen = ((volatile int *)value)[DATA] != 0) && hipStreamQuery(0) == hipErrorNotReady)
		;
	if (seen)
		((volatile int *)answer)[FLAG] = 1;
	CHECK(hipDeviceSynchronize());
	int out = answer[OUT];
	printf("flagwait: the host %s the kernel's value while it ran\n",
	       seen ? "saw" : "did not see");
	CHECK(hipHostFree(value));
	CHECK(hipHostFree(answer));
	return out;
}

// Up to about ten seconds for the kernel to say it is running: a flag
// set before the kernel's first read of it is seen in any memory, so the
// host must not give up while a loaded machine is still starting the
// kernel.
static bool wait_ready(volatile int *sync)
{
	for (int i = 0; i < 5000; i++) {
		if (sync[READY])
			return true;
		usleep(2000);
	}
	return false;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = {"host", "noncoherent", "device", "managed",
					    "exchange", "publish", "publish-fence",
					    "publish-fine"};
	int mode = argc > 1 ? demo_pick(argv[1], modes, 8) : 0;
	if (mode < 0)
		demo_usage(argv[0], "[host|noncoherent|device|managed|exchange|publish|"
				    "publish-fence|publish-fine]");
	if (mode >= 5) {
		int out = run_publish(mode);
		printf("flagwait %s: the kernel %s the host's answer %s\n", modes[mode],
		       out == 2 ? "saw" : "did not see", demo_verdict(out == 2));
		return 0;
	}
	int *sync, *ready = nullptr, out = 0;
	size_t bytes = INTS * sizeof(int);
	if (mode != 4) {
		CHECK(hipHostMalloc(&ready, bytes, hipHostMallocDefault));
		memset(ready, 0, bytes);
	}
	if (mode == 0)
		CHECK(hipHostMalloc(&sync, bytes, hipHostMallocDefault));
	else if (mode == 1 || mode == 4)
		CHECK(hipHostMalloc(&sync, bytes, hipHostMallocNonCoherent));
	else if (mode == 2)
		CHECK(hipMalloc(&sync, bytes));
	else
		CHECK(hipMallocManaged(&sync, bytes));
	if (mode == 2)
		CHECK(hipMemset(sync, 0, bytes));
	else
		memset(sync, 0, bytes);
	// Made only where it is used: ROCr pins a page for a new stream, which
	// the report would show in every variant.
	hipStream_t side = nullptr;
	if (mode == 2)
		CHECK(hipStreamCreateWithFlags(&side, hipStreamNonBlocking));
	if (mode == 4)
		exchange<<<2, 64>>>(sync);
	else
		wait_flag<<<1, 64>>>(sync, ready);
	CHECK_LAUNCH();
	static const int one = 1;
	if (mode == 2) {
		CHECK(hipMemcpyAsync(sync + FLAG, &one, sizeof(one), hipMemcpyHostToDevice,
				     side));
		CHECK(hipStreamSynchronize(side));
	} else if (mode != 4) {
		wait_ready(ready);
		((volatile int *)sync)[FLAG] = one;
	}
	CHECK(hipDeviceSynchronize());
	if (mode == 2)
		CHECK(hipMemcpy(&out, sync + OUT, sizeof(out), hipMemcpyDeviceToHost));
	else
		out = sync[OUT];
	printf("flagwait %s: the kernel %s the %s %s\n", modes[mode],
	       out == 2 ? "saw" : "did not see",
	       mode == 4 ? "other group's value" : "host's flag", demo_verdict(out == 2));
	if (side)
		CHECK(hipStreamDestroy(side));
	if (ready)
		CHECK(hipHostFree(ready));
	if (mode == 0 || mode == 1 || mode == 4)
		CHECK(hipHostFree(sync));
	else
		CHECK(hipFree(sync));
	return 0;
}
