/* SPDX-License-Identifier: MIT */
/*
 * The driver front end: what the program's runtime told the GPU driver
 * through /dev/kfd (the granularity each buffer was mapped with, SVM
 * attributes, the XNACK mode), and what the driver reported back through
 * its SMI event file (migrations, page faults, evictions, unmaps).  Every
 * ROCm release reaches the driver through libc's open and ioctl, from
 * libhsakmt (5.x) or from inside libhsa-runtime64 (6.3 and later), so one
 * front end sees them all, on a real GPU and on the virtual one alike.
 */
#ifndef PL_KFD_H
#define PL_KFD_H

#include <stdbool.h>
#include <stdint.h>

/* Which descriptors are /dev/kfd (pl_kfd_fd.c). */
bool pl_kfd_fd_is(int fd);
void pl_kfd_fd_mark(int fd, bool kfd);

/* What a /dev/kfd call's argument held before the driver answered, where
 * the driver overwrites it (the XNACK mode: -1 asks, the answer replaces
 * it); then the call as answered with rc (pl_kfd.c). */
int64_t pl_kfd_before(unsigned long req, const void *arg);
void pl_kfd_record(int fd, unsigned long req, void *arg, int rc, int64_t before);

/* The next ioctl after ours, for the reader's own calls (pl_kfd_real.c). */
int pl_kfd_real_ioctl(int fd, unsigned long req, void *arg);

#endif
