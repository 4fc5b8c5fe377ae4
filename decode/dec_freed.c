/* SPDX-License-Identifier: MIT */
#include "dec_freed.h"

unsigned dec_freed_put(struct dec_freed_ring *r, uint64_t id, uint64_t addr,
		       uint64_t size)
{
	unsigned slot = r->n++ % DEC_FREED_RING;

	r->b[slot] = (struct dec_freed){id, addr, size};
	return slot;
}

/* The i-th latest block's slot (i from 1), while there is one. */
static int dec_freed_nth(const struct dec_freed_ring *r, unsigned i)
{
	unsigned kept = r->n < DEC_FREED_RING ? r->n : DEC_FREED_RING;

	return i <= kept ? (int)((r->n - i) % DEC_FREED_RING) : -1;
}

int dec_freed_by_id(const struct dec_freed_ring *r, uint64_t id)
{
	int s;

	for (unsigned i = 1; id && (s = dec_freed_nth(r, i)) >= 0; i++)
		if (r->b[s].id == id)
			return s;
	return -1;
}

int dec_freed_at(const struct dec_freed_ring *r, uint64_t addr)
{
	int s;

	/* Latest first: the last block to have held addr explains it. */
	for (unsigned i = 1; (s = dec_freed_nth(r, i)) >= 0; i++) {
		const struct dec_freed *b = &r->b[s];

		if (addr >= b->addr && addr - b->addr < (b->size ? b->size : 1))
			return s;
	}
	return -1;
}
