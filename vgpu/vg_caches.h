/* SPDX-License-Identifier: MIT */
/* A GPU node's caches in the topology tree (vg_caches.c). */
#ifndef VG_CACHES_H
#define VG_CACHES_H

#include <stdint.h>

#include "vg_profile.h"

/* How many cache entries the node has: its caches_count. */
unsigned vg_caches_count(const struct vg_profile *p);
/* Each entry under dir (the node's caches directory, made already):
 * 0 or -1. */
int vg_caches_write(const char *dir, uint32_t simd_id_base, const struct vg_profile *p);

#endif
