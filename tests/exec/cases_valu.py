# SPDX-License-Identifier: MIT
"""VOP1, VOP2, VOP3 and VOPC: integer forms with carries, compares into
VCC and EXEC, the cross-lane moves, and the VOP3 modifiers."""
from exec_host import f32, from32, f16

L = range(64)
M = 0xffffffff


def perm(a, b, sel):
    both = (a << 32 | b)
    r = 0
    for i in range(4):
        s = (sel >> (8 * i)) & 0xff
        if s < 8:
            byte = (both >> (8 * s)) & 0xff
        elif s < 12:
            byte = 0xff if (both >> (16 * (s - 8) + 15)) & 1 else 0
        else:
            byte = 0 if s == 12 else 0xff
        r |= byte << (8 * i)
    return r


def ashr64(l, half):
    """v_ashrrev_i64 by 4 of ((l - 32) << 32 | 0x80000000): a half of it."""
    v = ((l - 32) & M) << 32 | 0x80000000
    r = ((v - (1 << 64) if v >> 63 else v) >> 4) & ((1 << 64) - 1)
    return r >> 32 if half else r & M


def st(regs):
    return ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))


def fast_form(r, l):
    """What the partial-EXEC case leaves in v<r> of lane l."""
    if r == 14:
        return sum(1 << k for k in range(32) if k < 10 and k % 4)
    if l % 4 == 0:
        return 7
    wide = ((((l - 5) & M) << 32 | (l + 0x10000)) << 3) & ((1 << 64) - 1)
    return {2: l + 0x10000, 3: (l - 5) & M, 4: (l - 3) & M,
            5: (l << 2) + 0x10000, 6: (l * 0x12345) & M,
            7: max(l - 5, -4) & M, 8: (l - 1) & M, 9: 1, 10: f32(1.5 * l),
            11: 6 if l < 10 else 5, 12: wide & M, 13: wide >> 32,
            15: 0x7f800000, 16: 0x7fc00000}[r]


