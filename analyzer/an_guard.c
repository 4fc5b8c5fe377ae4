/* SPDX-License-Identifier: MIT */
#include "an_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

static const int an_guard_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define AN_GUARD_NSIGS (sizeof(an_guard_sigs) / sizeof(an_guard_sigs[0]))

static struct sigaction an_guard_prev[AN_GUARD_NSIGS];
static stack_t an_guard_prev_stack;
static sigjmp_buf *volatile an_guard_env;
static volatile sig_atomic_t an_guard_depth_ours, an_guard_sig;
/* Its own stack: a parser's runaway recursion faults on the normal one. */
static char an_guard_stack[64 * 1024];
static const void *an_guard_kept[64];
static unsigned an_guard_nkept;

static void an_guard_restore(void)
{
	for (size_t i = 0; i < AN_GUARD_NSIGS; i++)
		sigaction(an_guard_sigs[i], &an_guard_prev[i], NULL);
	sigaltstack(&an_guard_prev_stack, NULL);
}

static void an_guard_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (!an_guard_env || an_guard_depth_ours) {
		/* Ours: the faulting instruction runs again under the old one.
		 */
		an_guard_restore();
		return;
	}
	an_guard_sig = sig;
	siglongjmp(*an_guard_env, 1);
}

static void an_guard_install(void)
{
	struct sigaction sa = {.sa_sigaction = an_guard_handler,
			       .sa_flags = SA_SIGINFO | SA_ONSTACK};
	stack_t ss = {.ss_sp = an_guard_stack,
		      .ss_size = sizeof(an_guard_stack)};

	sigemptyset(&sa.sa_mask);
	sigaltstack(&ss, &an_guard_prev_stack);
	for (size_t i = 0; i < AN_GUARD_NSIGS; i++)
		sigaction(an_guard_sigs[i], &sa, &an_guard_prev[i]);
}

int an_guard_call(int (*fn)(void *), void *arg, int *sig)
{
	sigjmp_buf env, *outer = an_guard_env;
	sig_atomic_t ours = an_guard_depth_ours;
	int rc;

	if (!outer)
		an_guard_install();
	an_guard_env = &env;
	if (sigsetjmp(env, 1)) {
		rc = AN_GUARD_CRASHED;
		*sig = an_guard_sig;
		an_guard_depth_ours = ours;
	} else {
		rc = fn(arg);
	}
	an_guard_env = outer;
	if (!outer)
		an_guard_restore();
	return rc;
}

void an_guard_ours(bool entering)
{
	an_guard_depth_ours += entering ? 1 : -1;
}

void an_guard_abandon(const void *obj)
{
	if (obj &&
	    an_guard_nkept < sizeof(an_guard_kept) / sizeof(*an_guard_kept))
		an_guard_kept[an_guard_nkept++] = obj;
}
