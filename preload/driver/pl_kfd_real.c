/* SPDX-License-Identifier: MIT */
/*
 * The next ioctl after ours: the hook forwards to it and the SMI reader
 * (pl_smi.c) calls it for its own requests.  A leaf of its own, so the
 * reader never calls back into the hooks that call it.
 */
#include "pl_boot.h"
#include "pl_kfd.h"

int pl_kfd_real_ioctl(int fd, unsigned long req, void *arg)
{
	static int (*real)(int, unsigned long, ...);

	if (!real)
		real = (int (*)(int, unsigned long, ...))pl_next_sym("ioctl");
	return real(fd, req, arg);
}
