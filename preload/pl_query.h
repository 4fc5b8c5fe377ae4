/* SPDX-License-Identifier: MIT */
#ifndef PL_QUERY_H
#define PL_QUERY_H

#include <stddef.h>

/* Record the runtime's own coherency answer for a managed range. */
void pl_query_coherency(const void *p, size_t n);

#endif
