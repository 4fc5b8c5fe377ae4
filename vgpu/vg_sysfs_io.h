/* SPDX-License-Identifier: MIT */
/* Writing the topology tree's files and directories (vg_sysfs_io.c). */
#ifndef VG_SYSFS_IO_H
#define VG_SYSFS_IO_H

/* A file under root, written with fmt: 0 or -errno. */
int vg_sysfs_put(const char *root, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A directory under root, or at path; one that exists is taken: 0 or
 * -errno. */
int vg_sysfs_dir_in(const char *root, const char *rel);
int vg_sysfs_dir(const char *path);

#endif
