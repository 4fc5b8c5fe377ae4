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
 */
#include "reg_unw.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#if defined(__x86_64__)
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
	reg_unw_bare(walk);
}
#else
void reg_unw_prime(void)
{
}
#endif
