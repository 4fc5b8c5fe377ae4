# SPDX-License-Identifier: MIT
"""VOP3P: packed 16-bit integer and half math with op_sel, op_sel_hi and
the negations, inline constants in both halves, gfx90a's packed f32, and
the AccVGPR moves."""
from exec_host import f16, from16, f32

L = range(64)


def st(regs):
    return ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))


def pk(lo, hi):
    return (lo & 0xffff) | (hi & 0xffff) << 16


def h(x):
    return f16(x)


CASES = [
    ('VOP3P: packed u16/i16 with op_sel swaps and inline constants', ['gfx90a', 'gfx908', 'gfx940'], '''
v_lshl_or_b32 v2, v0, 16, 7
v_pk_add_u16 v3, v2, v2
v_pk_add_u16 v4, v2, v2 op_sel:[1,0] op_sel_hi:[0,1]
v_pk_sub_i16 v5, v2, 9
v_pk_mul_lo_u16 v6, v2, 3
v_pk_lshlrev_b16 v7, 1, v2
v_pk_max_i16 v8, v2, -2
v_pk_mad_u16 v9, v2, v2, 1
''' + st(range(3, 10)),
     lambda arch: [pk(14, 2 * l) for l in L] + [pk(l + 7, l + 7) for l in L] +
        [pk(7 - 9, l - 9) for l in L] + [pk(21, 3 * l) for l in L] + [pk(14, 2 * l) for l in L] +
        [pk(7, l) for l in L] + [pk(50, l * l + 1) for l in L]),
    ('VOP3P: packed f16 with neg_lo/neg_hi, op_sel, fma, and a half constant', ['gfx90a', 'gfx908', 'gfx940'], '''
v_cvt_f32_u32 v2, v0
v_cvt_f16_f32 v3, v2
v_add_f32 v2, 0.5, v2
v_cvt_f16_f32 v4, v2
v_lshl_or_b32 v5, v4, 16, v3
v_pk_add_f16 v6, v5, 0.5
v_pk_mul_f16 v7, v5, v5 neg_lo:[1,0] neg_hi:[0,0]
v_pk_fma_f16 v8, v5, 2.0, v5 op_sel:[1,0,0] op_sel_hi:[0,1,1]
v_pk_max_f16 v9, v5, v5 op_sel:[0,1] op_sel_hi:[1,0]
''' + st(range(6, 10)),
     lambda arch: [pk(h(l + 0.5), h(l + 1.0)) for l in L] +
        [pk(h(-float(l) * l), h((l + 0.5) ** 2)) for l in L] +
        [pk(h(2 * (l + 0.5) + l), h(3 * l + 0.5)) for l in L] +
        [pk(h(l + 0.5), h(l + 0.5)) for l in L]),
    ('VOP3P: packed f32 (gfx90a) and AccVGPR moves', ['gfx90a', 'gfx940'], '''
v_cvt_f32_u32 v2, v0
v_add_f32 v3, 1.0, v2
v_pk_fma_f32 v[4:5], v[2:3], v[2:3], 1.0
v_pk_mul_f32 v[6:7], v[2:3], v[2:3] op_sel:[0,1] op_sel_hi:[1,0]
v_pk_add_f32 v[8:9], v[2:3], 2.0 neg_lo:[1,0]
v_pk_mov_b32 v[10:11], v[2:3], v[2:3] op_sel:[1,0]
v_accvgpr_write_b32 a7, v3
v_accvgpr_read_b32 v12, a7
v_accvgpr_write_b32 a8, 5
v_accvgpr_read_b32 v13, a8
''' + st([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
     lambda arch: [f32(l * l + 1.0) for l in L] + [f32((l + 1.0) ** 2 + 1.0) for l in L] +
        [f32(l * (l + 1.0)) for l in L] + [f32((l + 1.0) * l) for l in L] +
        [f32(2.0 - l) for l in L] + [f32(l + 3.0) for l in L] +
        [f32(l + 1.0) for l in L] + [f32(l + 0.0) for l in L] + [f32(l + 1.0) for l in L] +
        [5] * 64),
    ('VOP3 op_sel: v_pack_b32_f16 takes the high or low half of each source', ['gfx90a', 'gfx908', 'gfx940'], '''
v_lshl_or_b32 v2, v0, 16, 7
v_add_u32 v3, 0x50000, v2
v_pack_b32_f16 v4, v2, v3 op_sel:[1,0]
v_pack_b32_f16 v5, v2, v3 op_sel:[0,1]
v_pack_b32_f16 v6, v2, v3 op_sel:[1,1]
''' + st([4, 5, 6]),
     lambda arch: [pk(l, 7) for l in L] + [pk(7, l + 5) for l in L] + [pk(l, l + 5) for l in L]),
]


CASES += [
    ('VOP3P: packed f32 from VGPRs, SGPRs and constants by op_sel and negation, under a partial EXEC, '
     'a destination over its sources', ['gfx90a', 'gfx940'], '''
''' + ''.join(f'v_mov_b32 v{r}, 7\n' for r in range(4, 16)) + '''
v_cvt_f32_u32 v2, v0
v_add_f32 v3, 0.5, v2
v_and_b32 v20, 3, v0
v_cmp_ne_u32 vcc, 0, v20
s_and_saveexec_b64 s[10:11], vcc
v_mov_b32 v4, v2
v_mov_b32 v5, v3
v_pk_mul_f32 v[4:5], v[4:5], v[2:3] op_sel:[1,0] op_sel_hi:[0,1]
v_pk_fma_f32 v[6:7], v[2:3], v[2:3], v[2:3] neg_lo:[0,0,1] neg_hi:[1,0,0]
v_pk_add_f32 v[8:9], v[2:3], v[2:3] op_sel:[1,1] op_sel_hi:[0,0]
v_mov_b32 v10, v3
v_mov_b32 v11, v2
v_pk_mul_f32 v[10:11], v[8:9], v[10:11]
s_mov_b32 s12, 2.0
s_mov_b32 s13, 4.0
v_pk_fma_f32 v[12:13], v[2:3], s[12:13], v[2:3] op_sel:[0,1,0] op_sel_hi:[1,0,1]
v_pk_mov_b32 v[14:15], s[12:13], v[2:3] op_sel:[1,1]
s_mov_b64 exec, s[10:11]
''' + st(range(4, 16)),
     lambda arch: [7 if l % 4 == 0 else v for r in range(12) for l in L for v in [f32([
        (l + .5) * l, l * (l + .5), l * l - l, -(l + .5) ** 2 + (l + .5),
        2 * (l + .5), 2.0 * l, 2 * (l + .5) ** 2, 2.0 * l * l,
        5.0 * l, 3 * (l + .5), 4.0, l + .5][r])]]),
]
