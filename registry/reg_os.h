/* SPDX-License-Identifier: MIT */
/* Memory for the registry's own tables: straight from the kernel, so the
 * registry never re-enters the allocator it is tracking. */
#ifndef REG_OS_H
#define REG_OS_H

#include <stdbool.h>
#include <stddef.h>

void *reg_os_alloc(size_t size);	  /* zeroed; NULL on failure */
void reg_os_free(void *p, size_t size);

/* Asymmetric fences: once registered, reg_os_barrier() returns only after
 * every thread of the process has passed a full barrier, so a thread's hot
 * path can order its own store before its load with no fence of its own. */
bool reg_os_barrier_register(void);
bool reg_os_barrier(void);

#endif
