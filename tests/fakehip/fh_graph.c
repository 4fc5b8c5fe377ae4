/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): graphs and stream capture.
 * Graphs hold counts of nodes, not work: hipGraphLaunch checks its
 * executable graph, logs it and returns, like every launch here, without
 * running a kernel.  A launch on a capturing stream becomes a node of the
 * capture's graph (fh_capture_launch), as in HIP; checks follow ROCm 5.2
 * (hip_graph.cpp) where the tests depend on them.
 */
#include "fh.h"

#define FH_MAX_GRAPHS 256
#define FH_MAX_NODES 4096
#define FH_MAX_CAPTURES 16

struct ihipGraph {
	int used;
	unsigned nodes;
};
struct hipGraphNode {
	struct ihipGraph *graph;
	int kernel;
	hipGraphNode_t origin; /* a clone's node: the node cloned */
};
struct hipGraphExec {
	int used;
	unsigned nodes;
};

static struct ihipGraph fh_graphs[FH_MAX_GRAPHS];
static struct hipGraphNode fh_nodes[FH_MAX_NODES];
static size_t fh_nnodes;
static struct hipGraphExec fh_execs[FH_MAX_GRAPHS];
static struct {
	hipStream_t stream;
	hipGraph_t graph;
} fh_captures[FH_MAX_CAPTURES];

int fh_graph_ok(hipGraph_t g)
{
	return g >= fh_graphs && g < fh_graphs + FH_MAX_GRAPHS && g->used;
}

int fh_exec_ok(hipGraphExec_t x)
{
	return x >= fh_execs && x < fh_execs + FH_MAX_GRAPHS && x->used;
}

/* Caller holds the lock. */
hipGraph_t fh_graph_new(void)
{
	for (size_t i = 0; i < FH_MAX_GRAPHS; i++)
		if (!fh_graphs[i].used) {
			fh_graphs[i] = (struct ihipGraph){1, 0};
			return &fh_graphs[i];
		}
	return NULL;
}

hipGraphNode_t fh_node_new(hipGraph_t g, int kernel)
{
	hipGraphNode_t n = NULL;

	if (fh_nnodes < FH_MAX_NODES) {
		n = &fh_nodes[fh_nnodes++];
		*n = (struct hipGraphNode){g, kernel, NULL};
		g->nodes++;
	}
	return n;
}

hipError_t hipGraphCreate(hipGraph_t *g, unsigned int flags)
{
	FH_INIT();
	if (!g || flags)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	*g = fh_graph_new();
	fh_unlock();
	fh_log("hipGraphCreate graph=%p -> %s", (void *)*g,
	       *g ? "hipSuccess" : "hipErrorOutOfMemory");
	return fh_ret(*g ? hipSuccess : hipErrorOutOfMemory);
}

hipError_t hipGraphDestroy(hipGraph_t g)
{
	FH_INIT();
	if (!fh_graph_ok(g))
		return fh_ret(hipErrorInvalidValue);
	g->used = 0;
	fh_log("hipGraphDestroy graph=%p -> hipSuccess", (void *)g);
	return fh_ret(hipSuccess);
}

hipError_t fh_kernel_params_ok(const hipKernelNodeParams *p)
{
	unsigned long long threads;

	if (!p || !p->func || !fh_kernel_name(p->func))
		return hipErrorInvalidDeviceFunction;
	threads = (unsigned long long)p->blockDim.x * p->blockDim.y *
		  p->blockDim.z;
	if (!p->gridDim.x || !p->gridDim.y || !p->gridDim.z || !threads ||
	    threads > 1024)
		return hipErrorInvalidConfiguration;
	return hipSuccess;
}

hipError_t fh_node_add(const char *api, hipGraphNode_t *node, hipGraph_t g,
			 int kernel, hipError_t err)
{
	if (!node || !fh_graph_ok(g))
		err = hipErrorInvalidValue;
	if (err == hipSuccess) {
		fh_lock();
		*node = fh_node_new(g, kernel);
		fh_unlock();
		if (!*node)
			err = hipErrorOutOfMemory;
	}
	fh_log("%s graph=%p node=%p -> %s", api, (void *)g,
	       err == hipSuccess ? (void *)*node : NULL, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphAddKernelNode(hipGraphNode_t *node, hipGraph_t g,
				 const hipGraphNode_t *deps, size_t ndeps,
				 const hipKernelNodeParams *p)
{
	FH_INIT();
	if (ndeps && !deps)
		return fh_ret(hipErrorInvalidValue);
	return fh_node_add("hipGraphAddKernelNode", node, g, 1,
		      fh_kernel_params_ok(p));
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *node, hipGraph_t g,
				   const hipGraphNode_t *deps, size_t ndeps,
				   void *dst, const void *src, size_t count,
				   hipMemcpyKind kind)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemcpyNode1D", node, g, 0,
		      dst && src && count && (!ndeps || deps)
			      ? hipSuccess : hipErrorInvalidValue);
}

