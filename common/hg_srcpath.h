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

#include "hg_path.h"

static inline bool hg_file_is_library_norm(const char *file)
{
	return file && (strstr(file, "/include/hip/") ||
			!strncmp(file, "/usr/include/", 13) ||
			!strncmp(file, "/usr/lib/", 9) ||
			strstr(file, "/rocm/include/"));
}

/* The path as the compiler wrote it may climb out of its own directory
 * ("/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/
 * bits/new_allocator.h", clang's libstdc++ headers): judged with its "."
 * and ".." parts resolved, as JSON writes it. */
static inline bool hg_file_is_library(const char *file)
{
	char norm[1024];

	if (!file || !strstr(file, "/."))
		return hg_file_is_library_norm(file);
	return hg_file_is_library_norm(hg_path_norm(file, norm, sizeof(norm)));
}

#endif
