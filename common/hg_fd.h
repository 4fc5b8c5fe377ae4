/* SPDX-License-Identifier: MIT */
/*
 * What an interposed open learns about a descriptor, kept for the calls
 * that follow: a byte per descriptor (which device it is, 0 for none),
 * read with one load on every call of the program's; and the mode an
 * open's variadic argument carries.  The preload's /dev/kfd front end and
 * the virtual GPU's devices each keep a table.  A descriptor past the
 * table is never one: a runtime opens its devices early, among the first.
 */
#ifndef HG_FD_H
#define HG_FD_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

static inline unsigned hg_fd_kind(const unsigned char *tab, size_t n, int fd)
{
	return (unsigned)fd < n ? __atomic_load_n(&tab[fd], __ATOMIC_ACQUIRE) : 0;
}

/* false when fd is past the table. */
static inline bool hg_fd_mark(unsigned char *tab, size_t n, int fd,
			      unsigned kind)
{
	if ((unsigned)fd >= n)
		return false;
	__atomic_store_n(&tab[fd], (unsigned char)kind, __ATOMIC_RELEASE);
	return true;
}

/* open's third argument, there only when the flags create a file. */
static inline mode_t hg_open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

#endif