hipError_t hipGraphAddMemsetNode(hipGraphNode_t *node, hipGraph_t g,
				 const hipGraphNode_t *deps, size_t ndeps,
				 const hipMemsetParams *p)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemsetNode", node, g, 0,
		      p && p->dst && p->width && (!ndeps || deps)
			      ? hipSuccess : hipErrorInvalidValue);
}

/* The memory exists from the node's creation (ROCm reserves it then), and
 * is the caller's to free with hipFree. */
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *node, hipGraph_t g,
				   const hipGraphNode_t *deps, size_t ndeps,
				   hipMemAllocNodeParams *p)
{
	FH_INIT();
	hipError_t err = p && (!ndeps || deps) && fh_graph_ok(g) && node
				 ? fh_pool_map(&p->dptr, p->bytesize,
					       &p->poolProps)
				 : hipErrorInvalidValue;

	if (err != hipSuccess)
		return fh_ret(err);
	return fh_node_add("hipGraphAddMemAllocNode", node, g, 0, err);
}

int fh_node_ok(hipGraphNode_t n)
{
	return n >= fh_nodes && n < fh_nodes + FH_MAX_NODES && n->graph;
}

int fh_node_is_kernel(hipGraphNode_t n)
{
	return fh_node_ok(n) && n->kernel;
}

/* The clone's nodes remember theirs, for hipGraphNodeFindInClone. */
hipError_t hipGraphClone(hipGraph_t *out, hipGraph_t g)
{
	FH_INIT();
	hipGraph_t c = NULL;
	size_t n;

	if (!out || !fh_graph_ok(g))
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	c = fh_graph_new();
	n = fh_nnodes;
	for (size_t i = 0; c && i < n; i++) {
		hipGraphNode_t made = NULL;

		if (fh_nodes[i].graph == g)
			made = fh_node_new(c, fh_nodes[i].kernel);
		if (made)
			made->origin = &fh_nodes[i];
	}
	fh_unlock();
	fh_log("hipGraphClone graph=%p clone=%p -> %s", (void *)g, (void *)c,
	       c ? "hipSuccess" : "hipErrorOutOfMemory");
	if (!c)
		return fh_ret(hipErrorOutOfMemory);
	*out = c;
	return fh_ret(hipSuccess);
}

hipError_t hipGraphNodeFindInClone(hipGraphNode_t *out, hipGraphNode_t orig,
				   hipGraph_t clone)
{
	FH_INIT();
	hipGraphNode_t found = NULL;

	if (!out || !fh_node_ok(orig) || !fh_graph_ok(clone))
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	for (size_t i = 0; i < fh_nnodes && !found; i++)
		if (fh_nodes[i].graph == clone && fh_nodes[i].origin == orig)
			found = &fh_nodes[i];
	fh_unlock();
	if (!found)
		return fh_ret(hipErrorInvalidValue);
	*out = found;
	return fh_ret(hipSuccess);
}

hipError_t hipGraphDestroyNode(hipGraphNode_t n)
{
	FH_INIT();
	if (!fh_node_ok(n))
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	n->graph->nodes--;
	n->graph = NULL;
	fh_unlock();
	fh_log("hipGraphDestroyNode node=%p -> hipSuccess", (void *)n);
	return fh_ret(hipSuccess);
}

hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
				       const hipKernelNodeParams *p)
{
	FH_INIT();
	hipError_t err = fh_node_ok(node) && node->kernel
				 ? fh_kernel_params_ok(p)
				 : hipErrorInvalidValue;
	fh_log("hipGraphKernelNodeSetParams node=%p -> %s", (void *)node,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t x,
					   hipGraphNode_t node,
					   const hipKernelNodeParams *p)
{
	FH_INIT();
	hipError_t err = fh_exec_ok(x) && fh_node_ok(node) && node->kernel
				 ? fh_kernel_params_ok(p)
				 : hipErrorInvalidValue;
	fh_log("hipGraphExecKernelNodeSetParams exec=%p node=%p -> %s",
	       (void *)x, (void *)node, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *x, hipGraph_t g,
					unsigned long long flags)
{
	FH_INIT();
	hipGraphExec_t e = NULL;

	if (!x || !fh_graph_ok(g))
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	for (size_t i = 0; i < FH_MAX_GRAPHS && !e; i++)
		if (!fh_execs[i].used) {
			e = &fh_execs[i];
			*e = (struct hipGraphExec){1, g->nodes};
		}
	fh_unlock();
	fh_log("hipGraphInstantiate graph=%p exec=%p nodes=%u -> %s",
	       (void *)g, (void *)e, g->nodes,
	       e ? "hipSuccess" : "hipErrorOutOfMemory");
	if (!e)
		return fh_ret(hipErrorOutOfMemory);
	*x = e;
	return fh_ret(hipSuccess);
}

hipError_t hipGraphInstantiate(hipGraphExec_t *x, hipGraph_t g,
			       hipGraphNode_t *err_node, char *log, size_t n)
{
	if (log && n)
		log[0] = 0;
	return hipGraphInstantiateWithFlags(x, g, 0);
}

hipError_t hipGraphLaunch(hipGraphExec_t x, hipStream_t stream)
{
	FH_INIT();
	hipError_t err = fh_exec_ok(x) ? hipSuccess : hipErrorInvalidValue;

	fh_log("hipGraphLaunch exec=%p nodes=%u stream=%p -> %s", (void *)x,
	       err == hipSuccess ? x->nodes : 0, (void *)stream,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphExecDestroy(hipGraphExec_t x)
{
	FH_INIT();
	if (!fh_exec_ok(x))
		return fh_ret(hipErrorInvalidValue);
	x->used = 0;
	fh_log("hipGraphExecDestroy exec=%p -> hipSuccess", (void *)x);
	return fh_ret(hipSuccess);
}

/* Caller holds the lock. */
static size_t fh_capture_slot(hipStream_t stream)
{
	size_t i;

	for (i = 0; i < FH_MAX_CAPTURES; i++)
		if (fh_captures[i].graph && fh_captures[i].stream == stream)
			break;
	return i;
}

/* into: the graph a capture adds to, or NULL for a new one. */
static hipError_t fh_begin_capture(const char *api, hipStream_t stream,
				   hipGraph_t into, hipStreamCaptureMode mode)
{
	hipError_t err = hipSuccess;
	size_t i;

	if (!stream) /* the null stream cannot be captured */
		return fh_ret(hipErrorStreamCaptureUnsupported);
	if (into && !fh_graph_ok(into))
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	if (fh_capture_slot(stream) < FH_MAX_CAPTURES) {
		err = hipErrorIllegalState;
	} else {
		for (i = 0; i < FH_MAX_CAPTURES && fh_captures[i].graph; i++)
			;
		if (i == FH_MAX_CAPTURES ||
		    !(fh_captures[i].graph = into ? into : fh_graph_new()))
			err = hipErrorOutOfMemory;
		else
			fh_captures[i].stream = stream;
	}
	fh_unlock();
	fh_log("%s stream=%p mode=%d -> %s", api, (void *)stream, (int)mode,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode)
{
	FH_INIT();
	return fh_begin_capture("hipStreamBeginCapture", stream, NULL, mode);
}

hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t g,
					const hipGraphNode_t *deps,
					const hipGraphEdgeData *data,
					size_t ndeps, hipStreamCaptureMode mode)
{
	FH_INIT();
	if (!g || (ndeps && !deps))
		return fh_ret(hipErrorInvalidValue);
	return fh_begin_capture("hipStreamBeginCaptureToGraph", stream, g,
				mode);
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *g)
{
	FH_INIT();
	hipGraph_t got = NULL;
	size_t i;

	if (!g)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	i = fh_capture_slot(stream);
	if (i < FH_MAX_CAPTURES) {
		got = fh_captures[i].graph;
		fh_captures[i].graph = NULL;
	}
	fh_unlock();
	fh_log("hipStreamEndCapture stream=%p graph=%p -> %s", (void *)stream,
	       (void *)got, got ? "hipSuccess" : "hipErrorIllegalState");
	if (!got)
		return fh_ret(hipErrorIllegalState);
	*g = got;
	return fh_ret(hipSuccess);
}

hipError_t hipStreamIsCapturing(hipStream_t stream,
				hipStreamCaptureStatus *status)
{
	FH_INIT();
	if (!status)
		return fh_ret(hipErrorInvalidValue);
	fh_lock();
	*status = fh_capture_slot(stream) < FH_MAX_CAPTURES
			  ? hipStreamCaptureStatusActive
			  : hipStreamCaptureStatusNone;
	fh_unlock();
	return fh_ret(hipSuccess);
}

int fh_capture_launch(hipStream_t stream)
{
	hipGraphNode_t n = NULL;
	size_t i;

	if (!stream)
		return 0;
	fh_lock();
	i = fh_capture_slot(stream);
	if (i < FH_MAX_CAPTURES)
		n = fh_node_new(fh_captures[i].graph, 1);
	fh_unlock();
	return n != NULL;
}
