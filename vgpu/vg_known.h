/* SPDX-License-Identifier: MIT */
/* Which targets the installed ROCm runtime knows (vg_known.c). */
#ifndef VG_KNOWN_H
#define VG_KNOWN_H

#include <stddef.h>

/* The ROCm runtime a program finds by name, as the dynamic loader looks
 * for it: its path, and the release of the HIP library beside it ("5.2",
 * "" when none is there). */
struct vg_rt {
	char path[512];
	char release[16];
};

/* 0 with *rt filled, or -1 when no runtime is found. */
int vg_known_runtime(struct vg_rt *rt);
/* 1 when the runtime library at path names target gfx in its table of
 * ISAs, 0 when not, -1 when it cannot be read.  Reads with read(2) only,
 * so that the virtual GPU's own hooks are not in its way. */
int vg_known_target(const char *path, const char *gfx);
/* The first ROCm release whose runtime and hipcc know gfx, or NULL for a
 * target every release hipgrain runs on knows. */
const char *vg_known_since(const char *gfx);
/* Why the runtime rt cannot drive gfx, in one sentence, into buf: 1, or
 * 0 when it can (or cannot be read: then nothing is claimed). */
int vg_known_why(const struct vg_rt *rt, const char *gfx, char *buf, size_t cap);

#endif
