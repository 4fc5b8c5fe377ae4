/* SPDX-License-Identifier: MIT */
/* A runtime that answers hipGetProcAddress the way HIP 6.x does: by name
 * and version (hipMemAdvise at 700 and later is hipMemAdvise_v2). */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int hipMalloc(void **p, size_t n);
EXPORT int hipMemAdvise(const void *p, size_t n, int a, int d);
EXPORT int hipMemAdvise_v2(const void *p, size_t n, int a, int d);
EXPORT int hipFakeQuery(void);
EXPORT int hipGetProcAddress(const char *s, void **pfn, int v, uint64_t f,
			     int *st);

EXPORT int hipMalloc(void **p, size_t n)
{
	(void)n;
	*p = NULL;
	return 1;
}
EXPORT int hipMemAdvise(const void *p, size_t n, int a, int d)
{
	return 1;
}
EXPORT int hipMemAdvise_v2(const void *p, size_t n, int a, int d)
{
	return 1;
}
EXPORT int hipFakeQuery(void)
{
	return 7;
}

EXPORT int hipGetProcAddress(const char *s, void **pfn, int v, uint64_t f,
			     int *st)
{
	*pfn = NULL;
	if (!strcmp(s, "hipMalloc"))
		*pfn = (void *)hipMalloc;
	else if (!strcmp(s, "hipMemAdvise"))
		*pfn =
		    v >= 700 ? (void *)hipMemAdvise_v2 : (void *)hipMemAdvise;
	else if (!strcmp(s, "hipFakeQuery"))
		*pfn = (void *)hipFakeQuery;
	if (st)
		*st = *pfn ? 0 : 1;
	return *pfn ? 0 : 500; /* hipErrorNotFound */
}
