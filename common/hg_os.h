/* SPDX-License-Identifier: MIT */
/* Memory for hipgrain's own tables inside the wrapped process: straight
 * from the kernel, so they never re-enter the allocator being tracked. */
#ifndef HG_OS_H
#define HG_OS_H

#include <stdbool.h>
#include <stddef.h>

void *hg_os_alloc(size_t size);	  /* zeroed; NULL on failure */
void hg_os_free(void *p, size_t size);

/* Asymmetric fences: once registered, hg_os_barrier() returns only after
 * every thread of the process has passed a full barrier, so a thread's hot
 * path can order its own store before its load with no fence of its own. */
bool hg_os_barrier_register(void);
bool hg_os_barrier(void);

#endif
