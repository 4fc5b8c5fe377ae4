# SPDX-License-Identifier: MIT
"""SMEM: scalar loads by immediate, by SGPR offset, of several widths, and
the buffer loads through a resource's 48-bit base."""
from exec_host import store_sgprs, rows

# kernarg: [0] the output page 0x120000, [8] the fine page 0x130000
CASES = [
    ('SMEM: s_bfm_b64, an SGPR-offset s_load', ['gfx90a', 'gfx940'], '''
s_bfm_b64 s[8:9], 8, 4
s_mov_b32 s10, 8
s_load_dword s11, s[0:1], s10
s_waitcnt lgkmcnt(0)
s_xor_b32 s12, s8, s11
v_mov_b32 v2, s12
v_add_u32 v2, v2, v0
global_store_dword v1, v2, s[4:5]
''', lambda arch: [(0xff0 ^ 0x130000) + lane for lane in range(64)]),
    ('SMEM: dwordx2/x8 loads, a buffer load through a resource', ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 100, v0
global_store_dword v1, v2, s[4:5] offset:2048
s_waitcnt vmcnt(0)
s_load_dwordx2 s[8:9], s[0:1], 0x8
s_add_u32 s10, s4, 0x800
s_addc_u32 s11, s5, 0
s_load_dwordx8 s[16:23], s[10:11], 0x10
s_mov_b32 s12, s10
s_mov_b32 s13, s11
s_mov_b32 s14, -1
s_mov_b32 s15, 0
s_buffer_load_dwordx2 s[24:25], s[12:15], 0x20
s_waitcnt lgkmcnt(0)
''' + store_sgprs(['s8', 's9', 's16', 's23', 's24', 's25']),
        lambda arch: rows([0x130000, 0, 104, 111, 108, 109] + [0] * 2) +
        [100 + lane for lane in range(64)]),
]
