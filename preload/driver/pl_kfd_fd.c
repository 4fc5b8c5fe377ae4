/* SPDX-License-Identifier: MIT */
/*
 * Which descriptors are /dev/kfd, learnt at open and forgotten at close.
 * A byte per descriptor: an ioctl on any other file pays one load.  A
 * descriptor past the table is never the driver's: the runtime opens it
 * early, among the first descriptors.
 */
#include "pl_kfd.h"

#define PL_KFD_FDS 4096
static unsigned char is_kfd[PL_KFD_FDS];

bool pl_kfd_fd_is(int fd)
{
	return (unsigned)fd < PL_KFD_FDS &&
	       __atomic_load_n(&is_kfd[fd], __ATOMIC_RELAXED);
}

void pl_kfd_fd_mark(int fd, bool kfd)
{
	if ((unsigned)fd < PL_KFD_FDS)
		__atomic_store_n(&is_kfd[fd], (unsigned char)kfd, __ATOMIC_RELAXED);
}
