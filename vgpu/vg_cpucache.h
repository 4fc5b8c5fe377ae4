/* SPDX-License-Identifier: MIT */
/*
 * The CPUs' caches as the kernel's cacheinfo shows them in sysfs, for a
 * host whose kernel shows none (some virtual machines): ROCm's thunk
 * counts them to build the CPU node and gives up on the whole topology
 * when it finds none, so without them no virtual GPU would be seen.
 */
#ifndef VG_CPUCACHE_H
#define VG_CPUCACHE_H

#include <stddef.h>

/* The tree's directory that stands for every CPU's cache/ directory. */
#define VG_CPUCACHE_DIR "cpu_cache"

/* Under root/VG_CPUCACHE_DIR, cpuN/indexK for each CPU the host has
 * under cpu_dir (normally /sys/devices/system/cpu) when its cpu0 has no
 * cache/index0; nothing when it has.  0 or -errno. */
int vg_cpucache_make(const char *root, const char *cpu_dir);

/* The tree's name for a path in a CPU's cache/ directory (through
 * /sys/devices/system/cpu/cpuN or a NUMA node's cpuN), or NULL when the
 * path is none or the tree has no caches. */
const char *vg_cpucache_path(const char *tree, const char *path, char *buf,
			     size_t cap);

#endif
