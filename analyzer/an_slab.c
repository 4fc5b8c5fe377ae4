/* SPDX-License-Identifier: MIT */
#include "an_slab.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#define AN_SLAB_CHUNK 64 /* objects */

struct an_slab_chunk {
	struct an_slab_chunk *next;
	alignas(max_align_t) unsigned char obj[];
};

/* Every object can hold the link of the spare list, and stays aligned. */
static size_t an_slab_stride(size_t size)
{
	size_t a = alignof(max_align_t);
	size_t n = size < sizeof(void *) ? sizeof(void *) : size;

	return (n + a - 1) / a * a;
}

void *an_slab_take(struct an_slab *s, size_t size)
{
	size_t stride = an_slab_stride(size);
	struct an_slab_chunk *c = s->chunks;
	void *obj = s->spare;

	if (obj) {
		memcpy(&s->spare, obj, sizeof(void *));
		return obj;
	}
	if (!c || s->used == AN_SLAB_CHUNK) {
		c = malloc(sizeof(*c) + AN_SLAB_CHUNK * stride);
		if (!c)
			return NULL;
		c->next = s->chunks;
		s->chunks = c;
		s->used = 0;
	}
	return c->obj + s->used++ * stride;
}

void an_slab_give(struct an_slab *s, void *obj)
{
	memcpy(obj, &s->spare, sizeof(void *));
	s->spare = obj;
}

void an_slab_fini(struct an_slab *s)
{
	for (struct an_slab_chunk *c = s->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	*s = (struct an_slab){0};
}
