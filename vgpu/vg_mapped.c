/* SPDX-License-Identifier: MIT */
/*
 * Which buffer objects are mapped to the GPU: the driver will not free
 * one still mapped (amdgpu_amdkfd_gpuvm.c,
 * amdgpu_amdkfd_gpuvm_free_memory_of_gpu: -EBUSY).  A runtime unmaps
 * before it frees, so the table holds the few objects mapped now.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "vg.h"

struct mapped {
	uint64_t handle;
	uint32_t n;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mapped *tab;
static size_t ntab, captab;

static struct mapped *slot(uint64_t handle)
{
	for (size_t i = 0; i < ntab; i++)
		if (tab[i].handle == handle)
			return &tab[i];
	return NULL;
}

int vg_mapped_add(uint64_t handle, int delta)
{
	int rc = 0;
	pthread_mutex_lock(&lock);
	struct mapped *m = slot(handle);
	if (!m && delta > 0) {
		if (ntab == captab) {
			size_t cap = captab ? captab * 2 : 64;
			struct mapped *t = realloc(tab, cap * sizeof(*t));
			if (!t) {
				pthread_mutex_unlock(&lock);
				return -ENOMEM;
			}
			tab = t;
			captab = cap;
		}
		m = &tab[ntab++];
		*m = (struct mapped){ handle, 0 };
	}
	if (m) {
		/* One GPU: an object is mapped to it or not (mapping it again
		 * changes nothing, as the driver skips a mapped attachment). */
		m->n = delta > 0;
		if (!m->n)
			*m = tab[--ntab];
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

int vg_mapped(uint64_t handle)
{
	pthread_mutex_lock(&lock);
	int n = slot(handle) != NULL;
	pthread_mutex_unlock(&lock);
	return n;
}

void vg_mapped_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD)
		ntab = 0;
	pthread_mutex_unlock(&lock);
}
