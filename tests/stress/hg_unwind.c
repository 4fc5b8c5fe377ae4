// SPDX-License-Identifier: MIT
//
// Threads whose first stack captures all come at once, each through a frame
// without call-frame information, where libunwind checks addresses with a
// pipe of its own (registry/reg_unw.c).  The pipes this process holds both
// ends of are listed before the threads start and after they end: hipgrain
// must have opened libunwind's before the program had threads, so the two
// lists are the same, and no thread ever reopened it under another.
//
// With "closefds FILE", the program first closes every descriptor past
// stderr, as daemons do (each close of a pipe it holds both ends of must
// succeed), then opens FILE, and each thread also makes and frees one
// hipMalloc block (against the test double); once the threads are done it
// writes a line to FILE and reads it back: libunwind must neither reopen
// its pipe over the program's numbers nor write into the program's file
// ("file=ok").
//
// usage: hg_unwind THREADS [closefds FILE]
//        (prints "self-pipes before=N after=M same=0|1 [closed=ok|bad file=ok|bad]")
#include <dirent.h>
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (1 << 20) /* above HIPGRAIN_STACK_THRESHOLD: a stack each */
#define MAX_PIPES 64

#if defined(__x86_64__)
__asm__(".text\n"
	".globl bare_call\n"
	".type bare_call, @function\n"
	"bare_call:\n"
	"	endbr64\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	call *%rdi\n"
	"	pop %rbp\n"
	"	ret\n"
	".size bare_call, .-bare_call\n");
void bare_call(void (*fn)(void));
#else
static void bare_call(void (*fn)(void))
{
	fn();
}
#endif

static pthread_barrier_t go;
static volatile int failed;
static int with_hip;
/* Called through a pointer the compiler cannot see through, so that the
 * allocation is not optimised away with its free. */
static void *(*volatile alloc_fn)(size_t) = malloc;

static void allocate(void)
{
	char *p = alloc_fn(BIG);

	if (!p)
		failed = 1;
	else
		p[0] = 1;
	free(p);
	if (with_hip) {
		void *d = NULL;

		if (hipMalloc(&d, BIG) != hipSuccess || hipFree(d) != hipSuccess)
			failed = 1;
	}
}

static void *thread_main(void *unused)
{
	(void)unused;
	pthread_barrier_wait(&go);
	bare_call(allocate);
	return NULL;
}

/* The inodes of the pipes this process holds a read and a write end of. */
static int self_pipes(unsigned long *ino)
{
	unsigned long rd[MAX_PIPES], wr[MAX_PIPES];
	int nr = 0, nw = 0, n = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], link[64], info[300];
		unsigned long i, flags = 0;
		ssize_t len;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "pipe:[%lu]", &i) != 1)
			continue;
		snprintf(info, sizeof(info), "/proc/self/fdinfo/%s", e->d_name);
		f = fopen(info, "r");
		while (f && fscanf(f, "%63s", path) == 1)
			if (!strcmp(path, "flags:") && fscanf(f, "%lo", &flags) == 1)
				break;
		if (f)
			fclose(f);
		if ((flags & 3) == 1 && nw < MAX_PIPES)
			wr[nw++] = i;
		else if ((flags & 3) == 0 && nr < MAX_PIPES)
			rd[nr++] = i;
	}
	if (d)
		closedir(d);
	for (int a = 0; a < nr; a++)
		for (int b = 0; b < nw; b++)
			if (rd[a] == wr[b] && n < MAX_PIPES)
				ino[n++] = rd[a];
	return n;
}

/* Is fd one end of a pipe among ino[0..n)? */
static int in_pipes(int fd, const unsigned long *ino, int n)
{
	char path[64], link[64];
	unsigned long i;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return 0;
	link[len] = '\0';
	if (sscanf(link, "pipe:[%lu]", &i) != 1)
		return 0;
	for (int k = 0; k < n; k++)
		if (ino[k] == i)
			return 1;
	return 0;
}

/* Closes every descriptor past stderr, as a daemon does; 0 when each
 * close of a pipe in ino[] said it succeeded. */
static int close_all(const unsigned long *ino, int n)
{
	int bad = 0;

	for (int fd = 3; fd < 1024; fd++) {
		int mine = in_pipes(fd, ino, n);

		if (close(fd) != 0 && mine)
			bad = 1;
	}
	return bad;
}

/* Writes a line to fd and reads the file back: 0 when it holds just that. */
static int file_intact(int fd)
{
	static const char line[] = "written by the program\n";
	char back[sizeof(line) + 64];
	ssize_t got;

	if (write(fd, line, sizeof(line) - 1) != (ssize_t)sizeof(line) - 1 ||
	    lseek(fd, 0, SEEK_SET) != 0)
		return 1;
	got = read(fd, back, sizeof(back));
	return got != (ssize_t)sizeof(line) - 1 || memcmp(back, line, (size_t)got);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 32;
	unsigned long before[MAX_PIPES], after[MAX_PIPES];
	pthread_t t[256];
	int nb, na, same;

	int closefds = argc > 3 && !strcmp(argv[2], "closefds");
	int closed_bad = 0, file_bad = 0, fd = -1;

	if (threads < 1 || threads > 256 || (argc > 2 && !closefds))
		return 2;
	nb = self_pipes(before);
	if (closefds) {
		with_hip = 1;
		closed_bad = close_all(before, nb);
		fd = open(argv[3], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return 2;
	}
	pthread_barrier_init(&go, NULL, (unsigned)threads);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	na = self_pipes(after);
	same = na == nb && !memcmp(before, after, sizeof(*before) * (size_t)nb);
	if (closefds)
		file_bad = file_intact(fd);
	printf("self-pipes before=%d after=%d same=%d", nb, na, same);
	if (closefds)
		printf(" closed=%s file=%s", closed_bad ? "bad" : "ok",
		       file_bad ? "bad" : "ok");
	printf("\n");
	return failed || !same || closed_bad || file_bad;
}
