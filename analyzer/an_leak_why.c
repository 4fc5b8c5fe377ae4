/* SPDX-License-Identifier: MIT */
/*
 * Why a process's leaks cannot be judged: a leaf the gpu-leak rule and the
 * report's "not judged" lines both ask, so that neither calls the other.
 */
#include "an_leak_why.h"

#include "an_state.h"

const char *an_leak_withheld(const struct an_ctx *c, const struct an_proc *p)
{
	if (p->discarded)
		return "events were lost while tracing";
	if (c->partial)
		return "a trace was cut short, and its frees may be in the lost part";
	if (p->fate.known)
		return p->fate.signaled ? "it was killed before it could free"
					: NULL;
	/* Schema 8 writes `exit` at a normal end; older traces cannot say. */
	if (p->schema >= 8 && !p->exited)
		return "its trace holds no record of its end (killed, as by "
		       "SIGKILL at a time limit, or ended by _exit)";
	return NULL;
}
