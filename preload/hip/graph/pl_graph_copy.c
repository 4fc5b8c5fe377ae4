/* SPDX-License-Identifier: MIT */
/*
 * A graph's copy and set nodes, in each form HIP takes them (1D, 3D, a
 * symbol, the driver structs of ROCm 6): each is read into one span, the
 * first byte of each side and the bytes moved, and replayed at each
 * hipGraphLaunch as an asynchronous copy or set on the launch's stream
 * (pl_graph_run.c).  A copy from or into a hipArray is not recorded: an
 * array has no address the registry knows.
 */
#include "pl_boot.h"
#include "pl_graph.h"

#include "pl_graph_store.h"
#include "reg.h"

/* ROCm 6's hipMemoryType values: the driver forms exist only there, and
 * ROCm 5's headers number the enum otherwise. */
#define MT6_HOST 1
#define MT6_ARRAY 10

static void put_copy(uint8_t api, hipError_t rc, struct pl_graph_at at,
		     void *dst, const void *src, size_t n, int kind)
{
	struct pl_graph_node nd = {0};

	reg_emit_call(api, rc, (uintptr_t)dst);
	if (rc != hipSuccess)
		return;
	nd.kind = N_COPY;
	nd.dst = dst;
	nd.src = src;
	nd.bytes = n;
	nd.how = kind;
	pl_graph_put(at, &nd);
}

void pl_graph_rec_copy1d(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 void *dst, const void *src, size_t n,
			 hipMemcpyKind kind)
{
	put_copy(api, rc, at, dst, src, n, kind);
}

/* Where a pitched region starts: x bytes, y rows and z slices in. */
static char *at_pos(void *base, size_t x, size_t y, size_t z, size_t pitch,
		    size_t rows)
{
	return base ? (char *)base + x + y * pitch + z * pitch * rows : NULL;
}

/* The bytes moved (width by height by depth), not the pitched span:
 * hipMemcpy2D's record says the same. */
void pl_graph_rec_copy3d(uint8_t api, hipError_t rc, struct pl_graph_at at,
			 const hipMemcpy3DParms *p)
{
	if (!p || p->srcArray || p->dstArray) {
		reg_emit_call(api, rc, p ? (uintptr_t)p->dstPtr.ptr : 0);
		return;
	}
	put_copy(api, rc, at,
		 at_pos(p->dstPtr.ptr, p->dstPos.x, p->dstPos.y, p->dstPos.z,
			p->dstPtr.pitch, p->dstPtr.ysize),
		 at_pos(p->srcPtr.ptr, p->srcPos.x, p->srcPos.y, p->srcPos.z,
			p->srcPtr.pitch, p->srcPtr.ysize),
		 p->extent.width * p->extent.height * p->extent.depth,
		 p->kind);
}

static void *drv_side(int type, const void *host, hipDeviceptr_t dev)
{
	return (void *)(type == MT6_HOST ? host : dev);
}

/* The driver struct names memory types, not a direction: the kind is
 * what they say (host to host, host to device, ...). */
void pl_graph_rec_copy_drv(uint8_t api, hipError_t rc, struct pl_graph_at at,
			   const HIP_MEMCPY3D *p)
{
	int s, d;

	if (!p || (int)p->srcMemoryType == MT6_ARRAY ||
	    (int)p->dstMemoryType == MT6_ARRAY) {
		reg_emit_call(api, rc, p ? (uintptr_t)p->dstDevice : 0);
		return;
	}
	s = (int)p->srcMemoryType != MT6_HOST;
	d = (int)p->dstMemoryType != MT6_HOST;
	put_copy(api, rc, at,
		 at_pos(drv_side(p->dstMemoryType, p->dstHost, p->dstDevice),
			p->dstXInBytes, p->dstY, p->dstZ, p->dstPitch,
			p->dstHeight),
		 at_pos(drv_side(p->srcMemoryType, p->srcHost, p->srcDevice),
			p->srcXInBytes, p->srcY, p->srcZ, p->srcPitch,
			p->srcHeight),
		 (size_t)p->WidthInBytes * p->Height * p->Depth,
		 s ? (d ? hipMemcpyDeviceToDevice : hipMemcpyDeviceToHost)
		   : (d ? hipMemcpyHostToDevice : hipMemcpyHostToHost));
}

/* The symbol's device address, asked of the runtime once the call has
 * succeeded (the program's last error is then hipSuccess either way). */
static char *symbol_at(hipError_t rc, const void *symbol)
{
	hipError_t (*addr)(void **, const void *) =
		(hipError_t(*)(void **, const void *))pl_find_sym(
			"hipGetSymbolAddress");
	void *p = NULL;

	if (rc != hipSuccess || !addr || addr(&p, symbol) != hipSuccess)
		return NULL;
	return p;
}

void pl_graph_rec_copy_symbol(uint8_t api, hipError_t rc,
			      struct pl_graph_at at, const void *symbol,
			      const void *other, size_t n, size_t offset,
			      hipMemcpyKind kind, int to_symbol)
{
	char *s = symbol_at(rc, symbol);

	if (s)
		s += offset;
	if (to_symbol)
		put_copy(api, rc, at, s, other, n, kind);
	else
		put_copy(api, rc, at, (void *)other, s, n, kind);
}

/* A 2D set covers pitch bytes a row but the last. */
static void put_set(uint8_t api, hipError_t rc, struct pl_graph_at at,
		    void *dst, size_t pitch, unsigned int value,
		    unsigned int elem, size_t width, size_t height)
{
	struct pl_graph_node nd = {0};

	reg_emit_call(api, rc, (uintptr_t)dst);
	if (rc != hipSuccess)
		return;
	nd.kind = N_SET;
	nd.dst = dst;
	nd.bytes = height > 1 ? pitch * (height - 1) : 0;
	nd.bytes += width * elem;
	nd.how = (int)value;
	pl_graph_put(at, &nd);
}

void pl_graph_rec_set(uint8_t api, hipError_t rc, struct pl_graph_at at,
		      const hipMemsetParams *p)
{
	if (!p) {
		reg_emit_call(api, rc, 0);
		return;
	}
	put_set(api, rc, at, p->dst, p->pitch, p->value, p->elementSize,
		p->width, p->height);
}

void pl_graph_rec_set_drv(uint8_t api, hipError_t rc, struct pl_graph_at at,
			  const HIP_MEMSET_NODE_PARAMS *p)
{
	if (!p) {
		reg_emit_call(api, rc, 0);
		return;
	}
	put_set(api, rc, at, (void *)p->dst, p->pitch, p->value,
		p->elementSize, p->width, p->height);
}
