/* SPDX-License-Identifier: MIT */
/*
 * Writing the topology tree: a file with its value, a directory.  A leaf
 * the tree's writer and the tables of caches and links it writes all
 * call, so that the writer calls the tables and never the other way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include "vg_sysfs_io.h"

int vg_sysfs_put(const char *root, const char *rel, const char *fmt, ...)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f) ? -errno : 0;
}

int vg_sysfs_dir(const char *path)
{
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

int vg_sysfs_dir_in(const char *root, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return vg_sysfs_dir(path);
}
