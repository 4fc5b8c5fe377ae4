// SPDX-License-Identifier: MIT
//
// hg_ranks: an MPI job for the `jobs` suite.  Every rank sums with hardware
// FP atomics (unsafeAtomicAdd on a double: flat_atomic_add_f64 on gfx90a)
// into an accumulator whose memory depends on the rank:
//   even ranks  hipHostMalloc (fine-grained host memory): fp-atomic-fine-grain
//   odd ranks   hipMalloc (coarse device memory): the near miss
// so a merged report must say the finding held on the even ranks only.
// Each rank adds 1.0 n times and prints what it got, with the devices it
// sees and the PCI bus of the one it used: on a GPU that executes the
// kernel (the virtual node's interpreter) the sum is n on the odd ranks
// and 0 on the even ones, whose atomics did nothing; the launcher's local
// rank is printed beside it, so a test can check the GPU a rank was given.
//
// Usage: hg_ranks [fork-helper] [exit-rank N CODE]
//   fork-helper  rank 1 forks a helper that closes every descriptor it did
//                not open (as MPI launchers do in their children) and execs
//                /bin/true; the rank waits for it.
//   exit-rank N CODE  rank N exits with CODE after the barrier.
// All ranks meet in MPI_Barrier after their launch, so every rank of the
// job is alive at once.
#include <mpi.h>

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(call)                                                            \
	do {                                                                   \
		hipError_t e_ = (call);                                        \
		if (e_ != hipSuccess) {                                        \
			fprintf(stderr, "%s failed: %s\n", #call,              \
				hipGetErrorName(e_));                          \
			MPI_Abort(MPI_COMM_WORLD, 1);                          \
		}                                                              \
	} while (0)

__global__ void sum(const double *in, double *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		unsafeAtomicAdd(acc, in[i]);
}

static void fork_helper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl;
		int top = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
				  rl.rlim_cur < 65536
			      ? (int)rl.rlim_cur
			      : 65536;

		for (int fd = 3; fd < top; fd++)
			close(fd);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	const int n = 1024;
	static double ones[n];
	double total = 0;
	char bus[64];
	const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
	int rank = 0, devices = 0, exit_rank = -1, exit_code = 0;
	bool helper = false;
	double *in, *acc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "fork-helper"))
			helper = true;
		else if (!strcmp(argv[i], "exit-rank") && i + 2 < argc) {
			exit_rank = atoi(argv[i + 1]);
			exit_code = atoi(argv[i + 2]);
			i += 2;
		}
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK(hipMalloc(&in, n * sizeof(double)));
	if (rank % 2 == 0)
		CHECK(hipHostMalloc(&acc, sizeof(double), 0));
	else
		CHECK(hipMalloc(&acc, sizeof(double)));
	for (int i = 0; i < n; i++)
		ones[i] = 1.0;
	CHECK(hipMemcpy(in, ones, sizeof(ones), hipMemcpyHostToDevice));
	CHECK(hipMemcpy(acc, &total, sizeof(total), hipMemcpyHostToDevice));
	hipLaunchKernelGGL(sum, dim3(n / 256), dim3(256), 0, 0, in, acc, n);
	CHECK(hipGetLastError());
	CHECK(hipDeviceSynchronize());
	CHECK(hipMemcpy(&total, acc, sizeof(total), hipMemcpyDeviceToHost));
	CHECK(hipGetDeviceCount(&devices));
	// The test double has no bus to name: "-" there.
	if (hipDeviceGetPCIBusId(bus, sizeof(bus), 0) != hipSuccess)
		strcpy(bus, "-");
	if (helper && rank == 1)
		fork_helper();
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank % 2 == 0)
		CHECK(hipHostFree(acc));
	else
		CHECK(hipFree(acc));
	CHECK(hipFree(in));
	MPI_Finalize();
	printf("rank %d: local rank %s, %d device%s, bus %s, sum %g of %d\n",
	       rank, local ? local : "-", devices, devices == 1 ? "" : "s", bus,
	       total, n);
	return rank == exit_rank ? exit_code : 0;
}
