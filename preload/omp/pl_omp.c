/* SPDX-License-Identifier: MIT */
/*
 * The OpenMP offload front end: libomptarget's entry points (one table,
 * pl_omp_table.h), turned into the registry's vocabulary.  The images
 * __tgt_register_lib hands over are modules, their offload entries are
 * kernels named by their target region, and a target region is a launch.
 * What maps do to memory is in pl_omp_map.c.
 */
#include <dlfcn.h>

#include "co.h"
#include "hg_events.h"
#include "pl_device.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_hip.h"
#include "pl_launch.h"
#include "pl_omp.h"
#include "pl_omp_table.h"
#include "pl_profile.h"
#include "reg.h"

void pl_omp_requires(int64_t flags)
{
	reg_emit_call(HG_API_OMP_REGISTER_REQUIRES, 0, (uint64_t)flags);
	if (flags & PL_OMP_REQ_USM)
		pl_omp_usm(1);
}

/* The first image that holds AMDGPU code: the module the kernels are read
 * from (a program built for several vendors carries one image each). */
static const void *amdgpu_image(const struct pl_omp_desc *desc)
{
	for (int32_t i = 0; desc->images && i < desc->nimages; i++) {
		const struct pl_omp_image *im = &desc->images[i];
		const char *a = im->start, *b = im->end;
		struct co_error err;
		/* The compiler's own bounds; the headers when they are odd. */
		struct co_set *set = co_set_from_image(
		    a, a && b > a ? (size_t)(b - a) : 0, &err);
		size_t n = set ? co_set_count(set) : 0;

		co_set_free(set);
		if (n)
			return desc->images[i].start;
	}
	return NULL;
}

/* An entry as both layouts have it. */
struct omp_ent {
	const void *addr;
	const char *name;
	uint64_t size, data;
	uint32_t flags;
};

/* LLVM 20's entries begin with a zero word and version 1; the older ones
 * with the host address, which is never 0 (a region's id, or a global). */
static size_t ent_stride(const char *b, const char *e)
{
	const struct pl_omp_entry2 *n = (const void *)b;

	if (e - b >= (ptrdiff_t)sizeof(*n) && !n->reserved && n->version == 1 &&
	    (e - b) % sizeof(*n) == 0)
		return sizeof(*n);
	return sizeof(struct pl_omp_entry);
}

static struct omp_ent ent_at(const char *p, size_t stride)
{
	if (stride == sizeof(struct pl_omp_entry2)) {
		const struct pl_omp_entry2 *n = (const void *)p;

		return (struct omp_ent){n->addr, n->name, n->size, n->data,
					n->flags};
	}
	const struct pl_omp_entry *o = (const void *)p;

	return (struct omp_ent){o->addr, o->name, o->size,
				(uint64_t)(uint32_t)o->reserved, (uint32_t)o->flags};
}

void pl_omp_register(const struct pl_omp_desc *desc)
{
	const void *img = desc ? amdgpu_image(desc) : NULL;
	struct hg_tp_code_object co = {
	    .module = (uintptr_t)desc,
	    .image = (uintptr_t)img,
	    .targets = "",
	    .path = "",
	    .rc = img ? 0 : -1,
	    .api = HG_API_OMP_REGISTER_LIB,
	};

	const char *b = desc ? desc->entries_begin : NULL;
	const char *end = desc ? desc->entries_end : NULL;
	size_t stride = b && end > b ? ent_stride(b, end) : 1;

	/* LLVM 19+: the program's `requires` come as an entry with no
	 * address, before any region can run (LLVM 15 calls
	 * __tgt_register_requires). */
	for (const char *p = b; p && p + stride <= end; p += stride) {
		struct omp_ent e = ent_at(p, stride);

		if ((e.flags & PL_OMP_ENTRY_REQUIRES) && !e.addr)
			pl_omp_requires((int64_t)e.data);
	}
	reg_emit_code_object(&co);
	if (!img)
		return;
	reg_module_add(co.module, img, NULL, co.api);
	/* Target regions are the entries of size 0 with an address; the others
	 * are globals (or LLVM 20's `requires`, address 0). */
	for (const char *p = b; p && p + stride <= end; p += stride) {
		struct omp_ent e = ent_at(p, stride);
		struct hg_tp_function f = {
		    co.module, (uintptr_t)e.addr, e.name ? e.name : "",
		    0,	       HG_API_OMP_REGISTER_LIB,
		};

		if (e.size || !e.name || !e.addr)
			continue;
		reg_kernel_add(f.handle, f.module, e.name);
		reg_emit_function(&f);
	}
}

