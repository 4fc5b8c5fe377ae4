/* SPDX-License-Identifier: MIT */
/* Memory for the registry's own tables: straight from the kernel, so the
 * registry never re-enters the allocator it is tracking. */
#ifndef REG_OS_H
#define REG_OS_H

#include <stddef.h>

void *reg_os_alloc(size_t size);	  /* zeroed; NULL on failure */
void reg_os_free(void *p, size_t size);

#endif
