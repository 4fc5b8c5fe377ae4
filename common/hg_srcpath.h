/* SPDX-License-Identifier: MIT */
/*
 * Source paths that are not the user's code: HIP's headers (/usr/include/hip,
 * /opt/rocm/include/hip), the C and C++ libraries' and the compiler's.  Call
 * sites and kernel lines name the first location outside them.
 */
#ifndef HG_SRCPATH_H
#define HG_SRCPATH_H

#include <stdbool.h>
#include <string.h>

static inline bool hg_file_is_library(const char *file)
{
	return file && (strstr(file, "/include/hip/") ||
			!strncmp(file, "/usr/include/", 13) ||
			!strncmp(file, "/usr/lib/", 9) ||
			strstr(file, "/rocm/include/"));
}

#endif
