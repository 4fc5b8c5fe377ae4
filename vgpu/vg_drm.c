/* SPDX-License-Identifier: MIT */
/*
 * The render node.  The thunk needs it as a handle for its VM and as an
 * mmap target, which the memory file already is.  Its one other use is
 * libdrm's device handle, for the product's marketing name: libdrm checks
 * that the fd is a DRM character device before any ioctl, so the
 * libdrm_amdgpu calls the thunk makes are answered here for our fds, with
 * the name the product's entry in libdrm's amdgpu.ids would give, and
 * the fd behind the handle (ROCm 6).  Any other fd goes to libdrm.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "vg.h"

#define VG_EXPORT __attribute__((visibility("default")))

/* Our handle: never dereferenced by the thunk, only passed back; it
 * remembers the render fd it was made for (amdgpu_device_get_fd). */
struct vg_drm_dev {
	int fd;
};
static struct vg_drm_dev device_handle = { -1 };

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
	/* libdrm keeps a duplicate of its own: the caller may close the
	 * fd it passed once it has the one the handle uses. */
	int own = vg_dev_dup(fd);
	if (own < 0)
		return -errno;
	*major = 3;
	*minor = 48;
	device_handle.fd = own;
	*dev = &device_handle;
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
	if (dev == &device_handle) {
		if (device_handle.fd >= 0)
			close(device_handle.fd);
		device_handle.fd = -1;
		return 0;
	}
	int (*real)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "amdgpu_device_deinitialize");
	return real ? real(dev) : -ENOSYS;
}

/* ROCm 6's thunk asks libdrm which fd the handle uses, and uses that. */
VG_EXPORT int amdgpu_device_get_fd(void *dev);
VG_EXPORT int amdgpu_device_get_fd(void *dev)
{
	if (dev == &device_handle)
		return device_handle.fd;
	int (*real)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "amdgpu_device_get_fd");
	return real ? real(dev) : -ENOSYS;
}

/* libdrm's struct amdgpu_gpu_info (amdgpu.h), which Debian ships only in
 * libdrm-dev: the fields up to the last one ROCm reads, in its order. */
struct vg_amdgpu_gpu_info {
	uint32_t asic_id, chip_rev, chip_external_rev, family_id;
	uint64_t ids_flags, max_engine_clk, max_memory_clk;
	uint32_t num_shader_engines, num_shader_arrays_per_engine;
	uint32_t avail_quad_shader_pipes, max_quad_shader_pipes;
	uint32_t cache_entries_per_quad_pipe, num_hw_gfx_contexts;
	uint32_t rb_pipes, enabled_rb_pipes_mask, gpu_counter_freq;
	uint32_t backend_disable[4];
	uint32_t mc_arb_ramcfg, gb_addr_cfg;
	uint32_t gb_tile_mode[32], gb_macro_tile_mode[16];
	uint32_t pa_sc_raster_cfg[4], pa_sc_raster_cfg1[4];
	uint32_t cu_active_number, cu_ao_mask;
	uint32_t cu_bitmap[4][4];
	uint32_t vram_type, vram_bit_width, ce_ram_size, vce_harvest_config;
	uint32_t pci_rev_id;
};

/* AMDGPU_FAMILY_AI: every gfx9 product, MI300's included. */
#define VG_FAMILY_AI 141

/* ROCm 6's image support sets up its address library from these. */
VG_EXPORT int amdgpu_query_gpu_info(void *dev, struct vg_amdgpu_gpu_info *info);
VG_EXPORT int amdgpu_query_gpu_info(void *dev, struct vg_amdgpu_gpu_info *info)
{
	if (dev != &device_handle) {
		int (*real)(void *, struct vg_amdgpu_gpu_info *) =
			(int (*)(void *, struct vg_amdgpu_gpu_info *))dlsym(
				RTLD_NEXT, "amdgpu_query_gpu_info");
		return real ? real(dev, info) : -ENOSYS;
	}
	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->asic_id = vg.prof->device_id;
	info->family_id = VG_FAMILY_AI;
	info->chip_external_rev = vg.prof->gfx_target % 100;
	info->max_engine_clk = (uint64_t)vg.prof->max_clock_mhz * 1000;
	info->num_shader_engines = vg.prof->shader_engines;
	info->num_shader_arrays_per_engine = 1;
	info->gb_addr_cfg = VG_GB_ADDR_CONFIG;
	info->cu_active_number = vg.prof->cu_count;
	info->vram_bit_width = 4096;
	info->gpu_counter_freq = 100000; /* kHz: the 100 MHz of gfx9 */
	return 0;
}
