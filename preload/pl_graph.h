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
#include "pl_kernel.h"

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

void pl_graph_rec_kernel_node(uint8_t api, hipError_t rc,
			      hipGraphNode_t *node, hipGraph_t graph,
			      const hipKernelNodeParams *p);
void pl_graph_rec_set_params(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			     hipGraphNode_t node, const hipKernelNodeParams *p);
void pl_graph_rec_copy_node(hipError_t rc, hipGraphNode_t *node,
			    hipGraph_t graph, void *dst, const void *src,
			    size_t n, hipMemcpyKind kind);
void pl_graph_rec_set_node(hipError_t rc, hipGraphNode_t *node,
			   hipGraph_t graph, const hipMemsetParams *p);
void pl_graph_rec_instantiate(uint8_t api, hipError_t rc,
			      hipGraphExec_t *exec, hipGraph_t graph);
void pl_graph_rec_launch(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			 hipStream_t stream);
void pl_graph_rec_begin_capture(hipError_t rc, hipStream_t stream);
void pl_graph_rec_end_capture(hipError_t rc, hipStream_t stream,
			      hipGraph_t *graph);
void pl_graph_forget_graph(hipError_t rc, hipGraph_t graph);
void pl_graph_forget_exec(hipError_t rc, hipGraphExec_t exec);

#endif
