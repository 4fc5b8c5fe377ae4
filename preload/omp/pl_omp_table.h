/* SPDX-License-Identifier: MIT */
/*
 * Every interposed libomptarget entry point, listed once (a test checks each
 * against the real library's exported symbols).
 * X(ret, name, (params), (args), pre, post) for functions that return;
 * V(name, (params), (args), pre, post) for void ones.  `pre` runs before the
 * real call, `post` after it, with `rc` in scope in X entries.
 *
 * The older __tgt_target / __tgt_target_teams / __tgt_target_data_* (no
 * mapper) call the _mapper forms or __tgt_target_kernel through the PLT, so
 * their calls are seen there; nested calls are forwarded untouched.
 */
#ifndef PL_OMP_TABLE_H
#define PL_OMP_TABLE_H

#define PL_NONE ((void)0)

#define PL_OMP_MAPS (struct pl_omp_maps){n, base, ptrs, sizes, types}
#define PL_OMP_NOWAIT int32_t ndeps, void *deps, int32_t nnoalias, void *noalias
#define PL_OMP_MAPPER_PARAMS                                                   \
	int32_t n, void **base, void **ptrs, int64_t *sizes, int64_t *types,   \
		void **names, void **mappers
#define PL_OMP_MAPPER_ARGS n, base, ptrs, sizes, types, names, mappers

#define PL_OMP_REGION_TABLE(X)                                                 \
	X(int, __tgt_target_kernel,                                            \
	  (ident_t * loc, int64_t dev, int32_t teams, int32_t threads,         \
	   void *host_ptr, struct pl_omp_kargs *args),                         \
	  (loc, dev, teams, threads, host_ptr, args), PL_NONE,                 \
	  rec_kernel(HG_API_OMP_TARGET_KERNEL, rc, dev, host_ptr, teams,      \
		     threads, args))                                           \
	X(int, __tgt_target_kernel_nowait,                                     \
	  (ident_t * loc, int64_t dev, int32_t teams, int32_t threads,         \
	   void *host_ptr, struct pl_omp_kargs *args, PL_OMP_NOWAIT),          \
	  (loc, dev, teams, threads, host_ptr, args, ndeps, deps, nnoalias,    \
	   noalias),                                                           \
	  PL_NONE,                                                             \
	  rec_kernel(HG_API_OMP_TARGET_KERNEL, rc, dev, host_ptr, teams,      \
		     threads, args))                                           \
	X(int, __tgt_target_mapper,                                            \
	  (ident_t * loc, int64_t dev, void *host_ptr, PL_OMP_MAPPER_PARAMS),  \
	  (loc, dev, host_ptr, PL_OMP_MAPPER_ARGS), PL_NONE,                   \
	  pl_omp_region(HG_API_OMP_TARGET_MAPPER, rc, dev, host_ptr, 0, 0,     \
			PL_OMP_MAPS))                                          \
	X(int, __tgt_target_nowait_mapper,                                     \
	  (ident_t * loc, int64_t dev, void *host_ptr, PL_OMP_MAPPER_PARAMS,   \
	   PL_OMP_NOWAIT),                                                     \
	  (loc, dev, host_ptr, PL_OMP_MAPPER_ARGS, ndeps, deps, nnoalias,      \
	   noalias),                                                           \
	  PL_NONE,                                                             \
	  pl_omp_region(HG_API_OMP_TARGET_MAPPER, rc, dev, host_ptr, 0, 0,     \
			PL_OMP_MAPS))                                          \
	X(int, __tgt_target_teams_mapper,                                      \
	  (ident_t * loc, int64_t dev, void *host_ptr, PL_OMP_MAPPER_PARAMS,   \
	   int32_t teams, int32_t threads),                                    \
	  (loc, dev, host_ptr, PL_OMP_MAPPER_ARGS, teams, threads), PL_NONE,   \
	  pl_omp_region(HG_API_OMP_TARGET_TEAMS_MAPPER, rc, dev, host_ptr,     \
			teams, threads, PL_OMP_MAPS))                                 \
	X(int, __tgt_target_teams_nowait_mapper,                               \
	  (ident_t * loc, int64_t dev, void *host_ptr, PL_OMP_MAPPER_PARAMS,   \
	   int32_t teams, int32_t threads, PL_OMP_NOWAIT),                     \
	  (loc, dev, host_ptr, PL_OMP_MAPPER_ARGS, teams, threads, ndeps,      \
	   deps, nnoalias, noalias),                                           \
	  PL_NONE,                                                             \
	  pl_omp_region(HG_API_OMP_TARGET_TEAMS_MAPPER, rc, dev, host_ptr,     \
			teams, threads, PL_OMP_MAPS))

