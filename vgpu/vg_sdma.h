/* SPDX-License-Identifier: MIT */
/* The SDMA packet processor: returns how many packets it retired. */
#ifndef VG_SDMA_H
#define VG_SDMA_H

#include <stdint.h>

#include "vg_queue.h"

int vg_sdma_serve(struct vg_queue *q);

#endif
