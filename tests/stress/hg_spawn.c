/* SPDX-License-Identifier: MIT */
/* Children started with posix_spawn and with vfork+exec: each is a program
 * of its own, traced under its own pid.  usage: hg_spawn PROG ARG */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *args[] = {argv[1], argv[2], NULL};
	int st1 = 0, st2 = 0;
	pid_t a, b;

	if (argc < 3)
		return 64;
	if (posix_spawn(&a, argv[1], NULL, NULL, args, environ))
		return 1;
	waitpid(a, &st1, 0);
	b = vfork();
	if (b == 0) {
		execve(argv[1], args, environ);
		_exit(127);
	}
	waitpid(b, &st2, 0);
	printf("spawned %d and %d\n", WEXITSTATUS(st1), WEXITSTATUS(st2));
	return WEXITSTATUS(st1) || WEXITSTATUS(st2);
}
