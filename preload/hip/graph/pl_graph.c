/* SPDX-License-Identifier: MIT */
/*
 * HIP graphs (see pl_graph.h): kernel nodes, stream capture, and where a
 * node's record goes.  An executable graph is a copy of its graph's nodes
 * when it was instantiated (later changes to the graph do not reach it, as
 * in HIP); the Exec*SetParams calls change the copy.
 */
#include "pl_graph.h"

#include "hg_events.h"
#include "pl_graph_store.h"
#include "reg.h"

atomic_int pl_graph_capturing;

/* A node just added (at.added) takes nd; a node set anew keeps what it
 * is in its graph (its handle, where it was cloned from, whether it
 * runs) and takes the rest.  A node of another kind is left alone: the
 * runtime refused such a call. */
void pl_graph_put(struct pl_graph_at at, const struct pl_graph_node *nd)
{
	struct pl_graph_node *to = NULL, *made;

	pl_graph_lock();
	if (at.added) {
		struct pl_graph *g =
			pl_graph_find_or_add(G_GRAPH, (uintptr_t)at.graph);

		made = g ? pl_graph_append(g) : NULL;
		if (made) {
			*made = *nd;
			made->handle = (uintptr_t)*at.added;
		}
	} else if (at.exec) {
		to = pl_graph_node_in(pl_graph_find(G_EXEC,
						    (uintptr_t)at.exec),
				      (uintptr_t)at.node);
	} else {
		to = pl_graph_node_in(pl_graph_holding((uintptr_t)at.node),
				      (uintptr_t)at.node);
	}
	if (to && !to->embedded && to->kind == nd->kind) {
		struct pl_graph_node keep = *to;

		*to = *nd;
		to->handle = keep.handle;
		to->origin = keep.origin;
		to->disabled = keep.disabled;
	}
	pl_graph_unlock();
}

int pl_graph_capture_launch(const void *fn, dim3 grid, dim3 block,
			    void **args, void **extra, size_t shmem,
			    hipStream_t stream)
{
	struct pl_graph_node nd = {0};
	struct pl_graph *g;
	struct pl_graph_node *at = NULL;

	pl_graph_kernel(&nd, fn, grid, block, shmem, args, extra);
	pl_graph_lock();
	g = pl_graph_find(G_CAPTURE, (uintptr_t)stream);
	if (g)
		at = pl_graph_append(g);
	if (at)
		*at = nd;
	pl_graph_unlock();
	return at != NULL;
}

static void kernel_params(struct pl_graph_node *nd,
			  const hipKernelNodeParams *p)
{
	pl_graph_kernel(nd, p->func, p->gridDim, p->blockDim,
			p->sharedMemBytes, p->kernelParams,
			p->kernelParams ? NULL : p->extra);
}

void pl_graph_rec_kernel(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 const hipKernelNodeParams *p)
{
	struct pl_graph_node nd = {0};

	reg_emit_call(api, rc, pl_graph_at_node(rc, at));
	if (rc != hipSuccess || !p)
		return;
	kernel_params(&nd, p);
	pl_graph_put(at, &nd);
}

/* into: the graph a capture adds to (hipStreamBeginCaptureToGraph). */
void pl_graph_rec_begin_capture(uint8_t api, hipError_t rc,
				hipStream_t stream, hipGraph_t into)
{
	struct pl_graph *g;

	reg_emit_call(api, rc, (uintptr_t)stream);
	if (rc != hipSuccess || !stream)
		return;
	pl_graph_lock();
	g = pl_graph_find(G_CAPTURE, (uintptr_t)stream);
	if (g) { /* a capture that ended unseen: start afresh */
		g->n = 0;
	} else {
		g = pl_graph_find_or_add(G_CAPTURE, (uintptr_t)stream);
		if (g)
			atomic_fetch_add(&pl_graph_capturing, 1);
	}
	if (g)
		g->into = (uintptr_t)into;
	pl_graph_unlock();
}

/* The capture's nodes become the graph's, whatever the call answered: a
 * failed capture ends too (HIP invalidates it).  A capture into an
 * existing graph adds to it. */
void pl_graph_rec_end_capture(hipError_t rc, hipStream_t stream,
			      hipGraph_t *graph)
{
	struct pl_graph *g, *old = NULL;

	reg_emit_call(HG_API_HIP_STREAM_END_CAPTURE, rc, (uintptr_t)stream);
	pl_graph_lock();
	g = stream ? pl_graph_find(G_CAPTURE, (uintptr_t)stream) : NULL;
	if (g)
		atomic_fetch_sub(&pl_graph_capturing, 1);
	if (g && rc == hipSuccess && graph && *graph)
		old = pl_graph_find(G_GRAPH, (uintptr_t)*graph);
	if (old && g->into == (uintptr_t)*graph) {
		pl_graph_append_all(old, g->nodes, g->n);
		pl_graph_drop(g);
	} else if (g && rc == hipSuccess && graph && *graph) {
		if (old)
			pl_graph_drop(old);
		g->kind = G_GRAPH;
		g->handle = (uintptr_t)*graph;
	} else if (g) {
		pl_graph_drop(g);
	}
	pl_graph_unlock();
}

static void forget(uint8_t kind, hipError_t rc, uint64_t handle)
{
	struct pl_graph *g;

	if (rc != hipSuccess)
		return;
	pl_graph_lock();
	g = pl_graph_find(kind, handle);
	if (g)
		pl_graph_drop(g);
	pl_graph_unlock();
}

void pl_graph_forget_graph(hipError_t rc, hipGraph_t graph)
{
	forget(G_GRAPH, rc, (uintptr_t)graph);
}

void pl_graph_forget_exec(hipError_t rc, hipGraphExec_t exec)
{
	forget(G_EXEC, rc, (uintptr_t)exec);
}
