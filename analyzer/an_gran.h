/* SPDX-License-Identifier: MIT */
/*
 * Granularity along one allocation, as advice split it: the offsets where
 * it changes, so a verdict can use the page a pointer points into and the
 * report can say where a mixed range changes.
 */
#ifndef AN_GRAN_H
#define AN_GRAN_H

#include <stddef.h>
#include <stdint.h>

struct an_alloc;

/* Sets [lo, hi) (offsets into a) to gran; a->gran becomes the one value or
 * HG_GRAN_MIXED.  Past AN_GRAN_PIECES changes only "mixed" is known. */
void an_gran_set(struct an_alloc *a, uint64_t lo, uint64_t hi, uint8_t gran);
/* The granularity at offset off: the page it is in, when known. */
uint8_t an_gran_at(const struct an_alloc *a, uint64_t off);
/* "coarse at [0, 4096), fine at [4096, 8192)"; "" unless split and known. */
const char *an_gran_pieces(const struct an_alloc *a, char *buf, size_t cap);

#endif
