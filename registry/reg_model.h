/* SPDX-License-Identifier: MIT */
/*
 * What the allocator, its flags and the environment say about memory:
 * DESIGN.md's granularity table, from seed 000, seed 001 and the ROCm docs.
 * This is the model; the runtime's own answer is recorded beside it.
 */
#ifndef REG_MODEL_H
#define REG_MODEL_H

#include <stdint.h>

#include "reg.h"

/* What the model depends on besides the call: HIP_HOST_COHERENT as read at
 * start (-1 when unset), and the HIP runtime's major version (0 while it
 * is not known): some allocators changed meaning between releases. */
struct reg_model_env {
	int host_coherent;
	int rocm_major;
};

void reg_model(uint8_t api, uint32_t flags, const struct reg_model_env *env, uint8_t *mem,
	       uint8_t *gran);

#endif
