/* SPDX-License-Identifier: MIT */
/*
 * One session daemon per node, user and job.  `mpirun -np 64 hipgrain run
 * -- app` starts 64 of us at once on a handful of nodes; each rank gets a
 * session of its own, but they share the node's daemon:
 *  - a rendezvous directory, $TMPDIR/hipgrain-UID/job-JOB (0700, ours),
 *    holds a lock file and the state: the daemon's pid, then the pids of
 *    the ranks using it;
 *  - the first rank starts the daemon (as root in a mount namespace of its
 *    own, as trc_daemon.c does; as a user with the rendezvous directory as
 *    LTTNG_HOME), the others join it (setns into that namespace, or the
 *    same LTTNG_HOME), and the last one to leave stops it;
 *  - ranks that died without leaving are pruned by pid on every change.
 * A daemon the machine already runs is used as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "trc_int.h"

#define MAX_MEMBERS 1024

struct state {
	pid_t daemon;
	size_t n;
	pid_t member[MAX_MEMBERS];
};

/* Alive and not a zombie waiting for a parent that has gone. */
static bool pid_alive(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/* A directory that must be ours alone: made 0700, or found so. */
static int own_dir(int at, const char *name)
{
	struct stat st;
	int fd;

	if (mkdirat(at, name, 0700) < 0 && errno != EEXIST)
		return -1;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

static int open_rendezvous(struct trc_shared *sh, const struct trc_job *j)
{
	const char *tmp = getenv("TMPDIR");
	char user[32], job[80];
	int base, top;

	/* Unix socket paths are short: keep the home shallow. */
	if (!tmp || *tmp != '/' || strlen(tmp) > 40)
		tmp = "/tmp";
	snprintf(user, sizeof(user), "hipgrain-%u", (unsigned)geteuid());
	snprintf(job, sizeof(job), "job-%.40s", j->job);
	base = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	top = base < 0 ? -1 : own_dir(base, user);
	sh->dir_fd = top < 0 ? -1 : own_dir(top, job);
	if (base >= 0)
		close(base);
	if (top >= 0)
		close(top);
	if (sh->dir_fd < 0) {
		trc_err("cannot use %s/%s/%s to share the node's session "
			"daemon: %s", tmp, user, job, strerror(errno));
		return -1;
	}
	snprintf(sh->dir, sizeof(sh->dir), "%s/%s/%s", tmp, user, job);
	return 0;
}

/* The lock, on a file still linked where we looked (the last rank out
 * removes it). */
static int lock(struct trc_shared *sh)
{
	for (;;) {
		struct stat a, b;
		int fd = openat(sh->dir_fd, "lock",
				O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

		if (fd < 0)
			return -1;
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR) {
				close(fd);
				return -1;
			}
		if (!fstat(fd, &a) && !fstatat(sh->dir_fd, "lock", &b, 0) &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			return fd;
		close(fd);
	}
}

static void read_state(int dir_fd, struct state *st)
{
	int fd = openat(dir_fd, "state", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	long v;

	memset(st, 0, sizeof(*st));
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (fscanf(f, "%ld", &v) == 1)
		st->daemon = (pid_t)v;
	while (st->n < MAX_MEMBERS && fscanf(f, "%ld", &v) == 1)
		if (pid_alive((pid_t)v))
			st->member[st->n++] = (pid_t)v;
	fclose(f);
}

static int write_state(int dir_fd, const struct state *st)
{
	int fd = openat(dir_fd, "state.new",
			O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	int rc;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "%ld\n", (long)st->daemon);
	for (size_t i = 0; i < st->n; i++)
		fprintf(f, "%ld\n", (long)st->member[i]);
	rc = fclose(f);
	return rc || renameat(dir_fd, "state.new", dir_fd, "state") ? -1 : 0;
}

/*
 * Enter the daemon's world: its mount namespace (root) or its home.
 * setns() puts the root and working directories at the namespace's root:
 * in a chroot (a container without a mount namespace of its own, a test
 * chroot) that is outside it, so both are set back, as nsenter --root does.
 */
static int enter(struct trc_shared *sh, pid_t daemon)
{
	char path[64], cwd[PATH_MAX];
	int fd, root, rc;

	if (geteuid() != 0)
		return setenv("LTTNG_HOME", sh->dir, 1);
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	snprintf(path, sizeof(path), "/proc/%ld/root", (long)daemon);
	root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%ld/ns/mnt", (long)daemon);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || root < 0) {
		rc = -1;
	} else {
		rc = setns(fd, CLONE_NEWNS);
		if (rc == 0)
			rc = fchdir(root) || chroot(".") || chdir(cwd) ? -1 : 0;
	}
	if (fd >= 0)
		close(fd);
	if (root >= 0)
		close(root);
	return rc;
}

static int start(struct trc_shared *sh, struct state *st)
{
	struct trc_daemon d = {.lock_fd = -1};

	if (geteuid() == 0) {
		if (trc_unshare_mounts() < 0 || trc_hide_root_rundir() < 0) {
			trc_err("cannot make a private mount namespace for "
				"the node's session daemon: %s",
				strerror(errno));
			return -1;
		}
	} else if (setenv("LTTNG_HOME", sh->dir, 1) < 0) {
		return -1;
	}
	if (trc_start_sessiond(&d, true) < 0)
		return -1;
	st->daemon = d.pid;
	st->n = 0;
	return 0;
}

static int join_locked(struct trc_shared *sh)
{
	struct state st;

	read_state(sh->dir_fd, &st);
	if (pid_alive(st.daemon)) {
		if (enter(sh, st.daemon) < 0) {
			trc_err("cannot join the node's session daemon (pid "
				"%ld): %s", (long)st.daemon, strerror(errno));
			return -1;
		}
	} else if (start(sh, &st) < 0) {
		return -1;
	}
	if (lttng_session_daemon_alive() != 1) {
		trc_err("the node's session daemon (pid %ld) is not reachable",
			(long)st.daemon);
		return -1;
	}
	sh->daemon = st.daemon;
	if (st.n == MAX_MEMBERS) {
		trc_err("more than %d ranks share one node's daemon",
			MAX_MEMBERS);
		return -1;
	}
	st.member[st.n++] = getpid();
	if (write_state(sh->dir_fd, &st) < 0) {
		trc_err("cannot record this rank in %s: %s", sh->dir,
			strerror(errno));
		return -1;
	}
	sh->member = true;
	return 0;
}

int trc_shared_join(struct trc_shared *sh, const struct trc_job *j)
{
	int lk, rc;

	memset(sh, 0, sizeof(*sh));
	sh->dir_fd = -1;
	/* A daemon the machine (or the user) already runs serves us all. */
	if (lttng_session_daemon_alive() == 1)
		return 0;
	/* The last rank of an earlier launch may remove the rendezvous
	 * under us: then it is made anew. */
	for (int tries = 0;; tries++) {
		if (open_rendezvous(sh, j) < 0)
			return -1;
		lk = lock(sh);
		if (lk >= 0)
			break;
		close(sh->dir_fd);
		sh->dir_fd = -1;
		if (errno != ENOENT || tries == 8) {
			trc_err("cannot lock %s/lock: %s", sh->dir,
				strerror(errno));
			return -1;
		}
	}
	rc = join_locked(sh);
	close(lk);
	return rc;
}

static void stop_daemon(pid_t pid)
{
	struct timespec nap = {.tv_nsec = 20 * 1000 * 1000};

	kill(pid, SIGTERM);
	for (int i = 0; i < 500 && pid_alive(pid); i++)
		nanosleep(&nap, NULL);
	if (pid_alive(pid)) {
		trc_err("session daemon %ld ignored SIGTERM; killing it",
			(long)pid);
		kill(pid, SIGKILL);
	}
	/* Our own child (we started it): reap it; else its parent will. */
	waitpid(pid, NULL, WNOHANG);
}

/* The last rank out: the daemon, its home and the rendezvous go. */
static void remove_rendezvous(struct trc_shared *sh)
{
	unlinkat(sh->dir_fd, "state", 0);
	if (geteuid() != 0) {
		char home[sizeof(sh->dir) + 8];

		snprintf(home, sizeof(home), "%s/.lttng", sh->dir);
		nftw(home, trc_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	unlinkat(sh->dir_fd, "lock", 0);
	rmdir(sh->dir);
	*strrchr(sh->dir, '/') = '\0';
	rmdir(sh->dir); /* hipgrain-UID, if no other job uses it */
}

void trc_shared_leave(struct trc_shared *sh)
{
	struct state st;
	size_t k = 0;
	int lk;

	if (sh->dir_fd < 0)
		return;
	lk = sh->member ? lock(sh) : -1;
	if (lk >= 0) {
		read_state(sh->dir_fd, &st);
		for (size_t i = 0; i < st.n; i++)
			if (st.member[i] != getpid())
				st.member[k++] = st.member[i];
		st.n = k;
		if (st.n == 0) {
			if (pid_alive(st.daemon))
				stop_daemon(st.daemon);
			remove_rendezvous(sh);
		} else if (write_state(sh->dir_fd, &st) < 0) {
			trc_err("cannot update %s/state: %s", sh->dir,
				strerror(errno));
		}
		close(lk);
	}
	close(sh->dir_fd);
	sh->dir_fd = -1;
	sh->member = false;
}
