// SPDX-License-Identifier: MIT
// One host thread per GPU, as multi-GPU programs without MPI are written:
// each thread picks its GPU with hipSetDevice and launches there.  The
// worker on GPU 1 reads, at system scope, a flag in GPU 0's hipMalloc
// memory (peer access on), after the main thread's hipSetDevice(0): the
// process's last hipSetDevice is not the launching thread's GPU, so only
// the launch's own record can say where the kernel ran.
//
//   peer   the worker on GPU 1 reads GPU 0's memory: a peer's coarse-grained
//          memory, which coarse-sync must name as such.
//   own    the worker on GPU 0 and main's last hipSetDevice(1): its own
//          GPU's memory, never judged as a peer's.
//   stream no worker: main makes a stream on GPU 1, sets GPU 0 again and
//          launches on that stream, which runs on GPU 1: a peer's memory,
//          though the thread's device is the flag's own.
//
// Exit 0 with "OK" when the kernel read the flag's value; 64 on bad usage;
// 2 when HIP refused a call (a line names it).
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CHECK(x)                                                               \
	do {                                                                   \
		hipError_t e_ = (x);                                           \
		if (e_ != hipSuccess) {                                        \
			printf("%s: %s\n", #x, hipGetErrorString(e_));         \
			exit(2);                                               \
		}                                                              \
	} while (0)

__global__ void read_flag(int *flag, int *out)
{
	if (threadIdx.x || blockIdx.x)
		return;
	*out = __hip_atomic_load(flag, __ATOMIC_ACQUIRE,
				 __HIP_MEMORY_SCOPE_SYSTEM);
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int step; // 1: the worker is on its GPU; 2: main moved; 3: done
static int *flag, *out, worker_gpu, result;

static void wait_for(int s)
{
	pthread_mutex_lock(&m);
	while (step < s)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
}

static void go(int s)
{
	pthread_mutex_lock(&m);
	step = s;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
	(void)arg;
	CHECK(hipSetDevice(worker_gpu));
	go(1);
	wait_for(2);
	read_flag<<<1, 64>>>(flag, out);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpy(&result, out, sizeof(result), hipMemcpyDeviceToHost));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int n = 0, one = 7;
	bool peer = argc == 2 && !strcmp(argv[1], "peer");
	bool stream = argc == 2 && !strcmp(argv[1], "stream");

	if (argc != 2 || (!peer && !stream && strcmp(argv[1], "own")))
		return 64;
	CHECK(hipGetDeviceCount(&n));
	if (n < 2) {
		printf("thread_gpus: %d GPU, two wanted\n", n);
		return 2;
	}
	worker_gpu = peer || stream ? 1 : 0;
	CHECK(hipSetDevice(0));
	CHECK(hipMalloc(&flag, sizeof(int)));
	CHECK(hipMemcpy(flag, &one, sizeof(one), hipMemcpyHostToDevice));
	CHECK(hipSetDevice(worker_gpu));
	if (peer || stream)
		CHECK(hipDeviceEnablePeerAccess(0, 0));
	CHECK(hipMalloc(&out, sizeof(int)));
	if (stream) {
		hipStream_t st;

		CHECK(hipStreamCreate(&st));
		CHECK(hipSetDevice(0));
		read_flag<<<1, 64, 0, st>>>(flag, out);
		CHECK(hipGetLastError());
		CHECK(hipStreamSynchronize(st));
		CHECK(hipMemcpy(&result, out, sizeof(result),
				hipMemcpyDeviceToHost));
		CHECK(hipStreamDestroy(st));
	} else {
		pthread_create(&t, NULL, worker, NULL);
		wait_for(1);
		CHECK(hipSetDevice(peer ? 0 : 1));
		go(2);
		pthread_join(t, NULL);
	}
	CHECK(hipFree(out));
	CHECK(hipFree(flag));
	printf("thread_gpus %s: read %d, %s\n", argv[1], result,
	       result == one ? "OK" : "MISMATCH");
	return 0;
}
