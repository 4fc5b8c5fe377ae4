/* SPDX-License-Identifier: MIT */
/* The AQL packet processor: returns how many packets it retired. */
#ifndef VG_AQL_H
#define VG_AQL_H

#include <stdint.h>

#include "vg_queue.h"

int vg_aql_serve(struct vg_queue *q);

#endif
