/* SPDX-License-Identifier: MIT */
/*
 * libunwind checks that an address is readable by writing one byte from it
 * into a pipe of its own.  Since 1.8.0 it opens that pipe lazily, on the
 * first unwind that needs a check (one through a frame without call-frame
 * information), and a thread that finds it not yet open opens it again,
 * closing the descriptors another thread has just made: that thread's
 * next write then goes into a pipe with no reader, and SIGPIPE kills the
 * traced program (libunwind issue 715, fixed by its commit 346fefe1,
 * after 1.8.3; sid's 1.8.1 has it).  The descriptors closed by mistake
 * may also be the program's own by then.
 *
 * So the pipe is opened once, here, at start-up, before the program has
 * threads that unwind: one unwind through a frame of ours that has no
 * call-frame information.  Later threads find it open and never reopen it.
 * An older libunwind opens it on its first unwind of any kind, which this
 * also is.
 *
 * A program may then close that pipe itself: daemons and launchers close
 * every descriptor they did not open.  libunwind would reopen the pipe on
 * its next check, in the very race above, and its reopening first closes
 * the old numbers, which by then may be the program's own files, and its
 * checks write into them.  So the descriptors are remembered here, and
 * the preload's close() keeps them open while they still are that pipe,
 * telling the program its close succeeded (reg_unw_keeps).
 */
#include "reg_unw.h"
#include "reg.h" /* reg_unw_keeps, the hooks' door */

#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

/* libunwind's pipe, read and write ends, and the pipe's inode: -1 while
 * unknown, and once the program has put something else at either number. */
static atomic_int unw_fd[2] = {-1, -1};
static dev_t unw_dev;
static ino_t unw_ino;

static bool same_pipe(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISFIFO(st.st_mode) && st.st_dev == unw_dev &&
	       st.st_ino == unw_ino;
}

bool reg_unw_keeps(int fd)
{
	/* Acquire: the inode was stored before the numbers. */
	int rd = atomic_load_explicit(&unw_fd[0], memory_order_acquire);
	int wr = atomic_load_explicit(&unw_fd[1], memory_order_acquire);

	if (fd < 0 || (fd != rd && fd != wr))
		return false;
	if (same_pipe(fd))
		return true;
	/* Not the pipe any more (the program dup2()ed onto it): its own. */
	atomic_store_explicit(&unw_fd[fd == rd ? 0 : 1], -1, memory_order_relaxed);
	return false;
}

#if defined(__x86_64__)
/* Both numbers hold one pipe, each end as libunwind opens it: without
 * blocking, closed on exec. */
static void remember(const int p[2])
{
	struct stat a, b;
	int fr = fcntl(p[0], F_GETFL), fw = fcntl(p[1], F_GETFL);

	if (fstat(p[0], &a) || fstat(p[1], &b) || !S_ISFIFO(a.st_mode) ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino || fr < 0 || fw < 0 ||
	    (fr & (O_ACCMODE | O_NONBLOCK)) != (O_RDONLY | O_NONBLOCK) ||
	    (fw & (O_ACCMODE | O_NONBLOCK)) != (O_WRONLY | O_NONBLOCK) ||
	    !(fcntl(p[0], F_GETFD) & FD_CLOEXEC) ||
	    !(fcntl(p[1], F_GETFD) & FD_CLOEXEC))
		return;
	unw_dev = a.st_dev;
	unw_ino = a.st_ino;
	atomic_store_explicit(&unw_fd[0], p[0], memory_order_release);
	atomic_store_explicit(&unw_fd[1], p[1], memory_order_release);
}

/* The two numbers libunwind's pipe will take: the kernel gives the lowest
 * free ones, so a pipe opened and closed just before takes them too. */
static bool free_pair(int p[2])
{
	if (pipe2(p, O_CLOEXEC))
		return false;
	/* The system call: the preload's close() is this file's client. */
	syscall(SYS_close, p[0]);
	syscall(SYS_close, p[1]);
	return true;
}

/* reg_unw_bare(fn): calls fn() from a frame that keeps a frame pointer but
 * has no CFI, so libunwind's DWARF step fails there and it falls back to
 * the frame chain, checking each address it reads. */
__asm__(".text\n"
	".globl reg_unw_bare\n"
	".hidden reg_unw_bare\n"
	".type reg_unw_bare, @function\n"
	"reg_unw_bare:\n"
	"	endbr64\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	call *%rdi\n"
	"	pop %rbp\n"
	"	ret\n"
	".size reg_unw_bare, .-reg_unw_bare\n");
void reg_unw_bare(void (*fn)(void));

static void walk(void)
{
	unw_context_t uc;
	unw_cursor_t cur;

	/* Past the bare frame is enough: the check happens on that step. */
	if (unw_getcontext(&uc) || unw_init_local(&cur, &uc))
		return;
	for (int i = 0; i < 4 && unw_step(&cur) > 0; i++)
		;
}

void reg_unw_prime(void)
{
	int p[2];
	bool known = free_pair(p);

	reg_unw_bare(walk);
	if (known)
		remember(p);
}
#else
void reg_unw_prime(void)
{
}
#endif
