/* SPDX-License-Identifier: MIT */
/*
 * Every interposed HSA entry point, listed once (a test checks each against
 * the real libhsa-runtime64's exported symbols).  These are evidence, not a
 * model: how a runtime (ROCm's HIP, an OpenMP plugin) or the program itself
 * placed memory.  X(name, (params), (args), pre, post), `rc` in scope.
 */
#ifndef PL_HSA_TABLE_H
#define PL_HSA_TABLE_H

#define PL_NONE ((void)0)

#define PL_HSA_TABLE(X)                                                        \
	X(hsa_amd_svm_attributes_set,                                          \
	  (void *ptr, size_t size, hsa_amd_svm_attribute_pair_t *attrs,        \
	   size_t n),                                                          \
	  (ptr, size, attrs, n), PL_NONE, rec_svm(rc, ptr, size, attrs, n))    \
	X(hsa_amd_memory_pool_allocate,                                        \
	  (hsa_amd_memory_pool_t pool, size_t size, uint32_t flags,            \
	   void **ptr),                                                        \
	  (pool, size, flags, ptr), PL_NONE,                                   \
	  rec_pool_alloc(rc, pool, size, ptr))                                 \
	X(hsa_amd_memory_pool_free, (void *ptr), (ptr),                        \
	  rec_free_begin(ptr, &fst),                                           \
	  rec_free_end(HG_API_HSA_MEMORY_POOL_FREE, rc, ptr, &fst))            \
	X(hsa_amd_memory_lock,                                                 \
	  (void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,    \
	   void **agent_ptr),                                                  \
	  (host_ptr, size, agents, num_agent, agent_ptr), PL_NONE,             \
	  rec_lock(HG_API_HSA_MEMORY_LOCK, rc, host_ptr, size))                \
	X(hsa_amd_memory_lock_to_pool,                                         \
	  (void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,    \
	   hsa_amd_memory_pool_t pool, uint32_t flags, void **agent_ptr),      \
	  (host_ptr, size, agents, num_agent, pool, flags, agent_ptr),         \
	  PL_NONE,                                                             \
	  rec_lock(HG_API_HSA_MEMORY_LOCK_TO_POOL, rc, host_ptr, size))        \
	X(hsa_amd_memory_unlock, (void *host_ptr), (host_ptr),                 \
	  rec_free_begin(host_ptr, &fst),                                      \
	  rec_free_end(HG_API_HSA_MEMORY_UNLOCK, rc, host_ptr, &fst))

#endif
