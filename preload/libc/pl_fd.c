/* SPDX-License-Identifier: MIT */
/*
 * Programs that close every descriptor they did not open (MPI launchers in
 * the children they fork, Python's subprocess, daemons) close lttng-ust's
 * too, and lttng-ust aborts when such a number comes back to it.  close()
 * and fclose() are guarded by LTTng's own liblttng-ust-fd.so, which
 * `hipgrain run` preloads after us.  closefrom() and close_range(), which
 * LTTng-UST 2.13 does not guard, are turned here into close() on each
 * descriptor actually open, so they pass through the same guard.
 *
 * Async-signal-safe, as these are called between fork and exec: the open
 * descriptors are listed with getdents64 on a stack buffer, no malloc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pl_export.h"

struct pl_dirent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int pl_parse_fd(const char *s)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > INT_MAX / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v > INT_MAX ? -1 : (int)v;
}

/* close() each open descriptor in [lo, hi]; -1 if they cannot be listed. */
static int pl_close_open(unsigned lo, unsigned hi)
{
	char buf[4096];
	long n;
	int dir = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/fd",
			       O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long o = 0; o < n;) {
			struct pl_dirent64 *d = (struct pl_dirent64 *)(buf + o);
			int fd = pl_parse_fd(d->name);

			o += d->reclen;
			if (fd >= 0 && fd != dir && (unsigned)fd >= lo &&
			    (unsigned)fd <= hi)
				close(fd);
		}
	}
	syscall(SYS_close, dir);
	return n < 0 ? -1 : 0;
}

PL_EXPORT void closefrom(int lowfd);
PL_EXPORT void closefrom(int lowfd)
{
	unsigned lo = lowfd < 0 ? 0 : (unsigned)lowfd;

	if (pl_close_open(lo, UINT_MAX) < 0)
		syscall(SYS_close_range, lo, UINT_MAX, 0);
}

PL_EXPORT int close_range(unsigned first, unsigned last, int flags);
PL_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	/* Marking close-on-exec closes nothing now: the exec'd image starts
	 * a tracer of its own.  Anything but a plain close is the kernel's. */
	if ((flags & ~CLOSE_RANGE_UNSHARE) || first > last)
		return (int)syscall(SYS_close_range, first, last, flags);
	if ((flags & CLOSE_RANGE_UNSHARE) && unshare(CLONE_FILES) < 0)
		return -1;
	if (pl_close_open(first, last) < 0)
		return (int)syscall(SYS_close_range, first, last, 0);
	return 0;
}
