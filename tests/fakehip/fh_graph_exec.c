/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): an executable graph's copy
 * and set nodes set anew.  Checked as fh_graph_node.c checks the graph's.
 */
#include "fh.h"

static hipError_t fh_exec_set(const char *api, hipGraphExec_t x,
			      hipGraphNode_t n, int ok)
{
	hipError_t err = ok && fh_exec_ok(x) && fh_node_ok(n) &&
					 !fh_node_is_kernel(n)
				 ? hipSuccess
				 : hipErrorInvalidValue;

	fh_log("%s exec=%p node=%p -> %s", api, (void *)x, (void *)n,
	       hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t x,
					   hipGraphNode_t n,
					   hipMemcpy3DParms *p)
{
	FH_INIT();
	return fh_exec_set("hipGraphExecMemcpyNodeSetParams", x, n,
			   p && p->dstPtr.ptr && p->srcPtr.ptr &&
				   p->extent.width);
}

hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t x,
					     hipGraphNode_t n, void *dst,
					     const void *src, size_t c,
					     hipMemcpyKind k)
{
	FH_INIT();
	return fh_exec_set("hipGraphExecMemcpyNodeSetParams1D", x, n,
			   dst && src && c);
}

hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t x,
						   hipGraphNode_t n,
						   const void *sym,
						   const void *src, size_t c,
						   size_t off, hipMemcpyKind k)
{
	FH_INIT();
	return fh_exec_set("hipGraphExecMemcpyNodeSetParamsToSymbol", x, n,
			   sym && src && c);
}

hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t x,
						     hipGraphNode_t n,
						     void *dst,
						     const void *sym,
						     size_t c, size_t off,
						     hipMemcpyKind k)
{
	FH_INIT();
	return fh_exec_set("hipGraphExecMemcpyNodeSetParamsFromSymbol", x, n,
			   dst && sym && c);
}

hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t x,
					   hipGraphNode_t n,
					   const hipMemsetParams *p)
{
	FH_INIT();
	return fh_exec_set("hipGraphExecMemsetNodeSetParams", x, n,
			   p && p->dst && p->width);
}

hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t x,
					      hipGraphNode_t n,
					      const HIP_MEMCPY3D *p,
					      hipCtx_t ctx)
{
	FH_INIT();
	return fh_exec_set("hipDrvGraphExecMemcpyNodeSetParams", x, n,
			   p && (p->dstHost || p->dstDevice) &&
				   (p->srcHost || p->srcDevice) &&
				   p->WidthInBytes);
}

hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t x,
					      hipGraphNode_t n,
					      const HIP_MEMSET_NODE_PARAMS *p,
					      hipCtx_t ctx)
{
	FH_INIT();
	return fh_exec_set("hipDrvGraphExecMemsetNodeSetParams", x, n,
			   p && p->dst && p->width);
}
