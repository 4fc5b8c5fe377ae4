/* SPDX-License-Identifier: MIT */
/*
 * The device's state and what every part of it shares: the clock, the
 * log, the numbering of its GPUs.  A leaf: every file of the virtual GPU
 * calls here, and nothing here calls back, so that the parts call one
 * another only downwards.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "hg_env.h"
#include "vg.h"
#include "vg_sysfs.h"

struct vg_state vg = { .kfd_fd = -1, .render_fd = -1, .mem_fd = -1 };

uint64_t vg_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int tracing = -1;

void vg_log(const char *fmt, ...)
{
	if (tracing < 0)
		tracing = hg_env_get_ull(HG_ENV_VGPU_TRACE, 0, 1) == 1;
	if (!tracing)
		return;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "hipgrain vgpu[%d]: %s\n", (int)getpid(), line);
}

int vg_gpu_index(uint32_t gpu_id)
{
	uint32_t n = vg.node ? vg.node->gpus : 1;
	return gpu_id >= VG_GPU_ID && gpu_id - VG_GPU_ID < n ? (int)(gpu_id - VG_GPU_ID) : -1;
}
