# SPDX-License-Identifier: MIT
"""SALU: SOP1, SOP2, SOPK, SOPC and SOPP, each scalar result stored across
the wave."""
from exec_host import store_sgprs, rows

A, B = 0xfffffff0, 0x00000025


def add64():
    s = (0x1_fffffff0 + 0x0_00000025) & (1 << 64) - 1
    return [s & 0xffffffff, s >> 32]


CASES = [
    ('SOP2: add/addc carry, sub/subb borrow, 32-bit arithmetic', ['gfx90a', 'gfx908', 'gfx940'], f'''
s_mov_b32 s8, {A:#x}
s_mov_b32 s9, 1
s_add_u32 s10, s8, {B:#x}
s_addc_u32 s11, s9, 0
s_sub_u32 s12, 5, 7
s_subb_u32 s13, 0, 0
s_mul_i32 s14, s8, -3
s_min_i32 s15, s8, 3
s_max_u32 s16, s8, 3
s_absdiff_i32 s17, 3, -9
s_lshl1_add_u32 s18, s9, 7
s_lshl4_add_u32 s19, s9, 7
s_pack_lh_b32_b16 s20, s8, s9
s_pack_hh_b32_b16 s21, s8, 0x12345678
''' + store_sgprs([f's{i}' for i in range(10, 22)]), lambda arch: rows(
        add64() + [0xfffffffe, 0xffffffff, (A * -3), A, A, 12, 9, 23,
                   0xfff0 | 0x0000 << 16, 0xffff | 0x1234 << 16])),
    ('SOP2: 64-bit shifts, bfe, bfm, logic with SCC', ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s8, 0x80000001
s_mov_b32 s9, 0
s_lshl_b64 s[10:11], s[8:9], 33
s_lshr_b64 s[12:13], s[10:11], 1
s_mov_b32 s24, 0
s_brev_b32 s25, 1
s_ashr_i64 s[14:15], s[24:25], 4
s_mov_b32 s26, 0x80004
s_bfe_u32 s16, 0x12345678, s26
s_mov_b32 s26, 0x40004
s_bfe_i32 s17, 0xf0, s26
s_bfe_u64 s[18:19], s[10:11], 0x100020
s_andn2_b32 s20, 0xff, 0x0f
s_nor_b32 s21, 0, 0
s_cselect_b32 s22, 1, 2
s_and_b32 s23, 0, 1
s_cselect_b32 s23, 1, 2
''' + store_sgprs([f's{i}' for i in range(10, 24)]), lambda arch: rows(
        [0, 2, 0, 1, 0, 0xf8000000, 0x67, 0xffffffff, 2, 0, 0xf0, 0xffffffff, 1, 2])),
    ('SOP1: bit scans and counts, brev, sext, quadmask, abs', ['gfx90a', 'gfx940'], '''
s_mov_b32 s8, 0x00f00100
s_ff1_i32_b32 s10, s8
s_flbit_i32_b32 s11, s8
s_flbit_i32 s12, -16
s_bcnt1_i32_b32 s13, s8
s_bcnt0_i32_b32 s14, s8
s_brev_b32 s15, 1
s_sext_i32_i8 s16, 0x80
s_sext_i32_i16 s17, 0x8001
s_quadmask_b32 s18, 0x00f00100
s_abs_i32 s19, 0x80000000
s_abs_i32 s20, -7
s_ff1_i32_b32 s21, 0
s_not_b32 s22, 0x0f0f0f0f
s_bitset1_b32 s23, 5
''' + store_sgprs([f's{i}' for i in range(10, 24)]), lambda arch: rows(
        [8, 8, 28, 5, 27, 0x80000000, 0xffffff80, 0xffff8001, 0x24, 0x80000000, 7,
         0xffffffff, 0xf0f0f0f0, 0x20])),
    ('SOPK and SOPC: movk, addk overflow, cmpk, bitcmp, setvskip-free compares', ['gfx90a', 'gfx940'], '''
s_movk_i32 s10, 0x8000
s_mov_b32 s11, 0x7fffffff
s_addk_i32 s11, 1
s_cselect_b32 s12, 1, 0
s_mulk_i32 s10, -2
s_cmpk_lt_u32 s10, 5
s_cselect_b32 s13, 7, 8
s_bitcmp1_b32 s11, 31
s_cselect_b32 s14, 3, 4
s_cmp_lg_u64 s[10:11], 0
s_cselect_b32 s15, 5, 6
s_cmovk_i32 s16, 9
''' + store_sgprs([f's{i}' for i in range(10, 17)]), lambda arch: rows(
        [0x10000, 0x80000000, 1, 8, 3, 5, 9])),
    ('SOPP: a counted loop with s_cbranch_scc1, and exec-masked stores', ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s10, 0
s_mov_b32 s11, 0
loop:
s_add_u32 s10, s10, s11
s_add_u32 s11, s11, 1
s_cmp_lt_u32 s11, 10
s_cbranch_scc1 loop
v_cmp_gt_u32 vcc, 5, v0
s_and_saveexec_b64 s[12:13], vcc
v_mov_b32 v2, s10
global_store_dword v1, v2, s[4:5]
s_or_b64 exec, exec, s[12:13]
s_cbranch_execz skip
v_mov_b32 v3, s12
global_store_dword v1, v3, s[4:5] offset:256
skip:
''', lambda arch: [45 if lane < 5 else 0 for lane in range(64)] + [0xffffffff] * 64),
    ('SOP1: setpc/getpc, swappc return to the next instruction', ['gfx90a', 'gfx940'], '''
s_getpc_b64 s[8:9]
s_add_u32 s8, s8, 16
s_addc_u32 s9, s9, 0
s_swappc_b64 s[10:11], s[8:9]
s_branch done
s_mov_b32 s12, 0x77
s_setpc_b64 s[10:11]
done:
''' + store_sgprs(['s12']), lambda arch: rows([0x77])),
    ('SOPP: s_sendmsg(MSG_INTERRUPT) with nobody to answer stops, not hangs', ['gfx90a', 'gfx940'], '''
v_mov_b32 v2, 5
global_store_dword v1, v2, s[4:5]
s_mov_b32 m0, 7
s_sendmsg sendmsg(MSG_INTERRUPT)
v_mov_b32 v2, 6
global_store_dword v1, v2, s[4:5]
''', lambda arch: rows([5]), {'lacks': 's_sendmsg(MSG_INTERRUPT)'}),
    ('SOPK: getreg reads the descriptor float mode, setreg changes it', ['gfx90a', 'gfx940'], '''
s_getreg_b32 s10, hwreg(HW_REG_MODE, 0, 10)
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x5
s_getreg_b32 s11, hwreg(HW_REG_MODE, 4, 4)
''' + store_sgprs(['s10', 's11']), lambda arch: rows([0xf0, 5])),
    ('SALU: forms the examples use: mul_hi, cselect_b64, cmpk, bfm, a dwordx16 load',
     ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s8, 0x80000001
s_mul_hi_u32 s10, s8, 6
s_cmpk_eq_i32 s8, 0x1
s_cselect_b64 s[12:13], -1, 0
s_cmpk_gt_u32 s8, 0x10
s_cselect_b64 s[14:15], 3, 4
s_bfm_b32 s16, 5, 3
s_load_dwordx16 s[32:47], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
''' + store_sgprs(['s10', 's12', 's13', 's14', 's15', 's16', 's32', 's34', 's35']),
     lambda arch: rows([3, 0, 0, 3, 0, 0xf8, 0x120000, 0x130000, 0])),
]
