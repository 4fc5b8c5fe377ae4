/* SPDX-License-Identifier: MIT */
/*
 * The AMDHSA kernel descriptor: what the command processor reads before a
 * wave starts (the LLVM AMDGPU usage guide's "Kernel Descriptor" and
 * COMPUTE_PGM_RSRC tables).  The interpreter sets up each wave's registers
 * from it exactly as they say, so a kernel reads its arguments and ids
 * where its code expects them.
 */
#include <string.h>

#include "isa.h"

#define BIT(w, n) (((w) >> (n)) & 1u)
#define BITS(w, hi, lo) (((w) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static uint32_t u32(const uint8_t *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, 4);
	return v;
}

int isa_kd_parse(const uint8_t *kd, enum isa_family fam, struct isa_kd *k)
{
	memset(k, 0, sizeof(*k));
	k->group_segment_fixed_size = u32(kd, 0);
	k->private_segment_fixed_size = u32(kd, 4);
	k->kernarg_size = u32(kd, 8);
	memcpy(&k->entry_offset, kd + 16, 8);
	k->rsrc3 = u32(kd, 44);
	k->rsrc1 = u32(kd, 48);
	k->rsrc2 = u32(kd, 52);
	memcpy(&k->code_properties, kd + 56, 2);

	k->float_round = (uint8_t)BITS(k->rsrc1, 15, 12);
	k->float_denorm32 = (uint8_t)BITS(k->rsrc1, 17, 16);
	k->float_denorm16_64 = (uint8_t)BITS(k->rsrc1, 19, 18);
	k->dx10_clamp = (uint8_t)BIT(k->rsrc1, 21);
	k->ieee_mode = (uint8_t)BIT(k->rsrc1, 23);

	k->private_segment = (uint8_t)BIT(k->rsrc2, 0);
	k->user_sgprs = (uint8_t)BITS(k->rsrc2, 5, 1);
	k->wg_id_x = (uint8_t)BIT(k->rsrc2, 7);
	k->wg_id_y = (uint8_t)BIT(k->rsrc2, 8);
	k->wg_id_z = (uint8_t)BIT(k->rsrc2, 9);
	k->wg_info = (uint8_t)BIT(k->rsrc2, 10);
	k->vgpr_wi_ids = (uint8_t)BITS(k->rsrc2, 12, 11);

	uint16_t cp = k->code_properties;
	k->sgpr_private_buffer = (uint8_t)BIT(cp, 0);
	k->sgpr_dispatch_ptr = (uint8_t)BIT(cp, 1);
	k->sgpr_queue_ptr = (uint8_t)BIT(cp, 2);
	k->sgpr_kernarg_ptr = (uint8_t)BIT(cp, 3);
	k->sgpr_dispatch_id = (uint8_t)BIT(cp, 4);
	k->sgpr_flat_scratch_init = (uint8_t)BIT(cp, 5);
	k->sgpr_private_size = (uint8_t)BIT(cp, 6);
	k->wave32 = (uint8_t)BIT(cp, 10);
	if (fam != ISA_GFX908)
		k->accum_offset = (uint16_t)((BITS(k->rsrc3, 5, 0) + 1) * 4);

	/* gfx9 runs wave64 only; the entry must lie after the descriptor's
	 * own image, within reach of a 48-bit address. */
	if (k->wave32 || k->entry_offset == 0 ||
	    k->entry_offset > (1ll << 47) || k->entry_offset < -(1ll << 47))
		return -1;
	return 0;
}
