/* SPDX-License-Identifier: MIT */
/*
 * The blocks a process freed last.  A thread writes its launches' repeat
 * count when the batch ends, which can be after another thread freed a
 * block an argument points into; and a use after free names the block
 * that held the address.  Both readers (the analyzer, the babeltrace2
 * filter) keep freed blocks here, so how many and which one answers is
 * decided once.
 */
#ifndef DEC_FREED_H
#define DEC_FREED_H

#include <stdint.h>

#define DEC_FREED_RING 256

struct dec_freed {
	uint64_t id, addr, size;
};

struct dec_freed_ring {
	struct dec_freed b[DEC_FREED_RING];
	unsigned n; /* blocks ever put */
};

/* A freed block kept; its slot (0 to DEC_FREED_RING - 1), which the
 * oldest block kept gives up, for a caller that keeps more of it. */
unsigned dec_freed_put(struct dec_freed_ring *r, uint64_t id, uint64_t addr,
		       uint64_t size);
/* The slot of the latest block of id (not 0), or -1. */
int dec_freed_by_id(const struct dec_freed_ring *r, uint64_t id);
/* The slot of the latest block that held addr, or -1. */
int dec_freed_at(const struct dec_freed_ring *r, uint64_t addr);

#endif
