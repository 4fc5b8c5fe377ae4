/* SPDX-License-Identifier: MIT */
/*
 * Whether the ROCm runtime the program loaded knows the profile's target
 * (vg_known.c reads its table of ISAs).  `hipgrain run` asked the same of
 * the runtime the loader finds by name; a program may load another (its
 * own RUNPATH), so it is asked again here, once, when the runtime first
 * opens the device: it is loaded by then, and has not yet looked at the
 * GPU.
 */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vg.h"
#include "vg_known.h"

static int find_runtime(struct dl_phdr_info *info, size_t size, void *out)
{
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libhsa-runtime64.so"))
		return 0;
	snprintf(out, 512, "%s", info->dlpi_name);
	return 1;
}

static void check(void)
{
	char path[512] = "";
	const char *since = vg_known_since(vg.prof->gfx);
	/* hipgrain run said it already, before the program started. */
	if (getenv("HIPGRAIN_VGPU_UNKNOWN") || !dl_iterate_phdr(find_runtime, path) || !path[0])
		return;
	if (vg_known_target(path, vg.prof->gfx) == 0)
		fprintf(stderr, "hipgrain: virtual %s (%s): the ROCm runtime this "
			"program loaded (%s) does not know %s%s%s%s: it will see no GPU, "
			"and HIP calls that need one fail\n",
			vg.prof->name, vg.prof->gfx, path, vg.prof->gfx,
			since ? "; ROCm " : "", since ? since : "", since ? " and later do" : "");
}

void vg_runtime_check(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, check);
}
