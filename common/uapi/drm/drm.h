/* SPDX-License-Identifier: MIT */
/*
 * linux/kfd_ioctl.h includes <drm/drm.h> for the kernel's integer types
 * only; Debian ships that header in libdrm-dev under another path, so
 * the types come from where linux-libc-dev has them.
 */
#ifndef HG_UAPI_DRM_H
#define HG_UAPI_DRM_H
#include <linux/types.h>
#endif
