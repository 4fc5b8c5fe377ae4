/* SPDX-License-Identifier: MIT */
/*
 * The OpenMP offload runtime (libomptarget) as the compiler calls it: the
 * structures of LLVM's omptarget.h ABI that hipgrain reads, and the
 * prototypes of the entry points it interposes.  Stable from LLVM 15 on
 * (and in ROCm's amdclang) but for the offload entries, which LLVM 20
 * widened; only the leading fields of the kernel arguments, which every
 * version shares, are read.
 */
#ifndef PL_OMP_H
#define PL_OMP_H

#include <stddef.h>
#include <stdint.h>

/* One offload entry up to LLVM 19: a target region's id (size 0) or a
 * global; in LLVM 19, also the `requires` clauses (no address, flags
 * PL_OMP_ENTRY_REQUIRES, the clauses in `reserved`). */
struct pl_omp_entry {
	void *addr;
	char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

/* The same from LLVM 20 on: a zero word and a version (1) first, and the
 * `requires` clauses as an entry of their own (flags PL_OMP_ENTRY_REQUIRES,
 * the clauses in `data`) instead of a __tgt_register_requires call. */
struct pl_omp_entry2 {
	uint64_t reserved;
	uint16_t version;
	uint16_t kind;
	uint32_t flags;
	void *addr;
	char *name;
	uint64_t size;
	uint64_t data;
	void *aux;
};
#define PL_OMP_ENTRY_REQUIRES 0x10

struct pl_omp_image {
	void *start, *end; /* an offload binary, or a device ELF (old driver) */
	void *entries_begin, *entries_end; /* either entry layout */
};

struct pl_omp_desc {
	int32_t nimages;
	struct pl_omp_image *images;
	void *entries_begin, *entries_end; /* either entry layout */
};

/* __tgt_kernel_arguments: version 1 (LLVM 15) and later begin alike. */
struct pl_omp_kargs {
	int32_t version;
	int32_t nargs;
	void **base;
	void **ptrs;
	int64_t *sizes;
	int64_t *types;
	void **names;
	void **mappers;
};

/* Map types (omptarget.h). */
#define PL_OMP_TO	    0x1
#define PL_OMP_FROM	    0x2
#define PL_OMP_DELETE	    0x8
#define PL_OMP_TARGET_PARAM 0x20
#define PL_OMP_PRIVATE	    0x80
#define PL_OMP_LITERAL	    0x100
#define PL_OMP_IMPLICIT	    0x200
/* __tgt_register_requires flags. */
#define PL_OMP_REQ_USM 0x8

typedef struct ident ident_t;

void __tgt_register_requires(int64_t flags);
void __tgt_register_lib(struct pl_omp_desc *desc);
void __tgt_unregister_lib(struct pl_omp_desc *desc);
int __tgt_target_kernel(ident_t *loc, int64_t dev, int32_t teams,
			int32_t threads, void *host_ptr,
			struct pl_omp_kargs *args);
int __tgt_target_kernel_nowait(ident_t *loc, int64_t dev, int32_t teams,
			       int32_t threads, void *host_ptr,
			       struct pl_omp_kargs *args, int32_t ndeps,
			       void *deps, int32_t nnoalias, void *noalias);
int __tgt_target_mapper(ident_t *loc, int64_t dev, void *host_ptr, int32_t n,
			void **base, void **ptrs, int64_t *sizes,
			int64_t *types, void **names, void **mappers);
int __tgt_target_nowait_mapper(ident_t *loc, int64_t dev, void *host_ptr,
			       int32_t n, void **base, void **ptrs,
			       int64_t *sizes, int64_t *types, void **names,
			       void **mappers, int32_t ndeps, void *deps,
			       int32_t nnoalias, void *noalias);
int __tgt_target_teams_mapper(ident_t *loc, int64_t dev, void *host_ptr,
			      int32_t n, void **base, void **ptrs,
			      int64_t *sizes, int64_t *types, void **names,
			      void **mappers, int32_t teams, int32_t threads);
int __tgt_target_teams_nowait_mapper(ident_t *loc, int64_t dev, void *host_ptr,
				     int32_t n, void **base, void **ptrs,
				     int64_t *sizes, int64_t *types,
				     void **names, void **mappers,
				     int32_t teams, int32_t threads,
				     int32_t ndeps, void *deps,
				     int32_t nnoalias, void *noalias);
void __tgt_target_data_begin_mapper(ident_t *loc, int64_t dev, int32_t n,
				    void **base, void **ptrs, int64_t *sizes,
				    int64_t *types, void **names,
				    void **mappers);
void __tgt_target_data_end_mapper(ident_t *loc, int64_t dev, int32_t n,
				  void **base, void **ptrs, int64_t *sizes,
				  int64_t *types, void **names, void **mappers);
void __tgt_target_data_update_mapper(ident_t *loc, int64_t dev, int32_t n,
				     void **base, void **ptrs, int64_t *sizes,
				     int64_t *types, void **names,
				     void **mappers);
void __tgt_target_data_begin_nowait_mapper(ident_t *loc, int64_t dev, int32_t n,
					   void **base, void **ptrs,
					   int64_t *sizes, int64_t *types,
					   void **names, void **mappers,
					   int32_t ndeps, void *deps,
					   int32_t nnoalias, void *noalias);
void __tgt_target_data_end_nowait_mapper(ident_t *loc, int64_t dev, int32_t n,
					 void **base, void **ptrs,
					 int64_t *sizes, int64_t *types,
					 void **names, void **mappers,
					 int32_t ndeps, void *deps,
					 int32_t nnoalias, void *noalias);
void __tgt_target_data_update_nowait_mapper(ident_t *loc, int64_t dev,
					    int32_t n, void **base, void **ptrs,
					    int64_t *sizes, int64_t *types,
					    void **names, void **mappers,
					    int32_t ndeps, void *deps,
					    int32_t nnoalias, void *noalias);
void *omp_target_alloc(size_t size, int dev);
void omp_target_free(void *p, int dev);
int omp_target_memcpy(void *dst, const void *src, size_t n, size_t dst_off,
		      size_t src_off, int dst_dev, int src_dev);
int omp_target_memcpy_rect(void *dst, const void *src, size_t elem, int ndims,
			   const size_t *volume, const size_t *dst_offs,
			   const size_t *src_offs, const size_t *dst_dims,
			   const size_t *src_dims, int dst_dev, int src_dev);
int omp_target_associate_ptr(const void *host, const void *dev_ptr, size_t size,
			     size_t dev_off, int dev);
int omp_target_disassociate_ptr(const void *host, int dev);
void *llvm_omp_target_alloc_host(size_t size, int dev);
void *llvm_omp_target_alloc_shared(size_t size, int dev);
void *llvm_omp_target_alloc_device(size_t size, int dev);

/* libomp's memory management (OpenMP 5.0): handles are uintptr_t-sized. */
struct pl_omp_trait {
	int key; /* omp_alloctrait_key_t */
	uintptr_t value;
};
uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits,
			     const struct pl_omp_trait *traits);