#define PL_OMP_DATA_TABLE(V)                                                   \
	V(__tgt_target_data_begin_mapper,                                      \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS),                  \
	  (loc, dev, PL_OMP_MAPPER_ARGS), PL_NONE,                             \
	  pl_omp_data(HG_API_OMP_TARGET_DATA_BEGIN, PL_OMP_MAPS))              \
	V(__tgt_target_data_begin_nowait_mapper,                               \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS, PL_OMP_NOWAIT),   \
	  (loc, dev, PL_OMP_MAPPER_ARGS, ndeps, deps, nnoalias, noalias),      \
	  PL_NONE, pl_omp_data(HG_API_OMP_TARGET_DATA_BEGIN, PL_OMP_MAPS))     \
	V(__tgt_target_data_end_mapper,                                        \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS),                  \
	  (loc, dev, PL_OMP_MAPPER_ARGS), pl_launch_flush(),                   \
	  pl_omp_data(HG_API_OMP_TARGET_DATA_END, PL_OMP_MAPS))                \
	V(__tgt_target_data_end_nowait_mapper,                                 \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS, PL_OMP_NOWAIT),   \
	  (loc, dev, PL_OMP_MAPPER_ARGS, ndeps, deps, nnoalias, noalias),      \
	  pl_launch_flush(),                                                   \
	  pl_omp_data(HG_API_OMP_TARGET_DATA_END, PL_OMP_MAPS))                \
	V(__tgt_target_data_update_mapper,                                     \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS),                  \
	  (loc, dev, PL_OMP_MAPPER_ARGS), PL_NONE,                             \
	  pl_omp_data(HG_API_OMP_TARGET_DATA_UPDATE, PL_OMP_MAPS))             \
	V(__tgt_target_data_update_nowait_mapper,                              \
	  (ident_t * loc, int64_t dev, PL_OMP_MAPPER_PARAMS, PL_OMP_NOWAIT),   \
	  (loc, dev, PL_OMP_MAPPER_ARGS, ndeps, deps, nnoalias, noalias),      \
	  PL_NONE, pl_omp_data(HG_API_OMP_TARGET_DATA_UPDATE, PL_OMP_MAPS))

#define PL_OMP_REG_TABLE(V)                                                    \
	V(__tgt_register_requires, (int64_t flags), (flags), PL_NONE,          \
	  pl_omp_requires(flags))                                              \
	V(__tgt_register_lib, (struct pl_omp_desc * desc), (desc), PL_NONE,    \
	  pl_omp_register(desc))                                               \
	V(__tgt_unregister_lib, (struct pl_omp_desc * desc), (desc),           \
	  pl_omp_unregister(desc), PL_NONE)

#define PL_OMP_ALLOC_ENTRY(X, name, api)                                       \
	X(void *, name, (size_t size, int dev), (size, dev), PL_NONE,          \
	  pl_omp_alloc(api, rc, size, dev))

