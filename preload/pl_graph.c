/* SPDX-License-Identifier: MIT */
/*
 * HIP graphs (see pl_graph.h).  What each graph, executable graph and
 * capture holds is kept as a list of nodes under one lock: graphs are
 * built once and launched many times, and a launch walks one short list.
 * An executable graph is a copy of its graph's nodes when it was
 * instantiated (later changes to the graph do not reach it, as in HIP);
 * hipGraphExecKernelNodeSetParams changes the copy.
 */
#include "pl_graph.h"

#include <string.h>

#include "hg_events.h"
#include "pl_kernel.h"
#include "reg_emit.h"
#include "reg_kernel.h"
#include "reg_lock.h"
#include "reg_track.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

/* Argument slots rebuilt for a node's launch: pointer arguments at a
 * higher index than this are not resolved (no kernel has that many). */
#define ARGV_MAX 256

enum node_kind { N_KERNEL, N_COPY, N_SET };
enum graph_kind { G_GRAPH, G_EXEC, G_CAPTURE };

struct node {
	uint64_t handle; /* the runtime's node; 0 for a captured launch */
	uint8_t kind;
	/* N_KERNEL */
	const void *fn;
	dim3 grid, block;
	size_t shmem;
	uint16_t n, nargv;
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR];
	/* N_COPY, N_SET */
	void *dst;
	const void *src;
	size_t bytes;
	int how; /* the copy's hipMemcpyKind, the set's value */
};

struct graph {
	struct graph *next;
	uint64_t handle; /* hipGraph_t, hipGraphExec_t, or the stream */
	uint8_t kind;
	size_t n, cap;
	struct node *nodes;
};

atomic_int pl_graph_capturing;
static reg_lock_t lock = REG_LOCK_INIT;
static struct graph *graphs;

static struct graph *find(uint8_t kind, uint64_t handle)
{
	for (struct graph *g = graphs; g; g = g->next)
		if (g->kind == kind && g->handle == handle)
			return g;
	return NULL;
}

static struct graph *find_or_add(uint8_t kind, uint64_t handle)
{
	struct graph *g = find(kind, handle);

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

static void drop(struct graph *g)
{
	struct graph **at;

	for (at = &graphs; *at && *at != g; at = &(*at)->next)
		;
	if (*at)
		*at = g->next;
	__libc_free(g->nodes);
	__libc_free(g);
}

static struct node *append(struct graph *g)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 8;
		struct node *n = __libc_realloc(g->nodes, cap * sizeof(*n));

		if (!n)
			return NULL;
		g->nodes = n;
		g->cap = cap;
	}
	memset(&g->nodes[g->n], 0, sizeof(g->nodes[0]));
	return &g->nodes[g->n++];
}

static struct node *node_in(struct graph *g, uint64_t handle)
{
	for (size_t i = 0; g && handle && i < g->n; i++)
		if (g->nodes[i].handle == handle)
			return &g->nodes[i];
	return NULL;
}

/* The argument values, read now: the caller's array may be gone by the
 * time the graph runs.  Learning the layout profiles the kernel, as its
 * first launch would. */
static void set_kernel(struct node *nd, const void *fn, dim3 grid,
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
		if (nd->idx[i] < ARGV_MAX && nd->idx[i] >= nd->nargv)
			nd->nargv = (uint16_t)(nd->idx[i] + 1);
}

static void kernel_params(struct node *nd, const hipKernelNodeParams *p)
{
	set_kernel(nd, p->func, p->gridDim, p->blockDim, p->sharedMemBytes,
		   p->kernelParams, p->kernelParams ? NULL : p->extra);
}

/* Appends a copy of nd to the graph of that kind and handle. */
static int add_copy(uint8_t kind, uint64_t handle, int create,
		    const struct node *nd)
{
	struct graph *g;
	struct node *at;

	reg_lock(&lock);
	g = create ? find_or_add(kind, handle) : find(kind, handle);
	at = g ? append(g) : NULL;
	if (at)
		*at = *nd;
	reg_unlock(&lock);
	return at != NULL;
}

