/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): a graph's copy and set
 * nodes in every form, added or set anew.  Like every node here they are
 * checked and counted, not run.  The checks are ROCm 5.2's where the tests
 * depend on them: no NULL pointer, no empty copy, a node of the right kind.
 */
#include "fh.h"

static hipError_t fh_copy_ok(const void *dst, const void *src, size_t n)
{
	return dst && src && n ? hipSuccess : hipErrorInvalidValue;
}

static hipError_t fh_3d_ok(const hipMemcpy3DParms *p)
{
	if (!p)
		return hipErrorInvalidValue;
	return fh_copy_ok(p->dstPtr.ptr ? p->dstPtr.ptr : (void *)p->dstArray,
			  p->srcPtr.ptr ? p->srcPtr.ptr : (void *)p->srcArray,
			  p->extent.width * p->extent.height *
				  p->extent.depth);
}

static hipError_t fh_drv_ok(const HIP_MEMCPY3D *p)
{
	if (!p)
		return hipErrorInvalidValue;
	return fh_copy_ok(p->dstHost ? p->dstHost : (void *)p->dstDevice,
			  p->srcHost ? p->srcHost : (const void *)p->srcDevice,
			  (size_t)p->WidthInBytes * p->Height * p->Depth);
}

static hipError_t fh_set_ok(const void *dst, size_t width)
{
	return dst && width ? hipSuccess : hipErrorInvalidValue;
}

static hipError_t fh_deps(const hipGraphNode_t *deps, size_t n, hipError_t e)
{
	return n && !deps ? hipErrorInvalidValue : e;
}

/* A node set anew: a copy or set node (of the executable graph x). */
static hipError_t fh_set_node(const char *api, hipGraphExec_t x, int exec,
			      hipGraphNode_t n, hipError_t err)
{
	if ((exec && !fh_exec_ok(x)) || !fh_node_ok(n) || fh_node_is_kernel(n))
		err = hipErrorInvalidValue;
	fh_log("%s node=%p -> %s", api, (void *)n, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *n, hipGraph_t g,
				 const hipGraphNode_t *deps, size_t nd,
				 const hipMemcpy3DParms *p)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemcpyNode", n, g, 0,
			   fh_deps(deps, nd, fh_3d_ok(p)));
}

hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *n, hipGraph_t g,
					 const hipGraphNode_t *deps, size_t nd,
					 const void *sym, const void *src,
					 size_t c, size_t off, hipMemcpyKind k)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemcpyNodeToSymbol", n, g, 0,
			   fh_deps(deps, nd, fh_copy_ok(sym, src, c)));
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *n, hipGraph_t g,
					   const hipGraphNode_t *deps,
					   size_t nd, void *dst,
					   const void *sym, size_t c,
					   size_t off, hipMemcpyKind k)
{
	FH_INIT();
	return fh_node_add("hipGraphAddMemcpyNodeFromSymbol", n, g, 0,
			   fh_deps(deps, nd, fh_copy_ok(dst, sym, c)));
}

hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *n, hipGraph_t g,
				    const hipGraphNode_t *deps, size_t nd,
				    const HIP_MEMCPY3D *p, hipCtx_t ctx)
{
	FH_INIT();
	return fh_node_add("hipDrvGraphAddMemcpyNode", n, g, 0,
			   fh_deps(deps, nd, fh_drv_ok(p)));
}

hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t *n, hipGraph_t g,
				    const hipGraphNode_t *deps, size_t nd,
				    const HIP_MEMSET_NODE_PARAMS *p,
				    hipCtx_t ctx)
{
	FH_INIT();
	return fh_node_add("hipDrvGraphAddMemsetNode", n, g, 0,
			   fh_deps(deps, nd, p ? fh_set_ok((void *)p->dst,
							   p->width)
					       : hipErrorInvalidValue));
}

hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t n,
				       const hipMemcpy3DParms *p)
{
	FH_INIT();
	return fh_set_node("hipGraphMemcpyNodeSetParams", NULL, 0, n,
			   fh_3d_ok(p));
}

hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t n, void *dst,
					 const void *src, size_t c,
					 hipMemcpyKind k)
{
	FH_INIT();
	return fh_set_node("hipGraphMemcpyNodeSetParams1D", NULL, 0, n,
			   fh_copy_ok(dst, src, c));
}

hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t n,
					       const void *sym,
					       const void *src, size_t c,
					       size_t off, hipMemcpyKind k)
{
	FH_INIT();
	return fh_set_node("hipGraphMemcpyNodeSetParamsToSymbol", NULL, 0, n,
			   fh_copy_ok(sym, src, c));
}

hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t n, void *dst,
						 const void *sym, size_t c,
						 size_t off, hipMemcpyKind k)
{
	FH_INIT();
	return fh_set_node("hipGraphMemcpyNodeSetParamsFromSymbol", NULL, 0,
			   n, fh_copy_ok(dst, sym, c));
}

hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t n,
				       const hipMemsetParams *p)
{
	FH_INIT();
	return fh_set_node("hipGraphMemsetNodeSetParams", NULL, 0, n,
			   p ? fh_set_ok(p->dst, p->width)
			     : hipErrorInvalidValue);
}

hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t n,
					  const HIP_MEMCPY3D *p)
{
	FH_INIT();
	return fh_set_node("hipDrvGraphMemcpyNodeSetParams", NULL, 0, n,
			   fh_drv_ok(p));
}
