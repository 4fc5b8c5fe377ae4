/* SPDX-License-Identifier: MIT */
/*
 * The session daemon.  A reachable one is reused.  Otherwise a private one
 * is started and stopped by its pid, and it must not be reachable by (or
 * killed by) a concurrent `hipgrain run`:
 *  - as a user, a fresh 0700 LTTNG_HOME gives it its own sockets;
 *  - as root, lttng-sessiond always uses /var/run/lttng, so we enter a
 *    private mount namespace with a tmpfs over /var/run/lttng; daemon and
 *    program (our children) inherit it and see only each other.  The tmpfs
 *    dies with the namespace: nothing to clean up even after a SIGKILL.
 *  - root without mount namespaces (no CAP_SYS_ADMIN in a container):
 *    runs take turns on a lock file instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "trc_int.h"

#define ROOT_RUNDIR	"/var/run/lttng"
#define ROOT_LOCK	"/run/lock/hipgrain-sessiond.lock"
#define READY_TIMEOUT_S 20

/* A mount namespace of our own, nothing changed in it yet: the daemon
 * check that follows still sees the machine's /var/run/lttng. */
int trc_unshare_mounts(void)
{
	if (unshare(CLONE_NEWNS) < 0)
		return -1;
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

int trc_hide_root_rundir(void)
{
	if (mkdir(ROOT_RUNDIR, 0755) < 0 && errno != EEXIST)
		return -1;
	return mount("hipgrain-lttng", ROOT_RUNDIR, "tmpfs",
		     MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700,size=8m");
}

static int take_root_lock(struct trc_daemon *d)
{
	d->lock_fd =
	    open(ROOT_LOCK, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (d->lock_fd < 0) {
		trc_err("cannot open %s: %s", ROOT_LOCK, strerror(errno));
		return -1;
	}
	if (flock(d->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		trc_info("another hipgrain run holds %s; waiting", ROOT_LOCK);
		while (flock(d->lock_fd, LOCK_EX) < 0)
			if (errno != EINTR || trc_signal_pending())
				return -1;
	}
	return 0;
}

static int make_private_home(struct trc_daemon *d)
{
	/* Unix socket paths are short (108 bytes): keep the home shallow. */
	const char *tmp = getenv("TMPDIR");

	if (!tmp || *tmp != '/' || strlen(tmp) > 40)
		tmp = "/tmp";
	snprintf(d->home, sizeof(d->home), "%s/hipgrain-lttng-XXXXXX", tmp);
	if (!mkdtemp(d->home)) {
		trc_err("cannot create a private LTTNG_HOME in %s: %s", tmp,
			strerror(errno));
		d->home[0] = '\0';
		return -1;
	}
	return setenv("LTTNG_HOME", d->home, 1);
}

/* Root: a namespace if we may, else the lock, taken before looking for a
 * daemon (the one we would find might be another run's, about to go). */
static int prepare_root(struct trc_daemon *d)
{
	if (trc_unshare_mounts() == 0) {
		d->private_ns = true;
		return 0;
	}
	d->ns_errno = errno;
	return take_root_lock(d);
}

/* Make room for a private daemon nobody else can reach. */
static int isolate(struct trc_daemon *d)
{
	if (geteuid() != 0)
		return make_private_home(d);
	if (d->private_ns && trc_hide_root_rundir() < 0) {
		trc_err("cannot mount a private %s: %s", ROOT_RUNDIR,
			strerror(errno));
		return -1;
	}
	if (!d->private_ns)
		trc_info(
		    "cannot make a private mount namespace for the session "
		    "daemon (%s); runs as root take turns on %s",
		    strerror(d->ns_errno), ROOT_LOCK);
	return 0;
}

static const char *sessiond_path(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("LTTNG_SESSIOND_PATH");

	if (env && *env)
		return env;
	if (trc_prog_find_quiet("lttng-sessiond", buf, sizeof(buf)) == 0)
		return buf;
	return "/usr/bin/lttng-sessiond";
}

/* Child: own process group so the terminal's ^C reaches the program, not
 * the daemon that still has to flush its trace. */
static void exec_sessiond(const char *path, const sigset_t *mask, bool shared)
{
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	/* Should hipgrain be killed outright, the daemon goes too; a daemon
	 * shared by a node's ranks outlives the rank that started it. */
	if (!shared)
		prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execl(path, "lttng-sessiond", "--sig-parent", "--no-kernel", "--quiet",
	      (char *)NULL);
	_exit(127);
}

/* --sig-parent: SIGUSR1 from the daemon once its sockets accept clients. */
static int wait_ready(pid_t pid, const char *path)
{
	struct timespec ts = {.tv_sec = READY_TIMEOUT_S};
	siginfo_t si;
	sigset_t set;
	int st;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		int sig = sigtimedwait(&set, &si, &ts);

		if (sig == SIGUSR1 && si.si_pid == pid)
			return 0;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			trc_err("%s exited during start-up (%s %d)", path,
				WIFSIGNALED(st) ? "signal" : "status",
				WIFSIGNALED(st) ? WTERMSIG(st)
						: WEXITSTATUS(st));
			return -1;
		}
		if (sig < 0 && errno == EAGAIN) {
			trc_err("%s did not become ready within %d s", path,
				READY_TIMEOUT_S);
			return -1;
		}
	}
}

int trc_start_sessiond(struct trc_daemon *d, bool shared)
{
	const char *path = sessiond_path();
	sigset_t block, old;

	if (access(path, X_OK) < 0) {
		trc_err(
		    "no session daemon is running and %s cannot be started: "
		    "%s (is lttng-tools installed?)",
		    path, strerror(errno));
		return -1;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	d->pid = fork();
	if (d->pid == 0)
		exec_sessiond(path, &old, shared);
	if (d->pid < 0 || wait_ready(d->pid, path) < 0) {
		if (d->pid < 0)
			trc_err("cannot fork: %s", strerror(errno));
		else
			waitpid(d->pid, NULL, WNOHANG);
		d->pid = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	trc_info("started a private session daemon (pid %ld)", (long)d->pid);
	return 0;
}

int trc_daemon_up(struct trc_daemon *d)
{
	memset(d, 0, sizeof(*d));
	d->lock_fd = -1;
	if (geteuid() == 0 && prepare_root(d) < 0)
		return -1;
	if (lttng_session_daemon_alive() == 1)
		return 0;
	if (isolate(d) < 0 || trc_start_sessiond(d, false) < 0)
		return -1;
	if (lttng_session_daemon_alive() != 1) {
		trc_err("the private session daemon is not reachable");
		return -1;
	}
	return 0;
}

/* Whether pid is one of LTTng's processes in the mount namespace ns. */
static bool lttng_in(pid_t pid, const char *ns)
{
	char path[64], link[64], comm[32] = "";
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/ns/mnt", (long)pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	if (strcmp(link, ns))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	return !strncmp(comm, "lttng", 5);
}

/*
 * The daemon's helpers (lttng-consumerd, its run-as process) are orphaned
 * when it exits and may still be on their way out: in our private mount
 * namespace (root), wait until none is left, so that nothing of the run
 * outlives `hipgrain run`.  A helper still there after ~5 s is killed.
 */
static void wait_helpers(void)
{
	struct timespec nap = {.tv_nsec = 20 * 1000 * 1000};
	char ns[64];
	ssize_t n;

	if (geteuid() != 0)
		return;
	n = readlink("/proc/self/ns/mnt", ns, sizeof(ns) - 1);
	if (n <= 0)
		return;
	ns[n] = '\0';
	for (int round = 0; round < 250; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		bool any = false;

		while (d && (e = readdir(d))) {
			pid_t pid = (pid_t)atol(e->d_name);

			if (pid <= 0 || pid == getpid() || !lttng_in(pid, ns))
				continue;
			any = true;
			if (round == 249)
				kill(pid, SIGKILL);
		}
		if (d)
			closedir(d);
		if (!any)
			return;
		nanosleep(&nap, NULL);
	}
}

static void stop_sessiond(pid_t pid)
{
	struct timespec nap = {.tv_nsec = 20 * 1000 * 1000};
	int st;

	kill(pid, SIGTERM);
	for (int i = 0; i < 500; i++) { /* ~10 s, then no more patience */
		if (waitpid(pid, &st, WNOHANG) == pid) {
			wait_helpers();
			return;
		}
		nanosleep(&nap, NULL);
	}
	trc_err("session daemon %ld ignored SIGTERM; killing it", (long)pid);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	wait_helpers();
}

int trc_rm_entry(const char *p, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(p) : unlink(p)) < 0 && errno != ENOENT)
		trc_err("cannot remove %s: %s", p, strerror(errno));
	return 0;
}

void trc_daemon_down(struct trc_daemon *d)
{
	if (d->pid > 0)
		stop_sessiond(d->pid);
	d->pid = 0;
	if (d->home[0])
		nftw(d->home, trc_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	d->home[0] = '\0';
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	d->lock_fd = -1;
}
