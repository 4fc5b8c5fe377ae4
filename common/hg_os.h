/* SPDX-License-Identifier: MIT */
/* Memory for hipgrain's own tables inside the wrapped process: straight
 * from the kernel, so they never re-enter the allocator being tracked. */
#ifndef HG_OS_H
#define HG_OS_H

#include <stddef.h>

void *hg_os_alloc(size_t size);	  /* zeroed; NULL on failure */
void hg_os_free(void *p, size_t size);

#endif
