/* SPDX-License-Identifier: MIT */
/*
 * HIP graphs: a kernel node is a launch deferred to every hipGraphLaunch of
 * an executable graph made from it.  The runtime copies the node's argument
 * values when the node is added (or a launch is captured), so the pointer
 * values are read then, and resolved when the graph is launched, through
 * the launch path every other launch takes.
 */
#ifndef PL_GRAPH_H
#define PL_GRAPH_H

#include <stdatomic.h>

#include "pl_hip.h"
#include "pl_launch.h"

/* Streams capturing now, process-wide: a launch on a capturing stream
 * becomes a node of the capture's graph, not a launch. */
extern atomic_int pl_graph_capturing;

/* Adds the launch to `stream`'s capture; 0 when the stream captures not. */
int pl_graph_capture_launch(const void *fn, dim3 grid, dim3 block,
			    void **args, void **extra, size_t shmem,
			    hipStream_t stream);

/* A launch hook's record: a node when `stream` is capturing and the call
 * succeeded, otherwise a launch (pl_rec_launch).  Inline: every launch
 * passes here, and almost none while a stream captures. */
static inline void pl_graph_launch_or_capture(uint8_t api, hipError_t rc,
					      const void *fn, dim3 grid,
					      dim3 block, void **args,
					      void **extra, size_t shmem,
					      hipStream_t stream)
{
	if (__builtin_expect(atomic_load_explicit(&pl_graph_capturing,
						  memory_order_relaxed), 0) &&
	    rc == hipSuccess && stream &&
	    pl_graph_capture_launch(fn, grid, block, args, extra, shmem,
				    stream))
		return;
	pl_rec_launch(api, rc, fn, grid, block, args, extra, shmem, stream);
}

/* Where a node's record goes: a node just added (added, in graph), or
 * the node `node` of the executable graph `exec`, or of its graph when
 * exec is NULL. */
struct pl_graph_at {
	hipGraphNode_t *added;
	hipGraph_t graph;
	hipGraphExec_t exec;
	hipGraphNode_t node;
};
#define PL_GA_ADD(n, g) ((struct pl_graph_at){.added = (n), .graph = (g)})
#define PL_GA_NODE(n) ((struct pl_graph_at){.node = (n)})
#define PL_GA_EXEC(x, n) ((struct pl_graph_at){.exec = (x), .node = (n)})

/* The node a record names: the one added, once the call succeeded. */
static inline uint64_t pl_graph_at_node(hipError_t rc, struct pl_graph_at at)
{
	if (at.added)
		return rc == hipSuccess ? (uintptr_t)*at.added : 0;
	return (uintptr_t)at.node;
}

struct pl_graph_node;
void pl_graph_put(struct pl_graph_at at, const struct pl_graph_node *nd);

/* Each records the call, and on success the node's meaning (see
 * pl_graph_copy.c for the copy and set forms). */
void pl_graph_rec_kernel(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 const hipKernelNodeParams *p);
void pl_graph_rec_copy1d(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 void *dst, const void *src, size_t n,
			 hipMemcpyKind kind);
void pl_graph_rec_copy3d(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 const hipMemcpy3DParms *p);
void pl_graph_rec_copy_drv(uint8_t api, hipError_t rc, struct pl_graph_at at,
			   const HIP_MEMCPY3D *p);
void pl_graph_rec_copy_symbol(uint8_t api, hipError_t rc,
			      struct pl_graph_at at, const void *symbol,
			      const void *other, size_t n, size_t offset,
			      hipMemcpyKind kind, int to_symbol);
void pl_graph_rec_set(uint8_t api, hipError_t rc, struct pl_graph_at at,
		      const hipMemsetParams *p);
void pl_graph_rec_set_drv(uint8_t api, hipError_t rc, struct pl_graph_at at,
			  const HIP_MEMSET_NODE_PARAMS *p);

void pl_graph_rec_instantiate(uint8_t api, hipError_t rc,
			      hipGraphExec_t *exec, hipGraph_t graph);
void pl_graph_rec_exec_update(hipError_t rc, hipGraphExec_t exec,
			      hipGraph_t graph);
void pl_graph_rec_set_enabled(hipError_t rc, hipGraphExec_t exec,
			      hipGraphNode_t node, unsigned int on);
void pl_graph_rec_launch(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			 hipStream_t stream, uintptr_t caller);
void pl_graph_rec_begin_capture(uint8_t api, hipError_t rc,
				hipStream_t stream, hipGraph_t into);
void pl_graph_rec_end_capture(hipError_t rc, hipStream_t stream,
			      hipGraph_t *graph);
void pl_graph_forget_graph(hipError_t rc, hipGraph_t graph);
void pl_graph_forget_exec(hipError_t rc, hipGraphExec_t exec);

/* Clones and child graphs (pl_graph_tree.c). */
void pl_graph_rec_clone(hipError_t rc, hipGraph_t *clone, hipGraph_t graph);
void pl_graph_rec_find_in_clone(hipError_t rc, hipGraphNode_t *found,
				hipGraphNode_t original, hipGraph_t clone);
void pl_graph_rec_child(uint8_t api, hipError_t rc, struct pl_graph_at at,
			hipGraph_t child);
void pl_graph_rec_destroy_node(hipError_t rc, hipGraphNode_t node);
void pl_graph_rec_free_node(uint8_t api, hipError_t rc, struct pl_graph_at at,
			    void *p);
void pl_graph_rec_alloc_node(hipError_t rc, struct pl_graph_at at,
			     const hipMemAllocNodeParams *p);
void pl_graph_rec_generic(uint8_t api, hipError_t rc, struct pl_graph_at at,
			  hipGraphNodeParams *p);

#endif
