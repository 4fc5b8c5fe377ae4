/* SPDX-License-Identifier: MIT */
/* "What, where, why" errors. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "co_int.h"

int co_fail(struct co_error *err, const char *what, const char *where,
	    uint64_t offset, const char *fmt, ...)
{
	if (!err)
		return -1;
	snprintf(err->what, sizeof err->what, "%s", what);
	snprintf(err->where, sizeof err->where, "%s", where ? where : "memory");
	err->offset = offset;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	return -1;
}

char *co_error_str(const struct co_error *err, char *buf, size_t size)
{
	snprintf(buf, size, "%s: offset 0x%llx: %s: %s", err->where,
		 (unsigned long long)err->offset, err->what, err->why);
	return buf;
}