void pl_omp_unregister(const struct pl_omp_desc *desc)
{
	pl_launch_flush(); /* their kernels' handles go with the module */
	pl_profile_unlaunched((uintptr_t)desc);
	reg_module_forget((uintptr_t)desc);
}

/* omp_target_alloc on the initial device is the host's own malloc. */
static int initial_device(void)
{
	static int (*fn)(void);

	if (!fn)
		fn = (int (*)(void))dlsym(RTLD_DEFAULT,
					  "omp_get_initial_device");
	return fn ? fn() : -1;
}

void pl_omp_alloc(uint8_t api, void *p, size_t size, int dev)
{
	if (dev == initial_device())
		return;
	reg_track_hip_alloc(api, p ? 0 : -1, p, size, 0, 0, dev);
}

static void rec_kernel(uint8_t api, int rc, int64_t dev, const void *handle,
		       int32_t teams, int32_t threads,
		       const struct pl_omp_kargs *a)
{
	struct pl_omp_maps m = {0, NULL, NULL, NULL, NULL};

	if (a)
		m = (struct pl_omp_maps){a->nargs, a->base, a->ptrs, a->sizes,
					 a->types};
	pl_omp_region(api, rc, dev, handle, teams, threads, m);
}

#define PL_OMP_WRAP(ret, name, params, args, pre, post)                        \
	PL_EXPORT ret name params                                              \
	{                                                                      \
		static __typeof__(&name) real;                                 \
		struct reg_hip_free fst __attribute__((unused)) = {0};         \
		int tr = pl_hip_enter(PL_Q_ASIDE);                             \
		ret rc;                                                        \
		if (!real)                                                     \
			real = (__typeof__(&name))pl_next_sym(#name);          \
		if (tr)                                                        \
			pre;                                                   \
		pl_in_runtime += tr;                                           \
		rc = real args;                                                \
		pl_in_runtime -= tr;                                           \
		if (tr)                                                        \
			post;                                                  \
		pl_hip_leave();                                                \
		return rc;                                                     \
	}

#define PL_OMP_WRAP_VOID(name, params, args, pre, post)                        \
	PL_EXPORT void name params                                             \
	{                                                                      \
		static __typeof__(&name) real;                                 \
		struct reg_hip_free fst __attribute__((unused)) = {0};         \
		int tr = pl_hip_enter(PL_Q_ASIDE);                             \
		if (!real)                                                     \
			real = (__typeof__(&name))pl_next_sym(#name);          \
		if (tr)                                                        \
			pre;                                                   \
		pl_in_runtime += tr;                                           \
		real args;                                                     \
		pl_in_runtime -= tr;                                           \
		if (tr)                                                        \
			post;                                                  \
		pl_hip_leave();                                                \
	}

PL_OMP_REG_TABLE(PL_OMP_WRAP_VOID)
PL_OMP_REGION_TABLE(PL_OMP_WRAP)
PL_OMP_DATA_TABLE(PL_OMP_WRAP_VOID)
PL_OMP_MEM_TABLE(PL_OMP_WRAP, PL_OMP_WRAP_VOID)
PL_OMP_ALLOCATOR_TABLE(PL_OMP_WRAP, PL_OMP_WRAP_VOID)
