/* SPDX-License-Identifier: MIT */
/*
 * The render node.  The thunk needs it as a handle for its VM and as an
 * mmap target, which the memory file already is.  Its one other use is
 * libdrm's device handle, for the product's marketing name: libdrm checks
 * that the fd is a DRM character device before any ioctl, so the three
 * libdrm_amdgpu calls the thunk makes are answered here for our fds, with
 * the name the product's entry in libdrm's amdgpu.ids would give.  Any
 * other fd goes to libdrm.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>

#include "vg.h"

#define VG_EXPORT __attribute__((visibility("default")))

/* Our handle: never dereferenced by the thunk, only passed back. */
static const char device_handle = 'v';

int vg_drm_ioctl(unsigned long req, void *arg)
{
	return -EINVAL;
}

VG_EXPORT int amdgpu_device_initialize(int fd, uint32_t *major, uint32_t *minor,
				       void **dev);
VG_EXPORT int amdgpu_device_initialize(int fd, uint32_t *major, uint32_t *minor,
				       void **dev)
{
	if (vg_dev_is(fd) != VG_FD_RENDER) {
		int (*real)(int, uint32_t *, uint32_t *, void **) =
			(int (*)(int, uint32_t *, uint32_t *, void **))dlsym(
				RTLD_NEXT, "amdgpu_device_initialize");
		return real ? real(fd, major, minor, dev) : -ENOSYS;
	}
	*major = 3;
	*minor = 48;
	*dev = (void *)&device_handle;
	return 0;
}

VG_EXPORT const char *amdgpu_get_marketing_name(void *dev);
VG_EXPORT const char *amdgpu_get_marketing_name(void *dev)
{
	if (dev == &device_handle)
		return vg.prof->product;
	const char *(*real)(void *) =
		(const char *(*)(void *))dlsym(RTLD_NEXT, "amdgpu_get_marketing_name");
	return real ? real(dev) : NULL;
}

VG_EXPORT int amdgpu_device_deinitialize(void *dev);
VG_EXPORT int amdgpu_device_deinitialize(void *dev)
{
	if (dev == &device_handle)
		return 0;
	int (*real)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "amdgpu_device_deinitialize");
	return real ? real(dev) : -ENOSYS;
}
