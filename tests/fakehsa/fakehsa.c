/* SPDX-License-Identifier: MIT */
/* TEST DOUBLE of libhsa-runtime64.so.1 (see doc/testing.md): host memory only. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FH_EXPORT __attribute__((visibility("default")))

/* hsa.h declares these with () in C: not prototypes. */
hsa_status_t hsa_init(void);
hsa_status_t hsa_shut_down(void);

enum { POOL_SYSTEM_FINE = 1, POOL_DEVICE_COARSE = 2, POOL_DEVICE_FINE = 3 };

FH_EXPORT hsa_status_t hsa_init(void)
{
	return HSA_STATUS_SUCCESS;
}

FH_EXPORT hsa_status_t hsa_shut_down(void)
{
	return HSA_STATUS_SUCCESS;
}

static bool known(hsa_amd_memory_pool_t pool)
{
	return pool.handle >= POOL_SYSTEM_FINE &&
	       pool.handle <= POOL_DEVICE_FINE;
}

FH_EXPORT hsa_status_t hsa_amd_memory_pool_get_info(
    hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attr, void *value)
{
	uint32_t flags = pool.handle == POOL_DEVICE_COARSE
			     ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
			     : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
	bool all = pool.handle == POOL_SYSTEM_FINE;

	if (!known(pool) || !value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (attr == HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS)
		memcpy(value, &flags, sizeof(flags));
	else if (attr == HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL)
		memcpy(value, &all, sizeof(all));
	else
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return HSA_STATUS_SUCCESS;
}

FH_EXPORT hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t pool,
						    size_t size, uint32_t flags,
						    void **ptr)
{
	(void)flags;
	if (!known(pool) || !ptr || !size)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*ptr = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
	return *ptr ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

FH_EXPORT hsa_status_t hsa_amd_memory_pool_free(void *ptr)
{
	free(ptr);
	return HSA_STATUS_SUCCESS;
}

FH_EXPORT hsa_status_t hsa_amd_memory_lock(void *host_ptr, size_t size,
					   hsa_agent_t *agents, int num_agent,
					   void **agent_ptr)
{
	(void)agents, (void)num_agent;
	if (!host_ptr || !size || !agent_ptr)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*agent_ptr = host_ptr;
	return HSA_STATUS_SUCCESS;
}

FH_EXPORT hsa_status_t hsa_amd_memory_lock_to_pool(
    void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
    hsa_amd_memory_pool_t pool, uint32_t flags, void **agent_ptr)
{
	(void)flags;
	if (!known(pool))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return hsa_amd_memory_lock(host_ptr, size, agents, num_agent,
				   agent_ptr);
}

FH_EXPORT hsa_status_t hsa_amd_memory_unlock(void *host_ptr)
{
	return host_ptr ? HSA_STATUS_SUCCESS
			: HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

FH_EXPORT hsa_status_t hsa_amd_svm_attributes_set(
    void *ptr, size_t size, hsa_amd_svm_attribute_pair_t *attrs, size_t n)
{
	for (size_t i = 0; attrs && i < n; i++)
		if (attrs[i].attribute == HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG &&
		    attrs[i].value > HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return ptr && size ? HSA_STATUS_SUCCESS
			   : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
