/* SPDX-License-Identifier: MIT */
/*
 * libbabeltrace2 2.0.4 (Debian 12's) crashes on some damaged CTF streams: a
 * flipped bit sends its ctf plugin down a path where it writes through a
 * NULL field (bt_field_integer_unsigned_set_value).  A report of what was
 * read before the crash beats a core dump, so calls into babeltrace run
 * under a guard that turns a fault inside them into an error return.
 *
 * Faults in our own code are not caught: an_guard_ours() brackets our
 * callbacks, and a fault there goes to the handler that was installed
 * before (the default one, or a sanitizer's), so our bugs stay loud.
 */
#ifndef AN_GUARD_H
#define AN_GUARD_H

#include <stdbool.h>

#define AN_GUARD_CRASHED (-1000)

/* fn(arg)'s result, or AN_GUARD_CRASHED (*sig: the signal) if it faulted. */
int an_guard_call(int (*fn)(void *), void *arg, int *sig);
/* Entering (true) or leaving (false) our own code inside a guarded call. */
void an_guard_ours(bool entering);
/*
 * Objects a crash left in an unknown state are never freed; this keeps
 * them reachable so leak checkers do not report babeltrace's internals.
 */
void an_guard_abandon(const void *obj);

#endif
