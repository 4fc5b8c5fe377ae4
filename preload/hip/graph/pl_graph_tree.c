/* SPDX-License-Identifier: MIT */
/*
 * Graphs made of graphs: clones, child graph nodes, destroyed nodes, and
 * ROCm 6's generic node parameters.  HIP copies a child graph into the
 * node that embeds it, so its nodes are copied here too, each carrying the
 * child node's handle (they run, stop and go with it); a clone's nodes
 * learn their handles when hipGraphNodeFindInClone names them.
 */
#include "pl_graph.h"

#include "hg_events.h"
#include "pl_graph_store.h"
#include "pl_vm.h"
#include "reg.h"

/* ROCm 6's hipGraphNodeType values (ROCm 5's headers number from 1). */
enum {
	T6_KERNEL = 0,
	T6_MEMCPY = 1,
	T6_MEMSET = 2,
	T6_GRAPH = 4,
	T6_ALLOC = 10,
	T6_FREE = 11,
};

void pl_graph_rec_clone(hipError_t rc, hipGraph_t *clone, hipGraph_t graph)
{
	uint64_t h = rc == hipSuccess && clone ? (uintptr_t)*clone : 0;
	struct pl_graph *g, *c;

	reg_emit_call(HG_API_HIP_GRAPH_CLONE, rc, h);
	if (!h)
		return;
	pl_graph_lock();
	c = pl_graph_find(G_GRAPH, h);
	if (c) /* the handle of a graph destroyed unseen */
		pl_graph_drop(c);
	g = pl_graph_find(G_GRAPH, (uintptr_t)graph);
	c = g && g->n ? pl_graph_find_or_add(G_GRAPH, h) : NULL;
	if (c && pl_graph_append_all(c, g->nodes, g->n)) {
		for (size_t i = c->n - g->n; i < c->n; i++) {
			c->nodes[i].origin = c->nodes[i].handle;
			c->nodes[i].handle = 0;
		}
	}
	pl_graph_unlock();
}

void pl_graph_rec_find_in_clone(hipError_t rc, hipGraphNode_t *found,
				hipGraphNode_t original, hipGraph_t clone)
{
	uint64_t h = rc == hipSuccess && found ? (uintptr_t)*found : 0;
	struct pl_graph *c;

	reg_emit_call(HG_API_HIP_GRAPH_NODE_FIND_IN_CLONE, rc, h);
	if (!h || !original)
		return;
	pl_graph_lock();
	c = pl_graph_find(G_GRAPH, (uintptr_t)clone);
	for (size_t i = 0; c && i < c->n; i++)
		if (!c->nodes[i].handle &&
		    c->nodes[i].origin == (uintptr_t)original)
			c->nodes[i].handle = h;
	pl_graph_unlock();
}

/* Caller holds the lock.  g's nodes of handle h become child's, embedded:
 * a child set anew in an executable graph, or added. */
static void embed(struct pl_graph *g, uint64_t h, const struct pl_graph *child)
{
	struct pl_graph_node *first = pl_graph_node_in(g, h);
	uint8_t off = first ? first->disabled : 0;
	size_t from;

	pl_graph_remove(g, h);
	from = g->n;
	if (!child || !pl_graph_append_all(g, child->nodes, child->n))
		return;
	for (size_t i = from; i < g->n; i++) {
		g->nodes[i].handle = h;
		g->nodes[i].embedded = 1;
		g->nodes[i].disabled = off;
	}
}

void pl_graph_rec_child(uint8_t api, hipError_t rc, struct pl_graph_at at,
			hipGraph_t child)
{
	uint64_t h = pl_graph_at_node(rc, at);
	struct pl_graph *g;

	reg_emit_call(api, rc, h);
	if (rc != hipSuccess || !h)
		return;
	pl_graph_lock();
	if (at.added)
		g = pl_graph_find_or_add(G_GRAPH, (uintptr_t)at.graph);
	else if (at.exec)
		g = pl_graph_find(G_EXEC, (uintptr_t)at.exec);
	else
		g = pl_graph_holding(h);
	if (g && g != pl_graph_find(G_GRAPH, (uintptr_t)child))
		embed(g, h, pl_graph_find(G_GRAPH, (uintptr_t)child));
	pl_graph_unlock();
}

/* The node goes from its graph; executable graphs made of it keep it. */
void pl_graph_rec_destroy_node(hipError_t rc, hipGraphNode_t node)
{
	struct pl_graph *g;

	reg_emit_call(HG_API_HIP_GRAPH_DESTROY_NODE, rc, (uintptr_t)node);
	if (rc != hipSuccess || !node)
		return;
	pl_graph_lock();
	g = pl_graph_holding((uintptr_t)node);
	if (g)
		pl_graph_remove(g, (uintptr_t)node);
	pl_graph_unlock();
}

/* api is the free node's: the free it makes at each launch names it. */
void pl_graph_rec_free_node(uint8_t api, hipError_t rc, struct pl_graph_at at,
			    void *p)
{
	struct pl_graph_node nd = {0};

	reg_emit_call(api, rc, (uintptr_t)p);
	if (rc != hipSuccess || !p)
		return;
	nd.kind = N_FREE;
	nd.dst = p;
	nd.how = api;
	pl_graph_put(at, &nd);
}

/* The memory is an allocation from the node's creation (ROCm reserves it
 * then); the node allocates it again at a launch after a free. */
void pl_graph_rec_alloc_node(hipError_t rc, struct pl_graph_at at,
			     const hipMemAllocNodeParams *p)
{
	struct pl_graph_node nd = {0};

	nd.prop = pl_vm_rec_graph_alloc(rc, at.added, p);
	if (rc != hipSuccess || !at.added || !p)
		return;
	nd.kind = N_ALLOC;
	nd.dst = p->dptr;
	nd.bytes = p->bytesize;
	pl_graph_put(at, &nd);
}

/* Each type is recorded as its own entry point records it; an allocation
 * node's memory exists from the node's creation, as hipGraphAddMemAllocNode
 * has it. */
void pl_graph_rec_generic(uint8_t api, hipError_t rc, struct pl_graph_at at,
			  hipGraphNodeParams *p)
{
	switch (p ? (int)p->type : -1) {
	case T6_KERNEL:
		pl_graph_rec_kernel(api, rc, at, &p->kernel);
		break;
	case T6_MEMCPY:
		pl_graph_rec_copy3d(api, rc, at, &p->memcpy.copyParams);
		break;
	case T6_MEMSET:
		pl_graph_rec_set(api, rc, at, &p->memset);
		break;
	case T6_GRAPH:
		pl_graph_rec_child(api, rc, at, p->graph.graph);
		break;
	case T6_FREE:
		pl_graph_rec_free_node(api, rc, at, p->free.dptr);
		break;
	case T6_ALLOC:
		if (at.added)
			pl_graph_rec_alloc_node(rc, at, &p->alloc);
		else /* an allocation node cannot be set anew (HIP refuses) */
			reg_emit_call(api, rc, 0);
		break;
	default:
		reg_emit_call(api, rc, 0);
	}
}