#define PL_OMP_MEM_TABLE(X, V)                                                 \
	PL_OMP_ALLOC_ENTRY(X, omp_target_alloc, HG_API_OMP_TARGET_ALLOC)       \
	PL_OMP_ALLOC_ENTRY(X, llvm_omp_target_alloc_host,                      \
			   HG_API_LLVM_OMP_TARGET_ALLOC_HOST)                  \
	PL_OMP_ALLOC_ENTRY(X, llvm_omp_target_alloc_shared,                    \
			   HG_API_LLVM_OMP_TARGET_ALLOC_SHARED)                \
	PL_OMP_ALLOC_ENTRY(X, llvm_omp_target_alloc_device,                    \
			   HG_API_LLVM_OMP_TARGET_ALLOC_DEVICE)                \
	V(omp_target_free, (void *p, int dev), (p, dev),                       \
	  (pl_launch_flush(), reg_track_hip_free_begin(p, &fst)),              \
	  reg_track_hip_free_end(HG_API_OMP_TARGET_FREE, 0, p, &fst,           \
				 (uintptr_t)__builtin_return_address(0)))     \
	X(int, omp_target_memcpy,                                              \
	  (void *dst, const void *src, size_t n, size_t dst_off,               \
	   size_t src_off, int dst_dev, int src_dev),                          \
	  (dst, src, n, dst_off, src_off, dst_dev, src_dev), PL_NONE,          \
	  reg_track_memcpy(HG_API_OMP_TARGET_MEMCPY, rc, (char *)dst + dst_off,\
			   (const char *)src + src_off, n, 4 /* default */, 0, \
			   0))                                                 \
	X(int, omp_target_memcpy_rect,                                         \
	  (void *dst, const void *src, size_t elem, int ndims,                 \
	   const size_t *volume, const size_t *dst_offs,                       \
	   const size_t *src_offs, const size_t *dst_dims,                     \
	   const size_t *src_dims, int dst_dev, int src_dev),                  \
	  (dst, src, elem, ndims, volume, dst_offs, src_offs, dst_dims,        \
	   src_dims, dst_dev, src_dev),                                        \
	  PL_NONE,                                                             \
	  reg_emit_call(HG_API_OMP_TARGET_MEMCPY_RECT, rc, (uintptr_t)dst))    \
	X(int, omp_target_associate_ptr,                                       \
	  (const void *host, const void *dev_ptr, size_t size, size_t dev_off, \
	   int dev),                                                           \
	  (host, dev_ptr, size, dev_off, dev), PL_NONE,                        \
	  pl_omp_associate(rc, host, dev_ptr, size, dev_off))                  \
	X(int, omp_target_disassociate_ptr, (const void *host, int dev),       \
	  (host, dev), PL_NONE, pl_omp_disassociate(rc, host))

/* libomp's allocators: only those with the pinned trait matter (pl_omp_alloc.c). */
#define PL_OMP_ALLOCATOR_TABLE(X, V)                                           \
	X(uintptr_t, omp_init_allocator,                                       \
	  (uintptr_t ms, int n, const struct pl_omp_trait *t), (ms, n, t),     \
	  PL_NONE, pl_omp_allocator_new(rc, n, t))                             \
	V(omp_destroy_allocator, (uintptr_t al), (al), PL_NONE,                \
	  pl_omp_allocator_gone(al))                                           \
	X(void *, omp_alloc, (size_t size, uintptr_t al), (size, al), PL_NONE, \
	  pl_omp_pinned_alloc(rc, size, al))                                   \
	X(void *, omp_aligned_alloc, (size_t align, size_t size, uintptr_t al),\
	  (align, size, al), PL_NONE, pl_omp_pinned_alloc(rc, size, al))       \
	X(void *, omp_calloc, (size_t n, size_t size, uintptr_t al),           \
	  (n, size, al), PL_NONE, pl_omp_calloc(rc, n, size, al))              \
	X(void *, omp_aligned_calloc,                                          \
	  (size_t align, size_t n, size_t size, uintptr_t al),                 \
	  (align, n, size, al), PL_NONE, pl_omp_calloc(rc, n, size, al))       \
	X(void *, omp_realloc,                                                 \
	  (void *p, size_t size, uintptr_t al, uintptr_t free_al),             \
	  (p, size, al, free_al), reg_track_hip_free_begin(p, &fst),           \
	  pl_omp_realloc(p, rc, size, al, &fst))                               \
	V(omp_free, (void *p, uintptr_t al), (p, al),                          \
	  (pl_launch_flush(), reg_track_hip_free_begin(p, &fst)),              \
	  pl_omp_pinned_free(p, &fst))

#endif
