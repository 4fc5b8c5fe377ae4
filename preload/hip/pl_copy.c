/* SPDX-License-Identifier: MIT */
/* What a 3D, parameter-block or symbol copy reads and writes (pl_copy.h). */
#include "pl_copy.h"

#include "pl_boot.h"
#include "pl_vm.h"
#include "reg.h"

#define STREAM(st) ((uint64_t)(uintptr_t)(st))

/* Set before the copy and read after it, on the same thread: the runtime's
 * own calls in between run deeper and record nothing. */
static __thread uintptr_t sym_addr __attribute__((tls_model("initial-exec")));

void pl_copy_learn_symbol(const void *symbol)
{
	static hipError_t (*addr_of)(void **, const void *);
	void *p = NULL;

	if (!addr_of)
		addr_of = (hipError_t(*)(void **, const void *))pl_find_sym(
			"hipGetSymbolAddress");
	sym_addr = 0;
	/* A NULL symbol goes to the runtime untouched, by the copy alone. */
	if (symbol && addr_of && addr_of(&p, symbol) == hipSuccess)
		sym_addr = (uintptr_t)p;
}

static void *symbol_at(size_t off)
{
	return sym_addr ? (void *)(sym_addr + off) : NULL;
}

void pl_copy_rec_to_symbol(uint8_t api, hipError_t rc, const void *src,
			   size_t n, size_t off, int kind, hipStream_t st,
			   int async)
{
	reg_track_memcpy(api, rc, symbol_at(off), src, n, kind, STREAM(st),
			 async);
}

void pl_copy_rec_from_symbol(uint8_t api, hipError_t rc, void *dst, size_t n,
			     size_t off, int kind, hipStream_t st, int async)
{
	reg_track_memcpy(api, rc, dst, symbol_at(off), n, kind, STREAM(st),
			 async);
}

/* An array side is an opaque runtime object: recorded as address 0. */
static uintptr_t pitched_at(hipArray_const_t arr, const hipPitchedPtr *pp,
			    const hipPos *pos)
{
	if (arr || !pp->ptr)
		return 0;
	return (uintptr_t)pp->ptr + (pos->z * pp->ysize + pos->y) * pp->pitch +
	       pos->x;
}

void pl_copy_rec_3d(uint8_t api, hipError_t rc, const hipMemcpy3DParms *p,
		    hipStream_t st, int async)
{
	uintptr_t d = 0, s = 0;
	size_t n = 0;
	int kind = hipMemcpyDefault;

	if (p) {
		d = pitched_at(p->dstArray, &p->dstPtr, &p->dstPos);
		s = pitched_at(p->srcArray, &p->srcPtr, &p->srcPos);
		n = p->extent.width * p->extent.height * p->extent.depth;
		kind = p->kind;
	}
	reg_track_memcpy(api, rc, (void *)d, (const void *)s, n, kind,
			 STREAM(st), async);
}

/* One side of a driver copy: where it starts, and whether it is on the
 * device (1), the host (0) or either (2: unified, the runtime decides). */
struct side {
	uintptr_t at;
	int where;
};

static struct side side_of(int type, const void *host, hipDeviceptr_t dev,
			   size_t off)
{
	int v6 = pl_vm_runtime_version() >= 60000000;
	int host_t = v6 ? 1 : 0, dev_t = v6 ? 2 : 1, managed_t = v6 ? 3 : -1;
	int unified_t = v6 ? 11 : 3;
	struct side s = {0, 1}; /* an array (or a type we do not know) */

	if (type == host_t || (v6 && type == 0)) /* 6: 0 is unregistered */
		s = (struct side){(uintptr_t)host, 0};
	else if (type == dev_t)
		s = (struct side){(uintptr_t)dev, 1};
	else if (type == managed_t || type == unified_t)
		s = (struct side){(uintptr_t)dev, 2};
	if (s.at)
		s.at += off;
	return s;
}

static int kind_of(struct side d, struct side s)
{
	if (d.where == 2 || s.where == 2)
		return hipMemcpyDefault;
	return s.where * 2 + d.where; /* H2H 0, H2D 1, D2H 2, D2D 3 */
}

void pl_copy_rec_param_2d(uint8_t api, hipError_t rc, const hip_Memcpy2D *p,
			  hipStream_t st, int async)
{
	struct side d = {0, 2}, s = {0, 2}; /* no block: no direction */
	size_t n = 0;

	if (p) {
		d = side_of(p->dstMemoryType, p->dstHost, p->dstDevice,
			    p->dstY * p->dstPitch + p->dstXInBytes);
		s = side_of(p->srcMemoryType, p->srcHost, p->srcDevice,
			    p->srcY * p->srcPitch + p->srcXInBytes);
		n = p->WidthInBytes * p->Height;
	}
	reg_track_memcpy(api, rc, (void *)d.at, (const void *)s.at, n,
			 kind_of(d, s), STREAM(st), async);
}

void pl_copy_rec_drv_3d(uint8_t api, hipError_t rc, const HIP_MEMCPY3D *p,
			hipStream_t st, int async)
{
	struct side d = {0, 2}, s = {0, 2}; /* no block: no direction */
	size_t n = 0;

	if (p) {
		d = side_of(p->dstMemoryType, p->dstHost, p->dstDevice,
			    ((size_t)p->dstZ * p->dstHeight + p->dstY) *
					    p->dstPitch + p->dstXInBytes);
		s = side_of(p->srcMemoryType, p->srcHost, p->srcDevice,
			    ((size_t)p->srcZ * p->srcHeight + p->srcY) *
					    p->srcPitch + p->srcXInBytes);
		n = (size_t)p->WidthInBytes * p->Height * p->Depth;
	}
	reg_track_memcpy(api, rc, (void *)d.at, (const void *)s.at, n,
			 kind_of(d, s), STREAM(st), async);
}

/* As hipMemset2D's: every row the pitch spans. */
void pl_copy_rec_set_3d(uint8_t api, hipError_t rc, hipPitchedPtr pp,
			int value, hipExtent e, hipStream_t st)
{
	reg_track_memset(api, rc, pp.ptr, value,
			 pp.pitch * e.height * e.depth, STREAM(st));
}
