/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for <drm/drm.h>, used only where the system has none.
 *
 * Debian's linux-libc-dev ships <linux/kfd_ioctl.h> but leaves the DRM
 * headers to libdrm-dev, which installs them under another directory; the
 * KFD header includes <drm/drm.h> only for the fixed-width __u32/__u64
 * types, which <linux/types.h> gives.  kfd/meson.build adds this directory
 * to the include path when the real header is missing.
 */
#ifndef KD_SHIM_DRM_H
#define KD_SHIM_DRM_H

#include <linux/types.h>

#endif
