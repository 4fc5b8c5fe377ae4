/* SPDX-License-Identifier: MIT */
/* The runtime's own copy and fill kernels, done by the virtual GPU. */
#ifndef VG_BLIT_H
#define VG_BLIT_H

#include <stdint.h>

/* A kernel dispatch's effect, for the runtime's own copy and fill kernels
 * (vg_blit.c): kd is the kernel descriptor's address, grid the packet's
 * work items. */
/* 1 when kd is one of the runtime's blit kernels, served here. */
int vg_blit_dispatch(uint64_t kd, uint64_t kernarg, uint32_t grid);

#endif