CASES = [
    ('VOP1/VOP2/VOP3: the common integer, carry, compare, 64-bit shift and f32 forms '
     'under a partial EXEC, from VGPRs, SGPRs, inline constants and literals',
     ['gfx90a', 'gfx908', 'gfx940'], '''
''' + ''.join(f'v_mov_b32 v{r}, 7\n' for r in range(2, 17)) + '''
v_and_b32 v20, 3, v0
v_cmp_ne_u32 vcc, 0, v20
s_and_saveexec_b64 s[10:11], vcc
s_mov_b32 s12, 0x10000
v_add_u32 v2, s12, v0
v_sub_u32 v3, v0, 5
v_subrev_u32 v4, 3, v0
v_lshl_add_u32 v5, v0, 2, s12
s_mov_b32 s13, 0x12345
v_mul_lo_u32 v6, v0, s13
v_max_i32 v7, -4, v3
v_add_co_u32 v8, vcc, -1, v0
v_addc_co_u32 v9, vcc, 0, 0, vcc
v_cvt_f32_u32 v10, v0
v_fmac_f32 v10, 0.5, v10
v_cmp_gt_i32_e64 s[14:15], 10, v0
v_cndmask_b32_e64 v11, 5, 6, s[14:15]
v_lshlrev_b64 v[12:13], 3, v[2:3]
v_mov_b32 v15, 0x7f800000
v_sub_f32 v16, v15, v15
s_mov_b64 exec, s[10:11]
v_mov_b32 v14, s14
''' + st(range(2, 17)),
     lambda arch: [
        v for r in range(2, 17) for l in L for v in [fast_form(r, l)]]),
    ("VOP2/VOP3: the lane loops' other rows (unsigned and signed min and max, or, or3, "
     "the reversed borrows, a 64-bit arithmetic shift), each run by both tiers",
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_mov_b32 v20, 0x80000000
v_subrev_u32 v21, 32, v0
v_min_i32 v2, v21, 5
v_min_u32 v3, v21, 5
v_max_u32 v4, v21, 5
v_or_b32 v5, v0, v20
s_mov_b32 s12, 0x10000
v_or3_b32 v6, v0, 64, s12
v_subrev_co_u32 v7, vcc, 10, v0
v_subbrev_co_u32 v8, s[8:9], 0, 0, vcc
v_mov_b32 v9, s8
v_ashrrev_i64 v[10:11], 4, v[20:21]
''' + st(range(2, 12)),
     lambda arch: [min(l - 32, 5) & M for l in L] + [min((l - 32) & M, 5) for l in L] +
        [max((l - 32) & M, 5) for l in L] + [l | 0x80000000 for l in L] +
        [l | 64 | 0x10000 for l in L] + [(l - 10) & M for l in L] +
        [M if l < 10 else 0 for l in L] + [0x3ff] * 64 +
        [ashr64(l, 0) for l in L] + [ashr64(l, 1) for l in L]),
    ('VOP2: mac accumulates into its destination, unfused', ['gfx90a', 'gfx908'], '''
v_cvt_f32_u32 v2, v0
v_mov_b32 v3, 1.0
v_mac_f32 v3, v2, 0.5
v_mov_b32 v4, 0xbf801000
v_mov_b32 v5, 0x3f800800
v_mac_f32 v4, v5, v5
''' + st([3, 4]),
     # (1 + 2^-12)^2 rounds to 1 + 2^-11 before the add: 0, where a
     # fused multiply-add would keep 2^-24
     lambda arch: [f32(1 + 0.5 * l) for l in L] + [0] * 64),
    ('VOP2/VOP3: 64-bit add and subtract through the carry, mul_hi, u24, shifts',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_mul_u32_u24 v2, 0x1000001, v0
v_mov_b32 v3, -1
v_add_co_u32 v4, vcc, v3, v0
v_addc_co_u32 v5, vcc, 0, 0, vcc
v_sub_co_u32 v6, s[8:9], v0, 10
v_subb_co_u32 v7, s[8:9], 0, 0, s[8:9]
v_mul_hi_u32 v8, v3, v0
v_mul_hi_i32 v9, v3, v0
v_ashrrev_i32 v10, 1, v3
v_lshrrev_b32 v11, v0, v3
v_mul_lo_u32 v12, v0, v0
v_mad_u32_u24 v13, v0, 3, 7
''' + st(range(2, 14)),
     lambda arch: [(l * 1) & M for l in L] + [M] * 64 + [(l - 1) & M for l in L] +
        [1 if l >= 1 else 0 for l in L] + [(l - 10) & M for l in L] +
        [M if l < 10 else 0 for l in L] + [(M * l) >> 32 for l in L] +
        [M if l else 0 for l in L] + [M] * 64 + [M >> (l & 31) for l in L] +
        [l * l for l in L] + [3 * l + 7 for l in L]),
    ('VOP3: bfe, bfi, alignbit, perm, lshl_add, add3, min3/med3 signed', ['gfx90a', 'gfx908', 'gfx940'], '''
v_mov_b32 v20, 0x12345678
v_bfe_u32 v2, v20, v0, 4
v_bfe_i32 v3, v20, v0, 5
s_mov_b32 s26, 0xff00ff
v_bfi_b32 v4, s26, v20, v0
v_alignbit_b32 v5, v20, v0, v0
s_mov_b32 s26, 0x0c050804
v_perm_b32 v6, v20, v0, s26
v_lshl_add_u32 v7, v0, 3, 5
v_add3_u32 v8, v0, v0, -1
v_med3_i32 v9, v0, 10, -5
v_min3_i32 v10, v0, -3, 40
v_max3_u32 v11, v0, 20, 7
v_xad_u32 v12, v0, 5, 1
s_movk_i32 s26, 100
v_bcnt_u32_b32 v13, v0, s26
v_mbcnt_lo_u32_b32 v14, -1, 0
v_mbcnt_hi_u32_b32 v14, -1, v14
v_ffbh_u32 v15, v0
v_bfrev_b32 v16, v0
''' + st(range(2, 17)),
     lambda arch: [(0x12345678 >> (l & 31)) & 0xf for l in L] +
        [((v := (0x12345678 >> (l & 31)) & 0x1f) | (M ^ 0x1f if v & 0x10 else 0)) for l in L] +
        [(0xff00ff & 0x12345678) | (~0xff00ff & l & M) for l in L] +
        [((0x12345678 << 32 | l) >> (l & 31)) & M for l in L] +
        [perm(0x12345678, l, 0x0c050804) for l in L] + [(l << 3) + 5 for l in L] +
        [(2 * l - 1) & M for l in L] + [min(max(l, -5), 10) for l in L] +
        [(-3) & M] * 64 + [max(l, 20) for l in L] + [((l ^ 5) + 1) for l in L] +
        [bin(l).count('1') + 100 for l in L] + list(L) +
        [(31 - l.bit_length() + 1) if l else M for l in L] +
        [int(f'{l:032b}'[::-1], 2) for l in L]),
    ('VOPC: compares to VCC and SGPR pairs, cmpx to EXEC, class', ['gfx90a', 'gfx940'], '''
v_cmp_gt_u32 vcc, 40, v0
v_cndmask_b32 v2, 1, 2, vcc
v_cmp_lt_i32_e64 s[8:9], v0, 20
v_cndmask_b32_e64 v3, 3, 4, s[8:9]
v_cvt_f32_u32 v4, v0
v_cmp_neq_f32 vcc, 2.0, v4
v_cndmask_b32 v5, 0, 1, vcc
v_mov_b32 v6, s8
v_mov_b32 v7, s9
v_mov_b32 v8, 0x7fc00000
v_cmp_u_f32 s[10:11], v8, v4
v_cmp_nlt_f32 s[12:13], v4, v8
v_cmp_class_f32 s[14:15], v8, 2
v_mov_b32 v9, s10
v_add_u32 v9, s12, v9
v_add_u32 v9, s14, v9
v_cmpx_eq_u32 vcc, 0, v0
v_mov_b32 v10, 99
global_store_dword v1, v10, s[4:5] offset:2048
s_mov_b64 exec, -1
''' + st([2, 3, 5, 6, 7, 9]),
     lambda arch: [2 if l < 40 else 1 for l in L] + [4 if l < 20 else 3 for l in L] +
        [0 if l == 2 else 1 for l in L] + [(1 << 20) - 1] * 64 + [0] * 64 +
        [3 * M & M] * 64 + [0] * 64 + [0] * 64 + [99] + [0] * 63),
    ('VOP1/VOP3: readlane, writelane, readfirstlane with a partial EXEC', ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 1000, v0
v_readlane_b32 s8, v2, 17
v_writelane_b32 v3, s8, 33
v_cmp_lt_u32 vcc, 40, v0
s_and_saveexec_b64 s[10:11], vcc
v_readfirstlane_b32 s12, v2
s_mov_b64 exec, s[10:11]
v_mov_b32 v4, s12
''' + st([3, 4]),
     lambda arch: [1017 if l == 33 else 0 for l in L] + [1041] * 64),
    ('VOP3: abs, neg, omod and clamp on f32; f16 arithmetic clears the high half',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_cvt_f32_i32 v2, v0
v_subrev_f32 v2, 32.0, v2
v_add_f32_e64 v3, -|v2|, 1.0
v_mul_f32_e64 v4, v2, 0.5 mul:4
v_add_f32_e64 v5, v2, 0.5 clamp
v_fma_f32 v6, v2, v2, -v2 div:2
v_cvt_f16_f32 v7, v2
v_mov_b32 v8, -1
v_add_f16 v8, v7, 0.5
v_mul_f16 v9, v7, v7
v_max_f32 v10, v2, -v2
''' + st([3, 4, 5, 6, 8, 9, 10]),
     lambda arch: [f32(1.0 - abs(l - 32.0)) for l in L] + [f32((l - 32.0) * 2) for l in L] +
        [f32(min(max(l - 32.0 + 0.5, 0.0), 1.0)) for l in L] +
        [f32(((l - 32.0) ** 2 - (l - 32.0)) / 2) for l in L] +
        [f16(l - 32.0 + 0.5) for l in L] + [f16((l - 32.0) ** 2) for l in L] +
        [f32(abs(l - 32.0)) for l in L]),
    ('VALU: f32 to f16 rounds to nearest even, denormals kept', ['gfx90a', 'gfx940'], '''
v_cvt_f32_u32 v2, v0
s_mov_b32 s13, 0x32800000
v_mul_f32 v2, s13, v2
v_cvt_f16_f32 v3, v2
global_store_dword v1, v3, s[4:5]
''', lambda arch: [f16(lane * 2.0 ** -26) for lane in range(64)]),
    ('VALU: 64-bit shifts and mad_u64_u32 carry the high half', ['gfx90a', 'gfx940'], '''
v_mov_b32 v4, 0
v_mov_b32 v5, 0
s_mov_b32 s14, 0x10000001
v_mad_u64_u32 v[2:3], s[8:9], v0, s14, v[4:5]
v_lshrrev_b64 v[6:7], 4, v[2:3]
v_xor_b32 v8, v6, v3
global_store_dword v1, v8, s[4:5]
''', lambda arch: [((lane * 0x10000001 >> 4) & 0xffffffff) ^ (lane * 0x10000001 >> 32)
                   for lane in range(64)]),
    ('VALU: forms the examples use: u64 compares, ubyte conversions, exp, ldexp, '
     'rounding, mad/fmac, 16-bit adds and shifts', ['gfx90a', 'gfx908'], '''
s_mov_b32 s27, 0x4000001
v_mul_lo_u32 v2, v0, s27
v_mov_b32 v3, v0
v_mov_b32 v4, 32
v_mov_b32 v5, 0
v_cmp_gt_u64 vcc, v[2:3], v[4:5]
v_cndmask_b32 v6, 0, 1, vcc
v_cmp_ne_u64 s[8:9], v[2:3], v[4:5]
v_cndmask_b32 v6, v6, 2, s[8:9]
v_cvt_f32_ubyte0 v7, v2
v_cvt_f32_ubyte3 v8, v2
v_cvt_f32_i32 v9, v0
v_subrev_f32 v9, 32.0, v9
v_exp_f32 v10, v9
v_ldexp_f32 v11, v9, 3
v_mul_f32 v12, 0x3fc00000, v9
v_rndne_f32 v13, v12
v_trunc_f32 v14, v12
v_mad_f32 v15, v9, v9, 1.0
v_mov_b32 v16, 2.0
v_fmac_f32 v16, v9, v9
v_add_u16 v17, 0xfff0, v0
v_lshlrev_b16 v18, 12, v0
v_add_lshl_u32 v19, v0, 1, 2
s_movk_i32 s26, 0xff
v_and_or_b32 v20, v2, s26, v0
''' + st([6, 7, 8, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20]),
     lambda arch: [(2 if (l * 0x4000001 & M) | l << 32 != 32 else 0) for l in L] +
        [f32(float(l * 0x4000001 & 0xff)) for l in L] +
        [f32(float((l * 0x4000001 & M) >> 24)) for l in L] +
        [f32(2.0 ** (l - 32)) for l in L] + [f32((l - 32) * 8.0) for l in L] +
        [f32(float(round_even((l - 32) * 1.5))) for l in L] +
        [f32(float(int((l - 32) * 1.5))) for l in L] +
        [f32((l - 32.0) ** 2 + 1) for l in L] + [f32((l - 32.0) ** 2 + 2) for l in L] +
        [(l + 0xfff0) & 0xffff for l in L] + [(l << 12) & 0xffff for l in L] +
        [(l + 1) << 2 for l in L] + [((l * 0x4000001) & 0xff) | l for l in L]),
    ('VOP3 clamp on integer adds and subtracts saturates', ['gfx90a', 'gfx908', 'gfx940'], '''
v_lshlrev_b32 v2, 26, v0
v_add_u32_e64 v3, v2, v2 clamp
v_sub_u32_e64 v4, 0x20, v0 clamp
v_add_i32 v5, v2, v2 clamp
s_mov_b32 s26, 0x80000010
v_sub_i32 v6, s26, v0 clamp
v_lshlrev_b32 v7, 10, v0
v_add_u16_e64 v8, v7, v7 clamp
''' + st([3, 4, 5, 6, 8]),
     lambda arch: [min(2 * ((l << 26) & M), M) for l in L] + [max(0x20 - l, 0) for l in L] +
        [max(min(2 * sx32((l << 26) & M), 2**31 - 1), -2**31) & M for l in L] +
        [max(-2**31 + 0x10 - l, -2**31) & M for l in L] +
        [min(2 * ((l << 10) & 0xffff), 0xffff) for l in L]),
]


