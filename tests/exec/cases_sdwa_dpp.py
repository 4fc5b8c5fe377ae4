# SPDX-License-Identifier: MIT
"""SDWA (operand selects, sign extension, destination select and its
unused bits) and DPP (quad permutes, row shifts and rotates, wave shifts,
broadcasts, the row and bank masks, bound_ctrl)."""
from exec_host import f32

L = range(64)
M = 0xffffffff


def st(regs):
    return ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def row_src(l, f):
    """DPP's source lane in l's row, or None."""
    s = f(l & 15)
    return None if s is None or not 0 <= s < 16 else (l & ~15) + s


# v2 = lane * 0x01020304 + 0x80 (bytes that differ per lane, some negative)
V2 = [(l * 0x01020304 + 0x80) & M for l in L]

CASES = [
    ('SDWA: byte and word selects, sext, dst_sel with preserve and sext', ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s26, 0x01020304
v_mul_lo_u32 v2, v0, s26
v_add_u32 v2, 0x80, v2
v_mov_b32 v3, 0x11111111
v_add_u32_sdwa v4, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_0
v_mov_b32 v5, 0xaabbccdd
v_mov_b32_sdwa v5, v2 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
v_mov_b32 v6, -1
v_mov_b32_sdwa v6, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0
v_mov_b32_sdwa v7, sext(v2) dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_0
v_cvt_f32_i32_sdwa v8, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0
v_cmp_gt_i32_sdwa vcc, sext(v2), v3 src0_sel:BYTE_0 src1_sel:BYTE_3
v_cndmask_b32 v9, 0, 1, vcc
''' + st([4, 5, 6, 7, 8, 9]),
     lambda arch: [((v >> 8) & 0xff) + 0x1111 for v in V2] +
        [(0xaa00ccdd | (v & 0xff) << 16) for v in V2] + [(v & 0xffff) << 16 for v in V2] +
        [sx(v, 8) & M for v in V2] + [f32(float(sx(v, 8))) for v in V2] +
        [1 if sx(v, 8) > 0x11 else 0 for v in V2]),
    ('DPP: quad_perm, row_shl/shr/ror, wave_shr, row_mirror, bcast, masks, bound_ctrl',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 100, v0
v_mov_b32 v3, -1
v_mov_b32_dpp v3, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
v_mov_b32 v4, -1
v_mov_b32_dpp v4, v2 row_shl:1 row_mask:0xf bank_mask:0xf
v_mov_b32 v5, -1
v_mov_b32_dpp v5, v2 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_mov_b32 v6, -1
v_mov_b32_dpp v6, v2 row_ror:4 row_mask:0x5 bank_mask:0xf
v_mov_b32 v7, -1
v_mov_b32_dpp v7, v2 wave_shr:1 row_mask:0xf bank_mask:0x3
v_mov_b32 v8, -1
v_mov_b32_dpp v8, v2 row_mirror row_mask:0xf bank_mask:0xf
v_mov_b32 v9, 0
v_add_u32_dpp v9, v2, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
v_mov_b32 v10, 0
v_add_u32_dpp v10, v2, v2 row_bcast:31 row_mask:0xc bank_mask:0xf
v_mov_b32 v11, 7
v_add_u32_dpp v11, v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf
''' + st([3, 4, 5, 6, 7, 8, 9, 10, 11]),
     lambda arch: [100 + (l & ~3) + 3 - (l & 3) for l in L] +
        [100 + s if (s := row_src(l, lambda r: r + 1)) is not None else M for l in L] +
        [100 + s if (s := row_src(l, lambda r: r - 3)) is not None else 0 for l in L] +
        [100 + (l & ~15) + ((l + 12) & 15) if (l >> 4) in (0, 2) else M for l in L] +
        [(100 + l - 1 if l else M) if (l & 15) < 8 else M for l in L] +
        [100 + (l & ~15) + 15 - (l & 15) for l in L] +
        [(100 + (l & ~15) - 1 + 100 + l) if (l >> 4) in (1, 3) else 0 for l in L] +
        [(100 + 31 + 100 + l) if (l >> 4) >= 2 else 0 for l in L] +
        [(100 + l - 1 + l) if l & 15 else 7 for l in L]),
]
