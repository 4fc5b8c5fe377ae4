/* SPDX-License-Identifier: MIT */
#ifndef PL_QUERY_H
#define PL_QUERY_H

#include <stddef.h>

/* A question hipgrain asked the runtime failed: the runtime's last error
 * belongs to the program, so it is cleared. */
void pl_query_failed(void);
/* Record the runtime's own coherency answer for a managed range. */
void pl_query_coherency(const void *p, size_t n);

#endif
