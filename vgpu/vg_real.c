/* SPDX-License-Identifier: MIT */
/*
 * The C library's mmap, past the shim's own (vg_shim.c): the device maps
 * its memory file and the runtime's code objects through it.  Apart from
 * the shim, so that the parts that map call a leaf and not the front door
 * that calls them.
 */
/* The 32-bit-offset name, as the shim defines it. */
#undef _FILE_OFFSET_BITS
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "vg.h"

void *vg_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	if (!real) {
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
		if (!real) {
			fprintf(stderr, "hipgrain: virtual GPU: no mmap in libc\n");
			abort();
		}
	}
	return real(addr, len, prot, flags, fd, off);
}
