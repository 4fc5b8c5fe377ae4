/* SPDX-License-Identifier: MIT */
/* An arena for a code object's strings and tables: freed in one go. */
#include <stdlib.h>
#include <string.h>

#include "co_int.h"

#define CHUNK (64u << 10)

struct co_strpool {
	struct co_strpool *next;
	size_t used, cap;
	max_align_t data[];
};

void *co_pool_alloc(struct co_strpool **pool, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct co_strpool *p = *pool;
	if (!p || p->cap - p->used < size) {
		size_t cap = size > CHUNK ? size : CHUNK;
		struct co_strpool *n = malloc(sizeof *n + cap);
		if (!n)
			return NULL;
		n->used = 0;
		n->cap = cap;
		/* a big block goes behind the current one so its room is kept */
		if (p && size > CHUNK) {
			n->next = p->next;
			p->next = n;
		} else {
			n->next = p;
			*pool = n;
		}
		p = n;
	}
	void *r = (char *)p->data + p->used;
	p->used += size;
	memset(r, 0, size);
	return r;
}

const char *co_pool_add(struct co_strpool **pool, const char *s, size_t n)
{
	char *d = co_pool_alloc(pool, n + 1);
	if (d)
		memcpy(d, s, n);
	return d;
}

void co_pool_free(struct co_strpool *pool)
{
	while (pool) {
		struct co_strpool *next = pool->next;
		free(pool);
		pool = next;
	}
}
