// SPDX-License-Identifier: MIT
// A producer on one GPU and a consumer on another, both kernels running
// at once: the consumer on GPU 1 reads the flag's line, says it is
// running, and spins on the flag with plain (volatile) loads; the host
// then starts the producer on GPU 0, which writes a value and the flag
// with a release at system scope.  The consumer, once it sees the flag,
// acquires at system scope and reads the value.
//
//   fine    flag and value in hipHostMalloc memory (fine-grained): both
//           GPUs reach memory past their L2s, the consumer sees the flag
//           and reads 42.
//   coarse  flag and value in GPU 0's hipMalloc memory, which GPU 1 reaches
//           through peer access: GPU 1's L2 keeps the flag's line, as it
//           keeps system memory's, and the plain spin never sees the write
//           (on the virtual GPU: until the dispatch's instruction budget).
//
// Exit 0 with "OK" when the consumer read the value, "MISMATCH" when it
// did not; 64 on bad usage; 2 when HIP refused a call (a line names it).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHECK(x)                                                               \
	do {                                                                   \
		hipError_t e_ = (x);                                           \
		if (e_ != hipSuccess) {                                        \
			printf("%s: %s\n", #x, hipGetErrorString(e_));         \
			exit(2);                                               \
		}                                                              \
	} while (0)

// In ints, each in a 128-byte line of its own.
#define FLAG 0
#define VALUE 32
#define INTS 64
#define READY 0
#define OUT 32

__global__ void consume(int *x, int *sync)
{
	if (threadIdx.x || blockIdx.x)
		return;
	volatile int *v = x;
	if (v[FLAG] == 0)
		__hip_atomic_store(&sync[READY], 1, __ATOMIC_RELEASE,
				   __HIP_MEMORY_SCOPE_SYSTEM);
	while (v[FLAG] == 0)
		;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	sync[OUT] = v[VALUE];
	__threadfence_system();
}

__global__ void produce(int *x)
{
	if (threadIdx.x || blockIdx.x || !x)
		return;
	x[VALUE] = 42;
	__hip_atomic_store(&x[FLAG], 1, __ATOMIC_RELEASE,
			   __HIP_MEMORY_SCOPE_SYSTEM);
}

// Up to about ten seconds for the consumer to say it runs: a flag written
// before its first read is seen in any memory.
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
	int n = 0, *x, *sync;
	bool coarse = argc == 2 && !strcmp(argv[1], "coarse");

	if (argc != 2 || (!coarse && strcmp(argv[1], "fine")))
		return 64;
	CHECK(hipGetDeviceCount(&n));
	if (n < 2) {
		printf("peer_flag: %d GPU, two wanted\n", n);
		return 2;
	}
	CHECK(hipSetDevice(0));
	if (coarse) {
		CHECK(hipMalloc(&x, INTS * sizeof(int)));
		CHECK(hipMemset(x, 0, INTS * sizeof(int)));
	} else {
		CHECK(hipHostMalloc(&x, INTS * sizeof(int), hipHostMallocDefault));
		memset(x, 0, INTS * sizeof(int));
	}
	CHECK(hipHostMalloc(&sync, INTS * sizeof(int), hipHostMallocDefault));
	memset(sync, 0, INTS * sizeof(int));
	// The producer's code loaded on GPU 0 before the consumer waits.
	produce<<<1, 64>>>(nullptr);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipSetDevice(1));
	if (coarse)
		CHECK(hipDeviceEnablePeerAccess(0, 0));
	consume<<<1, 64>>>(x, sync);
	CHECK(hipGetLastError());
	wait_ready(sync);
	CHECK(hipSetDevice(0));
	produce<<<1, 64>>>(x);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipSetDevice(1));
	CHECK(hipDeviceSynchronize());
	int out = ((volatile int *)sync)[OUT];
	printf("peer_flag %s: the consumer on GPU 1 read %d, %s\n", argv[1],
	       out, out == 42 ? "OK" : "MISMATCH");
	if (coarse)
		CHECK(hipFree(x));
	else
		CHECK(hipHostFree(x));
	CHECK(hipHostFree(sync));
	return 0;
}
