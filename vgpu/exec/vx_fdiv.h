/* SPDX-License-Identifier: MIT */
/* The division helpers (vx_fdiv.c): each takes and returns bit patterns. */
#ifndef VX_FDIV_H
#define VX_FDIV_H

#include "vx_int.h"

/* s0 the operand to scale, s1 the denominator, s2 the numerator; *vcc
 * says whether v_div_fmas must scale the quotient back. */
uint32_t vx_div_scale32(uint32_t s0, uint32_t s1, uint32_t s2, int *vcc);
uint64_t vx_div_scale64(uint64_t s0, uint64_t s1, uint64_t s2, int *vcc);
uint32_t vx_div_fmas32(uint32_t s0, uint32_t s1, uint32_t s2, int vcc);
uint64_t vx_div_fmas64(uint64_t s0, uint64_t s1, uint64_t s2, int vcc);

#endif
