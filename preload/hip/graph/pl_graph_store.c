/* SPDX-License-Identifier: MIT */
/* The graphs' node lists (see pl_graph_store.h). */
#include "pl_graph_store.h"

#include <string.h>

#include "pl_launch.h"
#include "hg_spin.h"

extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static hg_spin_t lock = HG_SPIN_INIT;
static struct pl_graph *graphs;

void pl_graph_lock(void)
{
	hg_spin_lock(&lock);
}

void pl_graph_unlock(void)
{
	hg_spin_unlock(&lock);
}

struct pl_graph *pl_graph_find(uint8_t kind, uint64_t handle)
{
	for (struct pl_graph *g = graphs; g; g = g->next)
		if (g->kind == kind && g->handle == handle)
			return g;
	return NULL;
}

struct pl_graph *pl_graph_find_or_add(uint8_t kind, uint64_t handle)
{
	struct pl_graph *g = pl_graph_find(kind, handle);

	if (g)
		return g;
	g = __libc_calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->kind = kind;
	g->handle = handle;
	g->next = graphs;
	graphs = g;
	return g;
}

void pl_graph_drop(struct pl_graph *g)
{
	struct pl_graph **at;

	for (at = &graphs; *at && *at != g; at = &(*at)->next)
		;
	if (*at)
		*at = g->next;
	__libc_free(g->nodes);
	__libc_free(g);
}

static int reserve(struct pl_graph *g, size_t more)
{
	size_t cap = g->cap ? g->cap : 8;
	struct pl_graph_node *n;

	while (cap < g->n + more)
		cap *= 2;
	if (cap == g->cap)
		return 1;
	n = __libc_realloc(g->nodes, cap * sizeof(*n));
	if (!n)
		return 0;
	g->nodes = n;
	g->cap = cap;
	return 1;
}

struct pl_graph_node *pl_graph_append(struct pl_graph *g)
{
	if (!reserve(g, 1))
		return NULL;
	memset(&g->nodes[g->n], 0, sizeof(g->nodes[0]));
	return &g->nodes[g->n++];
}

int pl_graph_append_all(struct pl_graph *g, const struct pl_graph_node *nd,
			size_t n)
{
	if (!n)
		return 1;
	if (!reserve(g, n))
		return 0;
	memcpy(&g->nodes[g->n], nd, n * sizeof(*nd));
	g->n += n;
	return 1;
}

struct pl_graph_node *pl_graph_node_in(struct pl_graph *g, uint64_t handle)
{
	for (size_t i = 0; g && handle && i < g->n; i++)
		if (g->nodes[i].handle == handle)
			return &g->nodes[i];
	return NULL;
}

struct pl_graph *pl_graph_holding(uint64_t handle)
{
	for (struct pl_graph *g = graphs; g; g = g->next)
		if (g->kind == G_GRAPH && pl_graph_node_in(g, handle))
			return g;
	return NULL;
}

void pl_graph_remove(struct pl_graph *g, uint64_t handle)
{
	size_t k = 0;

	for (size_t i = 0; i < g->n; i++)
		if (g->nodes[i].handle != handle)
			g->nodes[k++] = g->nodes[i];
	g->n = k;
}

/* The argument values, read now: the caller's array may be gone by the
 * time the graph runs.  Learning the layout profiles the kernel, as its
 * first launch would. */
void pl_graph_kernel(struct pl_graph_node *nd, const void *fn, dim3 grid,
		     dim3 block, size_t shmem, void **args, void **extra)
{
	const struct reg_kernel *k = pl_launch_layout(fn);

	nd->kind = N_KERNEL;
	nd->fn = fn;
	nd->grid = grid;
	nd->block = block;
	nd->shmem = shmem;
	nd->n = k ? pl_launch_read(k, args, extra, nd->idx, nd->val) : 0;
	nd->nargv = 0;
	for (uint16_t i = 0; i < nd->n; i++)
		if (nd->idx[i] < PL_GRAPH_ARGV_MAX && nd->idx[i] >= nd->nargv)
			nd->nargv = (uint16_t)(nd->idx[i] + 1);
}
