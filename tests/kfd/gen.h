/* SPDX-License-Identifier: MIT */
/*
 * Random SMI events of the kinds we know, each carrying only the fields its
 * line has and only values the kernel can write, from a fixed seed: the
 * same events under every libc.
 */
#ifndef TEST_KFD_GEN_H
#define TEST_KFD_GEN_H

#include <stdint.h>

#include "kd_smi.h"

void gen_seed(uint64_t seed);
uint64_t gen_rng(void);
void gen_event(struct kd_smi_event *ev);

#endif
