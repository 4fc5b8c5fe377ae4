/* SPDX-License-Identifier: MIT */
/*
 * The GPU each process ran on.  A report may merge runs made on different
 * GPUs, or on none: each process keeps its own, and a failed call keeps
 * the reason of the processes it failed in.
 */
#ifndef AN_GPUS_H
#define AN_GPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "an_state.h"

/* Processes that ran on the same GPU alike: the first by pid, how many
 * others, and the GPU in words. */
struct an_gpu_line {
	const struct an_proc *first;
	unsigned others;
	char text[256];
};

/* "virtual MI210: kernels ran on hipgrain's interpreter ...", "no usable
 * GPU: no kernel ran", "gfx90a:sramecc+:xnack- (MI210)"; "" when the
 * trace does not say. */
const char *an_gpu_text(const struct an_proc *p, char *buf, size_t cap);
/* One line per GPU the report's processes ran on, in pid order, leaving
 * out those that do not say; *out is the caller's to free. */
size_t an_gpu_lines(const struct an_ctx *c, struct an_gpu_line **out);
/* A GPU as the user counts them: "GPU 3 (MI250X, card 1's second GCD)",
 * slot being 1 + its index in the node (an_kfd_gpu_slot); the driver's
 * own id, which no tool the user runs shows, only where the index is not
 * known. */
const char *an_gpu_name(const struct an_proc *p, uint32_t gpu_id, uint8_t slot,
			char *buf, size_t cap);
/* What the verdicts rest on, one line per distinct set of machine facts
 * over the processes that had a GPU (an_link_text), in pid order; *out
 * is the caller's to free. */
size_t an_judged_lines(const struct an_ctx *c, struct an_gpu_line **out);
/* The processes did not all run on the same GPU. */
bool an_gpus_mixed(const struct an_ctx *c);
/* At the end of replay: failed calls merged over the processes alike
 * (with a GPU, or without), and the report's first virtual GPU. */
void an_gpus_settle(struct an_ctx *c);

#endif