int pl_graph_capture_launch(const void *fn, dim3 grid, dim3 block,
			    void **args, void **extra, size_t shmem,
			    hipStream_t stream)
{
	struct node nd = {0};

	set_kernel(&nd, fn, grid, block, shmem, args, extra);
	return add_copy(G_CAPTURE, (uintptr_t)stream, 0, &nd);
}

void pl_graph_rec_kernel_node(uint8_t api, hipError_t rc,
			      hipGraphNode_t *node, hipGraph_t graph,
			      const hipKernelNodeParams *p)
{
	uint64_t h = rc == hipSuccess && node ? (uintptr_t)*node : 0;
	struct node nd = {0};

	reg_emit_call(api, rc, h);
	if (!h || !p)
		return;
	nd.handle = h;
	kernel_params(&nd, p);
	add_copy(G_GRAPH, (uintptr_t)graph, 1, &nd);
}

/* A node of a graph (exec NULL) or of an executable graph. */
void pl_graph_rec_set_params(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			     hipGraphNode_t node, const hipKernelNodeParams *p)
{
	struct node *nd = NULL, now = {0};

	reg_emit_call(api, rc, (uintptr_t)node);
	if (rc != hipSuccess || !p)
		return;
	kernel_params(&now, p);
	now.handle = (uintptr_t)node;
	reg_lock(&lock);
	if (exec)
		nd = node_in(find(G_EXEC, (uintptr_t)exec), (uintptr_t)node);
	else
		for (struct graph *g = graphs; g && !nd; g = g->next)
			if (g->kind == G_GRAPH)
				nd = node_in(g, (uintptr_t)node);
	if (nd && nd->kind == N_KERNEL)
		*nd = now;
	reg_unlock(&lock);
}

static struct node *add_node(hipError_t rc, hipGraphNode_t *node,
			     hipGraph_t graph, uint8_t kind)
{
	struct graph *g;
	struct node *nd;

	if (rc != hipSuccess || !node)
		return NULL;
	g = find_or_add(G_GRAPH, (uintptr_t)graph);
	nd = g ? append(g) : NULL;
	if (nd) {
		nd->handle = (uintptr_t)*node;
		nd->kind = kind;
	}
	return nd;
}

void pl_graph_rec_copy_node(hipError_t rc, hipGraphNode_t *node,
			    hipGraph_t graph, void *dst, const void *src,
			    size_t n, hipMemcpyKind kind)
{
	struct node *nd;

	reg_emit_call(HG_API_HIP_GRAPH_ADD_MEMCPY_NODE_1D, rc,
		      (uintptr_t)dst);
	reg_lock(&lock);
	nd = add_node(rc, node, graph, N_COPY);
	if (nd) {
		nd->dst = dst;
		nd->src = src;
		nd->bytes = n;
		nd->how = kind;
	}
	reg_unlock(&lock);
}

void pl_graph_rec_set_node(hipError_t rc, hipGraphNode_t *node,
			   hipGraph_t graph, const hipMemsetParams *p)
{
	struct node *nd;

	reg_emit_call(HG_API_HIP_GRAPH_ADD_MEMSET_NODE, rc,
		      p ? (uintptr_t)p->dst : 0);
	if (!p)
		return;
	reg_lock(&lock);
	nd = add_node(rc, node, graph, N_SET);
	if (nd) {
		nd->dst = p->dst;
		/* A 2D set covers pitch bytes a row but the last. */
		nd->bytes = p->height > 1 ? p->pitch * (p->height - 1) : 0;
		nd->bytes += (size_t)p->width * p->elementSize;
		nd->how = (int)p->value;
	}
	reg_unlock(&lock);
}

void pl_graph_rec_instantiate(uint8_t api, hipError_t rc,
			      hipGraphExec_t *exec, hipGraph_t graph)
{
	uint64_t h = rc == hipSuccess && exec ? (uintptr_t)*exec : 0;
	struct graph *g, *x;

	reg_emit_call(api, rc, h);
	if (!h)
		return;
	reg_lock(&lock);
	g = find(G_GRAPH, (uintptr_t)graph);
	x = find(G_EXEC, h);
	if (x) /* the runtime reused the handle of one destroyed unseen */
		drop(x);
	x = g && g->n ? find_or_add(G_EXEC, h) : NULL;
	if (x) {
		x->nodes = __libc_calloc(g->n, sizeof(*x->nodes));
		if (x->nodes) {
			memcpy(x->nodes, g->nodes, g->n * sizeof(*x->nodes));
			x->n = x->cap = g->n;
		}
	}
	reg_unlock(&lock);
}

