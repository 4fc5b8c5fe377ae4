/* SPDX-License-Identifier: MIT */
/*
 * /dev/kfd and the render node as file descriptors.  Each open gets a
 * duplicate of the memory file, so an mmap of a buffer object's offset
 * through either device maps its bytes with no translation, and closing,
 * polling or passing the fd to a child behaves as a file does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hg_fd.h"
#include "vg_sysfs.h"
#include "vg.h"

#define VG_FDS 1024
static unsigned char kinds[VG_FDS];
static pid_t owners[VG_FDS]; /* the process that opened it */

/* /dev/kfd, or the render node of one of the machine's GPUs. */
static int kind_of(const char *path)
{
	unsigned minor;
	char end;
	if (!strcmp(path, "/dev/kfd"))
		return VG_FD_KFD;
	if (sscanf(path, "/dev/dri/renderD%u%c", &minor, &end) == 1 &&
	    minor >= VG_RENDER_MINOR && minor - VG_RENDER_MINOR < vg.node->gpus)
		return VG_FD_RENDER;
	return VG_FD_NONE;
}

/* -1 with errno ENOENT-free: a path that is not ours returns -2. */
int vg_dev_open(const char *path, int flags)
{
	int kind = kind_of(path);
	if (kind == VG_FD_NONE)
		return -2;
	int fd = fcntl(vg.mem_fd, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
	if (fd < 0)
		return -1;
	if (fd >= VG_FDS) {
		close(fd);
		errno = EMFILE;
		return -1;
	}
	__atomic_store_n(&owners[fd], vg.self, __ATOMIC_RELAXED);
	hg_fd_mark(kinds, VG_FDS, fd, (unsigned)kind);
	if (kind == VG_FD_KFD)
		vg_runtime_check();
	return fd;
}

int vg_dev_is(int fd)
{
	return (int)hg_fd_kind(kinds, VG_FDS, fd);
}

void vg_dev_closed(int fd)
{
	hg_fd_mark(kinds, VG_FDS, fd, VG_FD_NONE);
}

/* A duplicate of one of our fds, of the same kind, close-on-exec. */
int vg_dev_dup(int fd)
{
	int kind = vg_dev_is(fd);
	if (kind == VG_FD_NONE) {
		errno = EBADF;
		return -1;
	}
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup < 0)
		return -1;
	if (dup >= VG_FDS) {
		close(dup);
		errno = EMFILE;
		return -1;
	}
	__atomic_store_n(&owners[dup], vg_dev_owner(fd), __ATOMIC_RELAXED);
	hg_fd_mark(kinds, VG_FDS, dup, (unsigned)kind);
	return dup;
}

pid_t vg_dev_owner(int fd)
{
	return fd >= 0 && fd < VG_FDS ? __atomic_load_n(&owners[fd], __ATOMIC_RELAXED) : 0;
}
