/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the virtual GPU's reading of a loaded code object (vgpu/vg_image.c):
 * the input is the image from its ELF header on, as device memory holds
 * it.  Each symbol-sized step of the first pages is tried as a kernel
 * descriptor's place; whatever the bytes, a kernel it names has a
 * terminated name and no more arguments than it keeps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vg_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!vg_image_is_elf(data, size))
		return 0;
	for (uint64_t kd = 0; kd < size && kd < (64u << 10); kd += 64) {
		struct vg_kinfo k;
		if (vg_image_kernel(data, size, kd, &k))
			continue;
		if (memchr(k.name, '\0', sizeof(k.name)) == NULL || k.nargs > VG_IMAGE_ARGS)
			abort();
		for (uint32_t i = 0; i < k.nargs; i++)
			if (memchr(k.args[i].name, '\0', sizeof(k.args[i].name)) == NULL)
				abort();
	}
	return 0;
}
