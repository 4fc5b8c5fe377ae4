/* SPDX-License-Identifier: MIT */
/*
 * Objects of one size, carved from chunks and reused once given back: for
 * what replay makes and drops once per event, which malloc would otherwise
 * see every time.  Memory is returned only by an_slab_fini.  A zeroed
 * struct an_slab is an empty one.
 */
#ifndef AN_SLAB_H
#define AN_SLAB_H

#include <stddef.h>

struct an_slab_chunk;

struct an_slab {
	struct an_slab_chunk *chunks;
	size_t used; /* objects handed out of the newest chunk */
	void *spare; /* objects given back, each holding the next */
};

/* An object of size bytes (the same size for every take from one slab), its
 * content undefined; NULL when out of memory. */
void *an_slab_take(struct an_slab *s, size_t size);
void an_slab_give(struct an_slab *s, void *obj);
void an_slab_fini(struct an_slab *s);

#endif
