/* SPDX-License-Identifier: MIT */
/*
 * Starting the program (fork + execve, no shell) and passing it the
 * signals meant for it.  A signal the terminal generated (^C, ^\) already
 * reached the program through its process group, so only signals sent to
 * hipgrain by someone (kill, a batch system) are forwarded; otherwise the
 * program would see every ^C twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trc_int.h"

static const int fwd_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFWD (sizeof(fwd_sigs) / sizeof(fwd_sigs[0]))

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t pending;
static struct sigaction saved[NFWD];

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	pending = sig;
	if (child_pid > 0 && si->si_code != SI_KERNEL)
		kill((pid_t)child_pid, sig);
}

void trc_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: waitpid must return */
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFWD; i++)
		sigaction(fwd_sigs[i], &sa, &saved[i]);
}

void trc_signals_restore(void)
{
	child_pid = 0;
	for (size_t i = 0; i < NFWD; i++)
		sigaction(fwd_sigs[i], &saved[i], NULL);
}

int trc_signal_pending(void)
{
	return pending;
}

/* In the child: the program starts with the dispositions and mask hipgrain
 * itself was given; exec failures travel back through a CLOEXEC pipe. */
static void child(int errfd, int gatefd, const char *path,
		  char *const argv[], char *const envp[])
{
	sigset_t none;
	char go;
	int e;

	if (gatefd >= 0) {
		ssize_t n;

		do
			n = read(gatefd, &go, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(TRC_EXIT_INTERNAL); /* the gate said no */
	}
	for (size_t i = 0; i < NFWD; i++)
		sigaction(fwd_sigs[i], &saved[i], NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(path, argv, envp);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Let the child go on to its exec, or (ok false) make it exit. */
static void open_gate(int fd, bool ok)
{
	if (fd < 0)
		return;
	if (ok && write(fd, "g", 1) != 1)
		trc_err("cannot start the program: %s", strerror(errno));
	close(fd);
}

int trc_spawn(const char *path, char *const argv[], char *const envp[],
	      pid_t *pid, int (*gate)(pid_t pid, void *arg), void *arg)
{
	int fds[2], gfd[2] = {-1, -1}, e = 0;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) < 0 || (gate && pipe2(gfd, O_CLOEXEC) < 0)) {
		trc_err("cannot create a pipe: %s", strerror(errno));
		return TRC_EXIT_INTERNAL;
	}
	*pid = fork();
	if (*pid == 0) {
		if (gfd[1] >= 0)
			close(gfd[1]);
		child(fds[1], gfd[0], path, argv, envp);
	}
	close(fds[1]);
	if (gfd[0] >= 0)
		close(gfd[0]);
	if (*pid < 0) {
		close(fds[0]);
		open_gate(gfd[1], false);
		trc_err("cannot fork: %s", strerror(errno));
		return TRC_EXIT_INTERNAL;
	}
	child_pid = *pid;
	if (gate && gate(*pid, arg) < 0) {
		open_gate(gfd[1], false);
		close(fds[0]);
		waitpid(*pid, NULL, 0);
		child_pid = 0;
		return TRC_EXIT_INTERNAL;
	}
	open_gate(gfd[1], true);
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n != (ssize_t)sizeof(e))
		return 0; /* the exec closed the pipe: it runs */
	waitpid(*pid, NULL, 0);
	child_pid = 0;
	trc_err("%s: cannot execute: %s", path, strerror(e));
	return e == ENOENT ? TRC_EXIT_NOTFOUND : TRC_EXIT_NOEXEC;
}

int trc_wait(pid_t pid, int *wstatus)
{
	int st;

	*wstatus = -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			trc_err("lost track of the program: %s",
				strerror(errno));
			child_pid = 0;
			return TRC_EXIT_INTERNAL;
		}
	child_pid = 0;
	*wstatus = st;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
