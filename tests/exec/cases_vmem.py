# SPDX-License-Identifier: MIT
"""Vector memory: GLOBAL with and without an SGPR base, every width,
the signed and d16 loads; FLAT to global memory, to LDS and to private
memory through the apertures; SCRATCH; MUBUF with offen, idxen and a
stride, and MUBUF to private memory through a resource with ADD_TID."""
L = range(64)
M = 0xffffffff


def st(regs, base=0):
    return ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{base + 256 * i}\n'
                   for i, r in enumerate(regs))


# s_getreg of SH_MEM_BASES gives the apertures' top 16 bits: private in
# [15:0], shared in [31:16]
APERTURES = '''
s_getreg_b32 s30, hwreg(HW_REG_SH_MEM_BASES, 0, 16)
s_lshl_b32 s30, s30, 16
s_getreg_b32 s31, hwreg(HW_REG_SH_MEM_BASES, 16, 16)
s_lshl_b32 s31, s31, 16
'''

CASES = [
    ('GLOBAL: widths, signed and d16 loads, vaddr pairs and negative offsets',
     ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s26, 0x01010101
v_mul_lo_u32 v2, v0, s26
v_add_u32 v2, 0x80808080, v2
global_store_dword v1, v2, s[4:5] offset:2048
v_lshlrev_b32 v3, 3, v0
v_mov_b32 v4, v0
v_not_b32 v5, v0
global_store_dwordx2 v3, v[4:5], s[4:5] offset:2560
s_waitcnt vmcnt(0)
global_load_sbyte v6, v1, s[4:5] offset:2048
global_load_ushort v7, v1, s[4:5] offset:2050
v_mov_b32 v8, 0x55555555
global_load_short_d16_hi v8, v1, s[4:5] offset:2048
v_add_co_u32 v10, vcc, s4, v3
v_mov_b32 v11, s5
v_addc_co_u32 v11, vcc, v11, 0, vcc
global_load_dwordx2 v[12:13], v[10:11], off offset:2560
v_add_u32 v14, 0x1000, v1
global_load_dword v15, v14, s[4:5] offset:-2048
s_waitcnt vmcnt(0)
''' + st([6, 7, 8, 12, 13, 15]),
     lambda arch: [(((0x80 + l) & 0xff) ^ 0x80) - 0x80 & M for l in L] +
        [((0x80808080 + l * 0x01010101) >> 16) & 0xffff for l in L] +
        [0x5555 | ((0x80808080 + l * 0x01010101) & 0xffff) << 16 for l in L] +
        list(L) + [~l & M for l in L] + [(0x80808080 + l * 0x01010101) & M for l in L]),
    # four rows of 16 lanes, each row in a page of its own: the wave's
    # few-pages path, whose overlapping stores must end as lane after
    # lane's do (a lane's second dword is the next lane's first)
    ('GLOBAL: a wave over four pages, overlapping dwordx2 stores in lane order',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_lshrrev_b32 v2, 4, v0
v_lshlrev_b32 v2, 12, v2
v_and_b32 v3, 15, v0
v_lshlrev_b32 v3, 2, v3
v_add_u32 v2, v2, v3
v_add_u32 v2, 0x1000, v2
v_mov_b32 v4, v0
v_add_u32 v5, 100, v0
global_store_dwordx2 v2, v[4:5], s[4:5]
s_waitcnt vmcnt(0)
global_load_dwordx2 v[6:7], v2, s[4:5]
s_waitcnt vmcnt(0)
''' + st([6, 7]),
     lambda arch: list(L) + [l + 100 if l % 16 == 15 else l + 1 for l in L]),
    ('FLAT and SCRATCH: global, LDS and private apertures, per-lane private memory',
     ['gfx90a', 'gfx908', 'gfx940'], APERTURES + '''
v_add_u32 v2, 300, v0
v_mov_b32 v12, 32
v_mov_b32 v14, 0
v_mov_b32 v15, s31
flat_store_dword v[14:15], v2 offset:64
v_mov_b32 v17, s30
v_mov_b32 v16, 16
flat_store_dword v[16:17], v2
scratch_store_dword v12, v0, off
s_waitcnt vmcnt(0) lgkmcnt(0)
v_mov_b32 v7, 64
ds_read_b32 v8, v7
flat_load_dword v9, v[16:17]
v_mov_b32 v10, 32
scratch_load_dword v11, v10, off
s_waitcnt vmcnt(0) lgkmcnt(0)
''' + st([8, 9, 11]),
     lambda arch: [363] * 64 + [300 + l for l in L] + list(L)),
    ('MUBUF: offen, idxen with a stride, and private memory through ADD_TID',
     ['gfx90a', 'gfx908', 'gfx940'], '''
s_mov_b32 s8, s4
s_mov_b32 s9, s5
s_mov_b32 s10, -1
s_mov_b32 s11, 0
v_add_u32 v2, 700, v0
buffer_store_dword v2, v1, s[8:11], 0 offen offset:1024
s_or_b32 s9, s9, 0x80000
s_waitcnt vmcnt(0)
buffer_wbinvl1_vol
buffer_load_dword v3, v0, s[8:11], 0 idxen offset:1024
s_mov_b32 s12, 0
s_mov_b32 s13, 0
s_mov_b32 s14, -1
s_mov_b32 s15, 0x800000
s_mov_b32 s16, 8
buffer_store_dword v0, off, s[12:15], s16 offset:4
v_mov_b32 v4, 12
buffer_load_dword v5, v4, s[12:15], 0 offen
s_waitcnt vmcnt(0)
''' + st([3, 5]),
     lambda arch: [700 + 2 * l if l < 32 else 0 for l in L] + list(L)),
    # the third row's store covers the first half of the atomics' area
    ('GLOBAL and DS: dwordx4 loads and stores, b128 and u8 LDS reads, a 64-bit atomic add',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_lshlrev_b32 v2, 4, v0
v_mov_b32 v4, v0
v_add_u32 v5, 1, v0
v_add_u32 v6, 2, v0
v_add_u32 v7, 0x103, v0
global_store_dwordx4 v2, v[4:7], s[4:5] offset:1024
s_waitcnt vmcnt(0)
global_load_dwordx4 v[8:11], v2, s[4:5] offset:1024
s_waitcnt vmcnt(0)
ds_write_b128 v2, v[8:11]
s_waitcnt lgkmcnt(0)
ds_read_b128 v[12:15], v2
ds_read_u8 v16, v2 offset:12
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v17, 3, v0
v_mov_b32 v18, -1
v_mov_b32 v19, 0
global_atomic_add_x2 v17, v[18:19], s[4:5] offset:512
global_atomic_add_x2 v17, v[18:19], s[4:5] offset:512
s_waitcnt vmcnt(0)
''' + st([13, 15, 16]),
     lambda arch: [l + 1 for l in L] + [0x103 + l for l in L] + [(0x103 + l) & 0xff for l in L] +
        [0xfffffffe, 1] * 32 + [w for l in L for w in (l, l + 1, l + 2, 0x103 + l)]),
]
