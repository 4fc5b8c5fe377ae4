// SPDX-License-Identifier: MIT
//
// A program that outlives its tracer: threads allocate and free without
// pause (one event each with HIPGRAIN_HOST_EVENTS=all), and a thread forks
// children that exec this program again, while the test stops LTTng's
// daemons under it.  It runs until STOPFILE appears, so that the test,
// not a clock, decides when the daemons go.  Its exit status is its own
// (OUTLIVE_STATUS) when every child's was too; a signal that reached a
// child is printed and changes the status.
//
// usage: hg_outlive THREADS STOPFILE     hg_outlive --child ROUNDS
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTLIVE_STATUS 3
#define CHILD_STATUS 5
#define CHILD_ROUNDS "2000"

static atomic_int stop;
static atomic_long forks, bad;
static char self[4096];

static void churn(long rounds)
{
	for (long i = 0; rounds < 0 ? !atomic_load(&stop) : i < rounds; i++) {
		void *p = malloc(16 + (size_t)(i % 512) * 8);
		free(p);
	}
}

static void *flood(void *unused)
{
	(void)unused;
	churn(-1);
	return NULL;
}

/* One child at a time, each an exec of this program. */
static void spawn_one(void)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execl(self, "hg_outlive", "--child", CHILD_ROUNDS, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		atomic_fetch_add(&bad, 1);
		return;
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	atomic_fetch_add(&forks, 1);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != CHILD_STATUS) {
		atomic_fetch_add(&bad, 1);
		printf("child %ld: %s %d\n", (long)pid,
		       WIFSIGNALED(st) ? "signal" : "status",
		       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
}

static void *spawner(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop))
		spawn_one();
	return NULL;
}

static void wait_for(const char *path)
{
	struct timespec nap = {.tv_nsec = 5 * 1000 * 1000};

	while (access(path, F_OK) < 0)
		nanosleep(&nap, NULL);
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	int n;

	if (argc == 3 && !strcmp(argv[1], "--child")) {
		churn(atol(argv[2]));
		return CHILD_STATUS;
	}
	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 63) {
		fprintf(stderr, "usage: hg_outlive THREADS STOPFILE\n");
		return 2;
	}
	if (!realpath("/proc/self/exe", self))
		return 2;
	spawn_one(); /* a child that started while the daemons were up */
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, flood, NULL);
	pthread_create(&t[n], NULL, spawner, NULL);
	printf("flooding\n");
	fflush(stdout);
	wait_for(argv[2]);
	atomic_store(&stop, 1);
	for (int i = 0; i <= n; i++)
		pthread_join(t[i], NULL);
	spawn_one(); /* and one that starts after they are gone */
	printf("forks=%ld bad=%ld\n", atomic_load(&forks), atomic_load(&bad));
	return atomic_load(&bad) ? 1 : OUTLIVE_STATUS;
}
