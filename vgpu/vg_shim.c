/* SPDX-License-Identifier: MIT */
/*
 * The libc entry points the ROCm thunk reaches the driver through (in
 * libhsakmt for 5.x, inside libhsa-runtime64 from 6.3): open for the
 * devices, fopen and opendir for the topology, ioctl and mmap for the
 * rest.  When no virtual GPU is selected, or a call is not about the
 * driver, it goes to the next definition untouched.
 */
/* The 32-bit-offset names must stay the names defined here: with 64-bit
 * offsets glibc's headers would rename open to open64 and mmap to mmap64. */
#undef _FILE_OFFSET_BITS
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hg_fd.h"
#include "vg.h"
#include "vg_cpucache.h"

#define VG_EXPORT __attribute__((visibility("default")))

#define TOPO "/sys/devices/virtual/kfd/kfd"
#define TOPO_CLASS "/sys/class/kfd/kfd"

/* What the tree stands for: the KFD topology, and the driver's module as
 * the tools that look for it see it. */
static const struct {
	const char *path, *in_tree;
} vg_paths[] = {
	{ TOPO, "" },
	{ TOPO_CLASS, "" },
	{ "/sys/module/amdgpu", "/module/amdgpu" },
	{ "/proc/modules", "/proc_modules" },
};

/* A NUMA node of a machine that this host lacks: the tree has it (the
 * host's first node under another name).  The listing of the nodes is the
 * host's own, so libnuma sees the host as it is and binds no memory to a
 * node the kernel does not have. */
static const char *numa_path(const char *path, char *buf, size_t cap)
{
	static const char dir[] = "/sys/devices/system/node/node";
	char *end;
	if (strncmp(path, dir, sizeof(dir) - 1))
		return NULL;
	unsigned long k = strtoul(path + sizeof(dir) - 1, &end, 10);
	if (end == path + sizeof(dir) - 1 || k == 0 || k >= vg.node->numa ||
	    (*end != '/' && *end != '\0'))
		return NULL;
	snprintf(buf, cap, "%s/system_node/node%lu%s", vg.sysfs, k, end);
	return buf;
}

/* The tree's name for such a path, or the path itself. */
const char *vg_sysfs_path(const char *path, char *buf, size_t cap)
{
	if (!path || !vg.sysfs[0])
		return path;
	/* Before the NUMA nodes: a node's cpuN is the host's, cache and all. */
	const char *cache = vg_cpucache_path(vg.sysfs, path, buf, cap);
	if (cache)
		return cache;
	const char *numa = numa_path(path, buf, cap);
	if (numa)
		return numa;
	for (size_t i = 0; i < sizeof(vg_paths) / sizeof(vg_paths[0]); i++) {
		size_t n = strlen(vg_paths[i].path);
		if (strncmp(path, vg_paths[i].path, n) || (path[n] != '/' && path[n] != '\0'))
			continue;
		snprintf(buf, cap, "%s%s%s", vg.sysfs, vg_paths[i].in_tree, path + n);
		return buf;
	}
	return path;
}

void *vg_next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "hipgrain: virtual GPU: no %s to forward to\n", name);
		abort();
	}
	return f;
}

#define REAL(ret, name, ...)                                                   \
	static ret (*real_##name)(__VA_ARGS__);                                \
	if (!real_##name)                                                      \
		real_##name = (ret(*)(__VA_ARGS__))vg_next(#name)

static int dev_open(const char *path, int flags)
{
	if (!path || vg_init())
		return -2;
	return vg_dev_open(path, flags);
}

/* The device is started by the first look at /sys too: a runtime may read
 * the topology before it opens /dev/kfd. */
static const char *sysfs(const char *path, char *buf, size_t cap)
{
	if (!path || (strncmp(path, "/sys/", 5) && strcmp(path, "/proc/modules")))
		return path;
	if (vg_init() == -EBUSY)
		return path; /* the device's own look, as it starts */
	return vg_sysfs_path(path, buf, cap);
}

#define SYSFS(path)                                                            \
	char buf_[512];                                                        \
	path = sysfs(path, buf_, sizeof(buf_))

/* Every open: a device of ours, else the path (the topology's rewritten)
 * to the next definition, relative to dirfd (AT_FDCWD for open). */
static int open_any(int (*real)(int, const char *, int, ...), int dirfd,
		    const char *path, int flags, mode_t mode)
{
	int fd = dev_open(path, flags);
	if (fd != -2)
		return fd;
	SYSFS(path);
	return real(dirfd, path, flags, mode);
}

/* open and open64 as openat from the working directory: one path. */
#define VG_OPEN(name)                                                          \
	VG_EXPORT int name(const char *path, int flags, ...)                   \
	{                                                                      \
		REAL(int, openat, int, const char *, int, ...);                \
		va_list ap;                                                    \
		va_start(ap, flags);                                           \
		mode_t mode = hg_open_mode(flags, ap);                             \
		va_end(ap);                                                    \
		return open_any(real_openat, AT_FDCWD, path, flags, mode);     \
	}
VG_OPEN(open)
VG_OPEN(open64)

VG_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	REAL(int, openat, int, const char *, int, ...);
	va_list ap;
	va_start(ap, flags);
	mode_t mode = hg_open_mode(flags, ap);
	va_end(ap);
	return open_any(real_openat, dirfd, path, flags, mode);
}

VG_EXPORT FILE *fopen(const char *path, const char *mode)
{
	REAL(FILE *, fopen, const char *, const char *);
	SYSFS(path);
	return real_fopen(path, mode);
}

VG_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	REAL(FILE *, fopen64, const char *, const char *);
	SYSFS(path);
	return real_fopen64(path, mode);
}

VG_EXPORT DIR *opendir(const char *path)
{
	REAL(DIR *, opendir, const char *);
	SYSFS(path);
	return real_opendir(path);
}

VG_EXPORT int ioctl(int fd, unsigned long req, ...)
{
	REAL(int, ioctl, int, unsigned long, ...);
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	int kind = vg_dev_is(fd);
	if (kind == VG_FD_NONE)
		return real_ioctl(fd, req, arg);
	/* Only the process that opened /dev/kfd may use it; a child makes its
	 * own (kfd_chardev.c, kfd_ioctl: -EBADF). */
	int rc = kind == VG_FD_RENDER		   ? vg_drm_ioctl(req, arg)
		 : vg_dev_owner(fd) != vg.self ? -EBADF
					       : vg_kfd_ioctl(req, arg);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return rc;
}

VG_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	REAL(void *, mmap, void *, size_t, int, int, int, off_t);
	int kind = vg_dev_is(fd);
	void *p = kind == VG_FD_KFD ? vg_mmap_kfd(addr, len, prot, flags, off)
				    : real_mmap(addr, len, prot, flags, fd, off);
	if (vg.mem_fd >= 0)
		vg_vma_mapped(p, len, kind != VG_FD_NONE);
	return p;
}

VG_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

VG_EXPORT int close(int fd)
{
	REAL(int, close, int);
	vg_dev_closed(fd);
	return real_close(fd);
}

