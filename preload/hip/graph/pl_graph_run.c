/* SPDX-License-Identifier: MIT */
/*
 * Executable graphs: made from a graph's nodes, changed by whole-graph
 * updates and by enabling or disabling a node, and replayed at each
 * hipGraphLaunch as the launches, copies, sets and frees they stand for.
 */
#include "pl_graph.h"

#include <string.h>

#include "hg_events.h"
#include "pl_graph_store.h"
#include "pl_launch.h"
#include "pl_vm.h"
#include "reg.h"

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);

/* Caller holds the lock.  x's nodes become a copy of g's. */
static void copy_nodes(struct pl_graph *x, const struct pl_graph *g)
{
	x->n = 0;
	if (g)
		pl_graph_append_all(x, g->nodes, g->n);
}

void pl_graph_rec_instantiate(uint8_t api, hipError_t rc,
			      hipGraphExec_t *exec, hipGraph_t graph)
{
	uint64_t h = rc == hipSuccess && exec ? (uintptr_t)*exec : 0;
	struct pl_graph *g, *x;

	reg_emit_call(api, rc, h);
	if (!h)
		return;
	pl_graph_lock();
	g = pl_graph_find(G_GRAPH, (uintptr_t)graph);
	x = pl_graph_find(G_EXEC, h);
	if (x) /* the runtime reused the handle of one destroyed unseen */
		pl_graph_drop(x);
	x = g && g->n ? pl_graph_find_or_add(G_EXEC, h) : NULL;
	if (x)
		copy_nodes(x, g);
	pl_graph_unlock();
}

/* HIP pairs the executable graph's nodes with the graph's in order and
 * takes each one's parameters: the nodes keep the handles the executable
 * graph knows them by, so later Exec*SetParams calls still find them. */
void pl_graph_rec_exec_update(hipError_t rc, hipGraphExec_t exec,
			      hipGraph_t graph)
{
	struct pl_graph *g, *x;

	reg_emit_call(HG_API_HIP_GRAPH_EXEC_UPDATE, rc, (uintptr_t)exec);
	if (rc != hipSuccess)
		return;
	pl_graph_lock();
	g = pl_graph_find(G_GRAPH, (uintptr_t)graph);
	x = pl_graph_find_or_add(G_EXEC, (uintptr_t)exec);
	if (x && g && x->n == g->n) {
		for (size_t i = 0; i < g->n; i++) {
			struct pl_graph_node keep = x->nodes[i];

			x->nodes[i] = g->nodes[i];
			x->nodes[i].handle = keep.handle;
			x->nodes[i].disabled = keep.disabled;
		}
	} else if (x) {
		copy_nodes(x, g);
	}
	pl_graph_unlock();
}

void pl_graph_rec_set_enabled(hipError_t rc, hipGraphExec_t exec,
			      hipGraphNode_t node, unsigned int on)
{
	struct pl_graph *x;

	reg_emit_call(HG_API_HIP_GRAPH_NODE_SET_ENABLED, rc, (uintptr_t)node);
	if (rc != hipSuccess || !node)
		return;
	pl_graph_lock();
	x = pl_graph_find(G_EXEC, (uintptr_t)exec);
	for (size_t i = 0; x && i < x->n; i++)
		if (x->nodes[i].handle == (uintptr_t)node)
			x->nodes[i].disabled = !on;
	pl_graph_unlock();
}

static void run_kernel(uint8_t api, hipError_t rc,
		       const struct pl_graph_node *nd, hipStream_t stream)
{
	void *argv[PL_GRAPH_ARGV_MAX];

	memset(argv, 0, nd->nargv * sizeof(*argv));
	for (uint16_t i = 0; i < nd->n; i++)
		if (nd->idx[i] < PL_GRAPH_ARGV_MAX)
			argv[nd->idx[i]] = (void *)&nd->val[i];
	pl_rec_launch_args(api, rc, nd->fn, nd->grid, nd->block, argv,
			   nd->nargv, nd->shmem, stream);
}

/* A free node's memory leaves the registry as hipFreeAsync's would; the
 * free names the node's API, the launch is its call site. */
static void run_free(hipError_t rc, const struct pl_graph_node *nd,
		     uintptr_t caller)
{
	struct reg_hip_free st = {0};

	pl_launch_flush();
	reg_track_hip_free_begin(nd->dst, &st);
	reg_track_hip_free_end((uint8_t)nd->how, rc, nd->dst, &st,
			       caller);
}

/* Memory a free node (or hipFree) released comes back: the node
 * allocates it again at the same address. */
static void run_alloc(const struct pl_graph_node *nd)
{
	struct reg_ptr r;

	reg_track_resolve((uintptr_t)nd->dst, &r);
	if (!r.id)
		pl_vm_rec_graph_alloc_again(nd->dst, nd->bytes, nd->prop);
}

static void run_node(uint8_t api, hipError_t rc,
		     const struct pl_graph_node *nd, hipStream_t stream,
		     uintptr_t caller)
{
	switch (nd->kind) {
	case N_KERNEL:
		run_kernel(api, rc, nd, stream);
		break;
	case N_COPY:
		reg_track_memcpy(api, rc, nd->dst, nd->src, nd->bytes, nd->how,
				 (uintptr_t)stream, 1);
		break;
	case N_SET:
		reg_track_memset(api, rc, nd->dst, nd->how, nd->bytes,
				 (uintptr_t)stream);
		break;
	case N_FREE:
		if (rc == hipSuccess)
			run_free(rc, nd, caller);
		break;
	case N_ALLOC:
		if (rc == hipSuccess)
			run_alloc(nd);
		break;
	}
}

/* The nodes are copied out first: a launch profiles a kernel it has not
 * seen and writes events, which other threads' graph calls need not wait
 * for.  caller: the program's call, where a free node's free is placed. */
void pl_graph_rec_launch(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			 hipStream_t stream, uintptr_t caller)
{
	struct pl_graph *x;
	struct pl_graph_node *nodes = NULL;
	size_t n = 0;

	reg_emit_call(api, rc, (uintptr_t)exec);
	pl_graph_lock();
	x = pl_graph_find(G_EXEC, (uintptr_t)exec);
	if (x && x->n)
		nodes = __libc_malloc(x->n * sizeof(*nodes));
	if (nodes) {
		n = x->n;
		memcpy(nodes, x->nodes, n * sizeof(*nodes));
	}
	pl_graph_unlock();
	for (size_t i = 0; i < n; i++)
		if (!nodes[i].disabled)
			run_node(api, rc, &nodes[i], stream, caller);
	__libc_free(nodes);
}
