/* SPDX-License-Identifier: MIT */
#include "an_fate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int an_fate_write(const char *dir, int pid, int wstatus)
{
	char path[PATH_MAX], line[96];
	int fd, n, rc = 0;

	if (wstatus == -1 || !dir[0])
		return 0;
	if (WIFSIGNALED(wstatus))
		n = snprintf(line, sizeof(line), "pid=%d signal=%d core=%d\n",
			     pid, WTERMSIG(wstatus), WCOREDUMP(wstatus) ? 1 : 0);
	else
		n = snprintf(line, sizeof(line), "pid=%d exit=%d\n", pid,
			     WEXITSTATUS(wstatus));
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, AN_FATE_FILE) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	/* The directory is the run's own; a link planted there is refused. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	if (write(fd, line, (size_t)n) != n)
		rc = -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

static bool an_fate_read(const char *dir, struct an_fate *f)
{
	char path[PATH_MAX];
	FILE *in;
	int pid, code, core, got = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, AN_FATE_FILE) >=
	    sizeof(path))
		return false;
	in = fopen(path, "re");
	if (!in)
		return false;
	if (fscanf(in, "pid=%d signal=%d core=%d", &pid, &code, &core) == 3) {
		*f = (struct an_fate){.known = true, .signaled = true,
				      .core = core != 0, .pid = pid,
				      .code = code};
		got = 1;
	} else if (!fseek(in, 0, SEEK_SET) &&
		   fscanf(in, "pid=%d exit=%d", &pid, &code) == 2) {
		*f = (struct an_fate){.known = true, .pid = pid, .code = code};
		got = 1;
	}
	fclose(in);
	return got && pid > 0;
}

bool an_fate_find(const char *trace_dir, const char *top, struct an_fate *f)
{
	char dir[PATH_MAX];
	size_t ntop = strlen(top);

	*f = (struct an_fate){0};
	while (ntop > 1 && top[ntop - 1] == '/')
		ntop--;
	if ((size_t)snprintf(dir, sizeof(dir), "%s", trace_dir) >= sizeof(dir))
		return false;
	/* A run's trace lies a few levels down (ust/uid/UID/64-bit). */
	for (;;) {
		char *slash;

		if (an_fate_read(dir, f))
			return true;
		if (strlen(dir) <= ntop || strncmp(dir, top, ntop))
			return false;
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return false;
		*slash = '\0';
	}
}

const char *an_fate_signal(const struct an_fate *f, char *buf, size_t cap)
{
	const char *abbrev = f->signaled ? sigabbrev_np(f->code) : NULL;

	if (!f->signaled)
		snprintf(buf, cap, "%s", "");
	else if (abbrev)
		snprintf(buf, cap, "SIG%s", abbrev);
	else
		snprintf(buf, cap, "signal %d", f->code);
	return buf;
}

const char *an_fate_text(const struct an_fate *f, char *buf, size_t cap)
{
	char sig[32];
	const char *what = f->signaled ? strsignal(f->code) : NULL;

	if (!f->known)
		snprintf(buf, cap, "ended unrecorded");
	else if (!f->signaled)
		snprintf(buf, cap, "exited with status %d", f->code);
	else
		snprintf(buf, cap, "killed by %s%s%s%s%s",
			 an_fate_signal(f, sig, sizeof(sig)), what ? " (" : "",
			 what ? what : "", what ? ")" : "",
			 f->core ? ", core dumped" : "");
	return buf;
}
