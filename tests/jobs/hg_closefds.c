/* SPDX-License-Identifier: MIT */
/*
 * A launcher's child in miniature: fork, then close every descriptor but
 * 0-2 with closefrom(3) or close_range(3, ~0U, 0), as MPI launchers and
 * Python's subprocess do before exec.  The child reports what it owned
 * (two /dev/null descriptors opened before the fork: they must be closed)
 * and how many other descriptors survived (lttng-ust's, under hipgrain).
 *
 * usage: hg_closefds closefrom|close_range
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int count_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n - 1; /* the directory's own descriptor */
}

int main(int argc, char **argv)
{
	int mine[2] = {open("/dev/null", O_RDONLY), open("/dev/null", O_RDONLY)};
	int st;
	pid_t pid;

	if (argc != 2 || mine[0] < 0 || mine[1] < 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		if (!strcmp(argv[1], "closefrom"))
			closefrom(3);
		else if (close_range(3, ~0U, 0) < 0)
			_exit(3);
		printf("owned-closed=%d kept=%d\n",
		       fcntl(mine[0], F_GETFD) < 0 && errno == EBADF &&
			   fcntl(mine[1], F_GETFD) < 0,
		       count_open() - 3);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 4;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
