// SPDX-License-Identifier: MIT
//
// fork() without exec while another thread churns the allocator (and so
// holds registry locks at random moments).  Each child allocates, launches
// and frees under its own pid; one child only calls async-signal-safe
// functions before _exit.  Exit 0 when every child exited 0.
#include <hip/hip_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

__global__ void bump(int *p)
{
	atomicAdd(p, 1);
}

static std::atomic<bool> stop{false};

static void churn()
{
	while (!stop) {
		void *p = malloc(64);
		float *d = nullptr;
		hipMalloc(&d, 256);
		hipFree(d);
		free(p);
	}
}

static int child_work()
{
	int *d = nullptr;
	char *p = (char *)malloc(1000);

	if (hipMalloc(&d, sizeof(int)) != hipSuccess)
		return 3;
	bump<<<1, 1>>>(d);
	if (hipGetLastError() != hipSuccess)
		return 4;
	hipFree(d);
	free(p);
	return 0;
}

int main(int argc, char **argv)
{
	int forks = argc > 1 ? atoi(argv[1]) : 4;
	std::thread t(churn);
	int bad = 0;

	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(child_work());
		int st = 0;
		waitpid(pid, &st, 0);
		bad += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	// A child that calls only async-signal-safe functions.
	pid_t pid = fork();
	if (pid == 0) {
		static const char msg[] = "safe child\n";
		(void)!write(1, msg, sizeof(msg) - 1);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	bad += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	stop = true;
	t.join();
	printf("forks=%d bad=%d\n", forks + 1, bad);
	return bad ? 1 : 0;
}
