/* SPDX-License-Identifier: MIT */
/*
 * The libc entry points through which a runtime reaches /dev/kfd: open
 * to learn the descriptor, close to forget it, ioctl to see each call and
 * the driver's answer.  close also keeps libunwind's pipe from the
 * program.  Everything is forwarded untouched, arguments and
 * errno included; a NULL argument is the driver's to refuse.
 */
/* 32-bit-offset names, as glibc exports them: with 64-bit offsets its
 * headers would rename open to open64. */
#undef _FILE_OFFSET_BITS
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/ioctl.h>
#include <string.h>
#include <unistd.h>

#include "hg_fd.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_kfd.h"
#include "reg.h"

#define KFD_PATH "/dev/kfd"

static int opened(const char *path, int fd)
{
	if (fd >= 0 && path && !strcmp(path, KFD_PATH))
		pl_kfd_fd_mark(fd, true);
	return fd;
}

PL_EXPORT int open(const char *path, int flags, ...);
PL_EXPORT int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;

	if (!real)
		real = (int (*)(const char *, int, ...))pl_next_sym("open");
	va_start(ap, flags);
	mode_t mode = hg_open_mode(flags, ap);
	va_end(ap);
	return opened(path, real(path, flags, mode));
}

PL_EXPORT int open64(const char *path, int flags, ...);
PL_EXPORT int open64(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;

	if (!real)
		real = (int (*)(const char *, int, ...))pl_next_sym("open64");
	va_start(ap, flags);
	mode_t mode = hg_open_mode(flags, ap);
	va_end(ap);
	return opened(path, real(path, flags, mode));
}

PL_EXPORT int openat(int dirfd, const char *path, int flags, ...);
PL_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	va_list ap;

	if (!real)
		real = (int (*)(int, const char *, int, ...))pl_next_sym("openat");
	va_start(ap, flags);
	mode_t mode = hg_open_mode(flags, ap);
	va_end(ap);
	return opened(path, real(dirfd, path, flags, mode));
}

PL_EXPORT int close(int fd);
PL_EXPORT int close(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))pl_next_sym("close");
	/* libunwind's pipe stays open; the program is told it closed, and
	 * its next descriptor gets another number (registry/reg_unw.c). */
	if (__builtin_expect(reg_unw_keeps(fd), 0))
		return 0;
	pl_kfd_fd_mark(fd, false);
	return real(fd);
}

/*
 * Defined with its third argument named, not as the header's variadic
 * prototype (not included here): on this ABI the argument arrives in the
 * same register either way, and a variadic body would spill every
 * argument register on each of the program's ioctls.
 */
/* Out of line, so that every other ioctl pays a load, a branch and a
 * jump, not this frame. */
static __attribute__((noinline, cold)) int kfd_ioctl(int fd, unsigned long req,
						      void *arg)
{
	int64_t before = pl_kfd_before(req, arg);
	int rc = pl_kfd_real_ioctl(fd, req, arg);
	int saved = errno;
	pl_kfd_record(fd, req, arg, rc < 0 ? -saved : rc, before);
	errno = saved;
	return rc;
}

PL_EXPORT int ioctl(int fd, unsigned long req, void *arg);
PL_EXPORT int ioctl(int fd, unsigned long req, void *arg)
{
	if (__builtin_expect(pl_kfd_fd_is(fd), 0))
		return kfd_ioctl(fd, req, arg);
	return pl_kfd_real_ioctl(fd, req, arg);
}
