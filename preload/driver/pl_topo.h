/* SPDX-License-Identifier: MIT */
/* The driver's topology in the trace (pl_topo.c). */
#ifndef PL_TOPO_H
#define PL_TOPO_H

#include <stdint.h>

/* What the driver's topology says of each GPU, with the driver's
 * version. */
void pl_topo_record(uint32_t major, uint32_t minor);

#endif