void omp_destroy_allocator(uintptr_t al);
void *omp_alloc(size_t size, uintptr_t al);
void *omp_aligned_alloc(size_t align, size_t size, uintptr_t al);
void *omp_calloc(size_t n, size_t size, uintptr_t al);
void *omp_aligned_calloc(size_t align, size_t n, size_t size, uintptr_t al);
void *omp_realloc(void *p, size_t size, uintptr_t al, uintptr_t free_al);
void omp_free(void *p, uintptr_t al);

#endif

/* ---- hipgrain's side (pl_omp.c, pl_omp_map.c) -------------------------- */

/* A call's map arrays, as the compiler laid them out. */
struct pl_omp_maps {
	int32_t n;
	void **base, **ptrs;
	int64_t *sizes, *types;
};

void pl_omp_requires(int64_t flags);
/* `requires unified_shared_memory`: maps switch pages, not copy them. */
void pl_omp_usm(int on);
void pl_omp_register(const struct pl_omp_desc *desc);
void pl_omp_unregister(const struct pl_omp_desc *desc);
void pl_omp_alloc(uint8_t api, void *p, size_t size, int dev);

/* Allocators with the pinned trait (pl_omp_alloc.c). */
struct reg_hip_free;
void pl_omp_allocator_new(uintptr_t al, int n, const struct pl_omp_trait *t);
void pl_omp_allocator_gone(uintptr_t al);
void pl_omp_pinned_alloc(void *p, size_t size, uintptr_t al);
void pl_omp_calloc(void *p, size_t n, size_t size, uintptr_t al);
void pl_omp_pinned_free(void *p, const struct reg_hip_free *st);
void pl_omp_realloc(void *old, void *p, size_t size, uintptr_t al,
		    struct reg_hip_free *st);
void pl_omp_associate(int rc, const void *host, const void *dev_ptr,
		      size_t size, size_t dev_off);
void pl_omp_disassociate(int rc, const void *host);
/* A target region: its maps enter, it launches (arguments resolved), they
 * leave.  A data directive: its maps enter or leave. */
void pl_omp_region(uint8_t api, int rc, int64_t dev, const void *handle,
		   int32_t teams, int32_t threads, struct pl_omp_maps m);
void pl_omp_data(uint8_t api, struct pl_omp_maps m);
