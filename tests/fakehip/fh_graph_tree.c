/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): child graph nodes, whole-
 * graph updates, enabling nodes, free nodes and ROCm 6's generic node
 * parameters.  Checked and counted like every node here, never run.
 */
#include "fh.h"

/* ROCm 6's hipGraphNodeType values. */
enum { T6_KERNEL = 0, T6_ALLOC = 10 };

static hipError_t fh_check(const char *api, const void *what, int ok)
{
	hipError_t err = ok ? hipSuccess : hipErrorInvalidValue;

	fh_log("%s %p -> %s", api, what, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *n, hipGraph_t g,
				     const hipGraphNode_t *deps, size_t nd,
				     hipGraph_t child)
{
	FH_INIT();
	return fh_node_add("hipGraphAddChildGraphNode", n, g, 0,
			   fh_graph_ok(child) && child != g && (!nd || deps)
				   ? hipSuccess
				   : hipErrorInvalidValue);
}

hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t x,
					       hipGraphNode_t n,
					       hipGraph_t child)
{
	FH_INIT();
	return fh_check("hipGraphExecChildGraphNodeSetParams", n,
			fh_exec_ok(x) && fh_node_ok(n) &&
				!fh_node_is_kernel(n) && fh_graph_ok(child));
}

hipError_t hipGraphExecUpdate(hipGraphExec_t x, hipGraph_t g,
			      hipGraphNode_t *err_node,
			      hipGraphExecUpdateResult *result)
{
	FH_INIT();
	int ok = fh_exec_ok(x) && fh_graph_ok(g) && err_node && result;

	if (ok) {
		*err_node = NULL;
		*result = hipGraphExecUpdateSuccess;
	}
	return fh_check("hipGraphExecUpdate", x, ok);
}

hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *x, hipGraph_t g,
					 hipGraphInstantiateParams *p)
{
	if (!p)
		return fh_ret(hipErrorInvalidValue);
	return hipGraphInstantiateWithFlags(x, g, 0);
}

hipError_t hipGraphNodeSetEnabled(hipGraphExec_t x, hipGraphNode_t n,
				  unsigned int on)
{
	FH_INIT();
	return fh_check("hipGraphNodeSetEnabled", n,
			fh_exec_ok(x) && fh_node_ok(n));
}

hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *n, hipGraph_t g,
				  const hipGraphNode_t *deps, size_t nd,
				  void *p)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemFreeNode", n, g, 0,
			   p && (!nd || deps) ? hipSuccess
					      : hipErrorInvalidValue);
}

hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *n, hipGraph_t g,
				     const hipGraphNode_t *deps, size_t nd,
				     hipDeviceptr_t p)
{
	FH_INIT();
	return fh_node_add("hipDrvGraphAddMemFreeNode", n, g, 0,
			   p && (!nd || deps) ? hipSuccess
					      : hipErrorInvalidValue);
}

/* A kernel's parameters checked as hipGraphAddKernelNode checks them; an
 * allocation node's memory made as hipGraphAddMemAllocNode makes it. */
static hipError_t fh_generic_ok(hipGraphNodeParams *p)
{
	if (!p)
		return hipErrorInvalidValue;
	if ((int)p->type == T6_KERNEL)
		return fh_kernel_params_ok(&p->kernel);
	if ((int)p->type == T6_ALLOC)
		return fh_pool_map(&p->alloc.dptr, p->alloc.bytesize,
				   &p->alloc.poolProps);
	return hipSuccess;
}

hipError_t hipGraphAddNode(hipGraphNode_t *n, hipGraph_t g,
			   const hipGraphNode_t *deps, size_t nd,
			   hipGraphNodeParams *p)
{
	FH_INIT();
	if (!fh_graph_ok(g) || !n || (nd && !deps))
		return fh_ret(hipErrorInvalidValue);
	return fh_node_add("hipGraphAddNode", n, g,
			   p && (int)p->type == T6_KERNEL, fh_generic_ok(p));
}

static int fh_same_kind(hipGraphNode_t n, const hipGraphNodeParams *p)
{
	return fh_node_ok(n) &&
	       fh_node_is_kernel(n) == ((int)p->type == T6_KERNEL) &&
	       (int)p->type != T6_ALLOC;
}

hipError_t hipGraphNodeSetParams(hipGraphNode_t n, hipGraphNodeParams *p)
{
	FH_INIT();
	return fh_check("hipGraphNodeSetParams", n,
			p && fh_same_kind(n, p) && fh_generic_ok(p) == hipSuccess);
}

hipError_t hipGraphExecNodeSetParams(hipGraphExec_t x, hipGraphNode_t n,
				     hipGraphNodeParams *p)
{
	FH_INIT();
	return fh_check("hipGraphExecNodeSetParams", n,
			p && fh_exec_ok(x) && fh_same_kind(n, p) &&
				fh_generic_ok(p) == hipSuccess);
}
