/* SPDX-License-Identifier: MIT */
/*
 * A program for `hipgrain run` to trace: it emits hipgrain:warning events
 * through the real provider (no preload needed) and then behaves as the
 * test asks: exits, crashes, forks, floods or waits for a signal.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hg_tp.h"

static void emit(unsigned code, const char *msg)
{
	lttng_ust_tracepoint(hipgrain, warning, (uint16_t)code, msg);
}

static void emit_n(long n, const char *msg)
{
	for (long i = 0; i < n; i++)
		emit((unsigned)(i & 0xffff), msg);
}

/* Tell the test what it needs to know about this process. */
static void facts(void)
{
	char ns[64] = "";
	ssize_t k = readlink("/proc/self/ns/mnt", ns, sizeof(ns) - 1);
	const char *pre = getenv("LD_PRELOAD");
	const char *to = getenv("LTTNG_UST_REGISTER_TIMEOUT");
	const char *bl = getenv("LTTNG_UST_ALLOW_BLOCKING");
	const char *home = getenv("LTTNG_HOME");

	if (k > 0)
		ns[k] = '\0';
	printf("pid=%ld\nmntns=%s\npreload=%s\nmarker=%d\n", (long)getpid(), ns,
	       pre ? pre : "",
	       dlsym(RTLD_DEFAULT, "hgrun_preload_marker") != NULL);
	printf("register_timeout=%s\nallow_blocking=%s\nlttng_home=%s\n",
	       to ? to : "", bl ? bl : "", home ? home : "");
	fflush(stdout);
}

/* Something for lttng_ust_dl to see. */
static void load_libm(void)
{
	void *h = dlopen("libm.so.6", RTLD_NOW);

	if (h)
		dlclose(h);
}

static _Noreturn void wait_forever(void)
{
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

static int wait_term(void)
{
	struct sigaction sa = {.sa_handler = on_term};

	sigaction(SIGTERM, &sa, NULL);
	emit(1, "waiting");
	printf("ready\n");
	fflush(stdout);
	while (!got_term)
		pause();
	emit(2, "got SIGTERM");
	return 42;
}

static int crash(void)
{
	struct rlimit none = {0, 0};

	setrlimit(RLIMIT_CORE, &none);
	emit(7, "last before crash");
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return 1;
}

static int forked(void)
{
	char msg[64];
	pid_t pid;
	int st;

	snprintf(msg, sizeof(msg), "parent %ld", (long)getpid());
	emit(1, msg);
	pid = fork();
	if (pid == 0) {
		snprintf(msg, sizeof(msg), "child %ld", (long)getpid());
		emit(2, msg);
		_exit(0);
	}
	printf("child=%ld\n", (long)pid);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "events";
	long n = argc > 2 ? atol(argv[2]) : 3;

	facts();
	if (!strcmp(mode, "events")) {
		load_libm();
		emit_n(n, "hello");
		return argc > 3 ? atoi(argv[3]) : 0;
	}
	if (!strcmp(mode, "crash"))
		return emit_n(n, "hello"), crash();
	if (!strcmp(mode, "term"))
		return wait_term();
	if (!strcmp(mode, "wait"))
		wait_forever();
	if (!strcmp(mode, "fork"))
		return forked();
	fprintf(stderr, "hgrun_app: unknown mode %s\n", mode);
	return 99;
}
