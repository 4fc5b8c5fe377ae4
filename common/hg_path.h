/* SPDX-License-Identifier: MIT */
#ifndef HG_PATH_H
#define HG_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* path without "." and "dir/.." parts, in buf; path itself when buf is too
 * small. */
const char *hg_path_norm(const char *path, char *buf, size_t cap);

#endif
