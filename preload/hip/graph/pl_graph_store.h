/* SPDX-License-Identifier: MIT */
/*
 * What pl_graph*.c know of each graph, executable graph and capture: a
 * list of nodes under one lock.  Graphs are built once and launched many
 * times, and a launch walks one short list.  A child graph is copied into
 * its parent as HIP clones it there; its nodes carry the child node's
 * handle, so that the node and all it holds go, run or stop together.
 */
#ifndef PL_GRAPH_STORE_H
#define PL_GRAPH_STORE_H

#include "pl_hip.h"
#include "reg.h"

/* Argument slots rebuilt for a node's launch: pointer arguments at a
 * higher index than this are not resolved (no kernel has that many). */
#define PL_GRAPH_ARGV_MAX 256

enum pl_graph_node_kind { N_KERNEL, N_COPY, N_SET, N_FREE, N_ALLOC };
enum pl_graph_kind { G_GRAPH, G_EXEC, G_CAPTURE };

struct pl_graph_node {
	/* The runtime's node (0 for a captured launch, or a clone's node
	 * not yet found with hipGraphNodeFindInClone); for the nodes of an
	 * embedded child graph, the child graph node's. */
	uint64_t handle;
	/* A clone's node: the handle of the node it was cloned from. */
	uint64_t origin;
	uint8_t kind;
	uint8_t embedded; /* part of a child graph node */
	uint8_t disabled; /* hipGraphNodeSetEnabled(..., 0) */
	/* N_KERNEL */
	const void *fn;
	dim3 grid, block;
	size_t shmem;
	uint16_t n, nargv;
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR];
	/* N_COPY, N_SET, N_FREE, N_ALLOC */
	void *dst;
	const void *src;
	size_t bytes;
	int how; /* the copy's hipMemcpyKind, the set's value, the free's API */
	uint64_t prop; /* what an allocation's properties say (pl_vm.h) */
};

struct pl_graph {
	struct pl_graph *next;
	uint64_t handle; /* hipGraph_t, hipGraphExec_t, or the stream */
	uint8_t kind;
	uint64_t into; /* a capture into this existing graph */
	size_t n, cap;
	struct pl_graph_node *nodes;
};

/* Everything below but pl_graph_kernel is called with the lock held. */
void pl_graph_lock(void);
void pl_graph_unlock(void);
struct pl_graph *pl_graph_find(uint8_t kind, uint64_t handle);
struct pl_graph *pl_graph_find_or_add(uint8_t kind, uint64_t handle);
void pl_graph_drop(struct pl_graph *g);
struct pl_graph_node *pl_graph_append(struct pl_graph *g);
/* Appends n nodes; 0 when memory ran out. */
int pl_graph_append_all(struct pl_graph *g, const struct pl_graph_node *nd,
			size_t n);
/* The first node of g with that handle, embedded or not. */
struct pl_graph_node *pl_graph_node_in(struct pl_graph *g, uint64_t handle);
/* The graph (not executable) holding a node of that handle. */
struct pl_graph *pl_graph_holding(uint64_t handle);
/* Removes every node of g with that handle. */
void pl_graph_remove(struct pl_graph *g, uint64_t handle);

/* Reads a kernel's launch into nd (the argument values, now). */
void pl_graph_kernel(struct pl_graph_node *nd, const void *fn, dim3 grid,
		     dim3 block, size_t shmem, void **args, void **extra);

#endif