static void launch_node(uint8_t api, hipError_t rc, const struct node *nd,
			hipStream_t stream)
{
	void *argv[ARGV_MAX];

	switch (nd->kind) {
	case N_KERNEL:
		memset(argv, 0, nd->nargv * sizeof(*argv));
		for (uint16_t i = 0; i < nd->n; i++)
			if (nd->idx[i] < ARGV_MAX)
				argv[nd->idx[i]] = (void *)&nd->val[i];
		pl_rec_launch_args(api, rc, nd->fn, nd->grid, nd->block, argv,
				   nd->nargv, nd->shmem, stream);
		break;
	case N_COPY:
		reg_track_memcpy(api, rc, nd->dst, nd->src, nd->bytes, nd->how,
				 (uintptr_t)stream, 1);
		break;
	case N_SET:
		reg_track_memset(api, rc, nd->dst, nd->how, nd->bytes,
				 (uintptr_t)stream);
		break;
	}
}

/* The nodes are copied out first: a launch profiles a kernel it has not
 * seen and writes events, which other threads' graph calls need not wait
 * for. */
void pl_graph_rec_launch(uint8_t api, hipError_t rc, hipGraphExec_t exec,
			 hipStream_t stream)
{
	struct graph *x;
	struct node *nodes = NULL;
	size_t n = 0;

	reg_emit_call(api, rc, (uintptr_t)exec);
	reg_lock(&lock);
	x = find(G_EXEC, (uintptr_t)exec);
	if (x && x->n)
		nodes = __libc_malloc(x->n * sizeof(*nodes));
	if (nodes) {
		n = x->n;
		memcpy(nodes, x->nodes, n * sizeof(*nodes));
	}
	reg_unlock(&lock);
	for (size_t i = 0; i < n; i++)
		launch_node(api, rc, &nodes[i], stream);
	__libc_free(nodes);
}

void pl_graph_rec_begin_capture(hipError_t rc, hipStream_t stream)
{
	struct graph *g;

	reg_emit_call(HG_API_HIP_STREAM_BEGIN_CAPTURE, rc, (uintptr_t)stream);
	if (rc != hipSuccess || !stream)
		return;
	reg_lock(&lock);
	g = find(G_CAPTURE, (uintptr_t)stream);
	if (g) /* a capture that ended unseen: start afresh */
		g->n = 0;
	else if (find_or_add(G_CAPTURE, (uintptr_t)stream))
		atomic_fetch_add(&pl_graph_capturing, 1);
	reg_unlock(&lock);
}

/* The capture's nodes become the graph's, whatever the call answered: a
 * failed capture ends too (HIP invalidates it). */
void pl_graph_rec_end_capture(hipError_t rc, hipStream_t stream,
			      hipGraph_t *graph)
{
	struct graph *g, *old;

	reg_emit_call(HG_API_HIP_STREAM_END_CAPTURE, rc, (uintptr_t)stream);
	reg_lock(&lock);
	g = stream ? find(G_CAPTURE, (uintptr_t)stream) : NULL;
	if (g) {
		atomic_fetch_sub(&pl_graph_capturing, 1);
		if (rc == hipSuccess && graph && *graph) {
			old = find(G_GRAPH, (uintptr_t)*graph);
			if (old)
				drop(old);
			g->kind = G_GRAPH;
			g->handle = (uintptr_t)*graph;
		} else {
			drop(g);
		}
	}
	reg_unlock(&lock);
}

static void forget(uint8_t kind, hipError_t rc, uint64_t handle)
{
	struct graph *g;

	if (rc != hipSuccess)
		return;
	reg_lock(&lock);
	g = find(kind, handle);
	if (g)
		drop(g);
	reg_unlock(&lock);
}

void pl_graph_forget_graph(hipError_t rc, hipGraph_t graph)
{
	forget(G_GRAPH, rc, (uintptr_t)graph);
}

void pl_graph_forget_exec(hipError_t rc, hipGraphExec_t exec)
{
	forget(G_EXEC, rc, (uintptr_t)exec);
}
