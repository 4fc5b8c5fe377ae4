/* SPDX-License-Identifier: MIT */
/*
 * A code object as the runtime's loader left it in device memory: its
 * first loaded segment starts with the ELF header, and holds the program
 * headers, the dynamic symbols and the metadata note, but no section
 * headers.  Enough of it is read to name the kernel a dispatch packet
 * points at and where its named arguments sit in the kernarg segment.
 */
#ifndef VG_IMAGE_H
#define VG_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define VG_IMAGE_ARGS 16

struct vg_karg {
	char name[24];
	uint32_t offset, size;
};

struct vg_kinfo {
	char name[64];		/* the kernel's symbol without ".kd" */
	uint32_t nargs;
	struct vg_karg args[VG_IMAGE_ARGS];
};

/* Whether the n bytes at img begin an AMDGPU ELF header. */
int vg_image_is_elf(const uint8_t *img, size_t n);
/* The kernel whose descriptor lies kd bytes past the header of the image
 * (n bytes readable): 0 and *out filled, or -1 when the bytes do not say. */
int vg_image_kernel(const uint8_t *img, size_t n, uint64_t kd, struct vg_kinfo *out);

#endif