def round_even(x):
    return round(x)


def sx32(v):
    return v - (1 << 32) if v >> 31 else v


def _cvt(r, l):
    """What the conversions case leaves in v<r> of lane l (7 where off)."""
    if l % 4 == 0:
        return 7
    x = (l * 0x01020304) & M
    h = (l - 32) * 1.5
    return {3: f32(float(x & 0xff)), 4: f32(float((x >> 8) & 0xff)),
            5: f32(float((x >> 16) & 0xff)), 6: f32(float(x >> 24)),
            7: f32(float(l - 32)), 8: f32(float((0xfffffff0 + l) & M)),
            9: int(h) & M, 10: 0 if h <= 0 else int(h)}[r]


CASES += [
    ('VOP1: integer and byte conversions to f32 and back, under a partial EXEC',
     ['gfx90a', 'gfx908', 'gfx940'], '''
''' + ''.join(f'v_mov_b32 v{r}, 7\n' for r in range(3, 11)) + '''
s_mov_b32 s12, 0x1020304
v_mul_lo_u32 v2, v0, s12
v_subrev_u32 v11, 32, v0
v_add_u32 v12, -16, v0
v_cvt_f32_i32 v13, v11
v_mul_f32 v13, 1.5, v13
v_and_b32 v20, 3, v0
v_cmp_ne_u32 vcc, 0, v20
s_and_saveexec_b64 s[10:11], vcc
v_cvt_f32_ubyte0 v3, v2
v_cvt_f32_ubyte1 v4, v2
v_cvt_f32_ubyte2 v5, v2
v_cvt_f32_ubyte3 v6, v2
v_cvt_f32_i32 v7, v11
v_cvt_f32_u32 v8, v12
v_cvt_i32_f32 v9, v13
v_cvt_u32_f32 v10, v13
s_mov_b64 exec, s[10:11]
''' + st(range(3, 11)),
     lambda arch: [_cvt(r, l) for r in range(3, 11) for l in L]),
]
