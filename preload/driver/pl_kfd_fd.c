/* SPDX-License-Identifier: MIT */
/*
 * Which descriptors are /dev/kfd, learnt at open and forgotten at close
 * (hg_fd.h's table): an ioctl on any other file pays one load.
 */
#include "hg_fd.h"
#include "pl_kfd.h"

#define PL_KFD_FDS 4096
static unsigned char is_kfd[PL_KFD_FDS];

bool pl_kfd_fd_is(int fd)
{
	return hg_fd_kind(is_kfd, PL_KFD_FDS, fd);
}

void pl_kfd_fd_mark(int fd, bool kfd)
{
	hg_fd_mark(is_kfd, PL_KFD_FDS, fd, kfd);
}
