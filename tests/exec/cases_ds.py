# SPDX-License-Identifier: MIT
"""DS: LDS reads and writes of every width, the two-address forms, the
atomics with and without return, compare-store, and the lane exchanges
(permute, bpermute, swizzle)."""
L = range(64)
M = 0xffffffff


def st(regs):
    return ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))


def swz_bitmask(l, and_m, or_m, xor_m):
    return (l & ~31) | ((((l & 31) & and_m) | or_m) ^ xor_m)


# Lane l of wave w writes l + 64w + 1 to LDS byte 2l + w: the two waves
# share every dword, each on bytes of its own.
# One wave stores, the other loads what it stored, with no barrier.
_GLOBAL_RACE = '''
v_add_u32 v2, 1000, v0
global_store_dword v1, v2, s[4:5] offset:1024
s_waitcnt vmcnt(0)
v_xor_b32 v3, 0x100, v1
global_load_dword v4, v3, s[4:5] offset:1024
s_waitcnt vmcnt(0)
global_store_dword v1, v4, s[4:5]
'''

_BYTES = '''
v_and_b32 v5, 63, v0
v_lshlrev_b32 v5, 1, v5
v_lshrrev_b32 v6, 6, v0
v_add_u32 v5, v5, v6
v_add_u32 v2, 1, v0
ds_write_b8 v5, v2
s_waitcnt lgkmcnt(0)
'''


CASES = [
    ('DS: write/read of b8/b16/b64/b128, write2st64, read2_b64', ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 100, v0
ds_write_b32 v1, v2
v_add_u32 v3, 0x3e8, v0
ds_write_b32 v1, v3 offset:256
ds_read2_b32 v[4:5], v1 offset1:64
s_waitcnt lgkmcnt(0)
v_add_u32 v6, v4, v5
v_mov_b32 v7, 0xfedcba98
v_lshlrev_b32 v8, 4, v0
ds_write_b8 v0, v7 offset:1024
ds_read_i8 v9, v0 offset:1024
ds_write_b16 v1, v7 offset:2048
ds_read_u16 v10, v1 offset:2048
ds_read_i16 v11, v1 offset:2048
v_mov_b32 v12, v0
v_mov_b32 v13, 7
v_mov_b32 v14, 8
v_mov_b32 v15, 9
ds_write_b128 v8, v[12:15] offset:4096
ds_read_b64 v[16:17], v8 offset:4104
v_lshlrev_b32 v18, 3, v0
ds_write2st64_b32 v1, v2, v3 offset0:8 offset1:9
ds_read2_b64 v[20:23], v18 offset0:64 offset1:80
s_waitcnt lgkmcnt(0)
''' + st([6, 9, 10, 11, 16, 17]),
     lambda arch: [1100 + 2 * l for l in L] + [0xffffff98] * 64 + [0xba98] * 64 +
        [0xffffba98] * 64 + [8] * 64 + [9] * 64),
    ('DS: atomics, returning and not, 32 and 64 bits, compare-store', ['gfx90a', 'gfx908', 'gfx940'], '''
v_mov_b32 v2, 0
ds_write_b32 v2, v2
ds_write_b32 v2, v2 offset:4
ds_write_b32 v2, v2 offset:8
v_mov_b32 v3, 1
s_waitcnt lgkmcnt(0)
ds_add_rtn_u32 v4, v2, v3
ds_max_rtn_u32 v5, v2, v0 offset:4
ds_inc_u32 v2, v3 offset:8
s_waitcnt lgkmcnt(0)
v_mov_b32 v6, 0
ds_read_b32 v7, v6
ds_read_b32 v8, v6 offset:4
ds_read_b32 v9, v6 offset:8
v_add_u32 v10, 0x1000, v1
ds_write_b32 v10, v0
v_mov_b32 v11, 5
v_add_u32 v12, 500, v0
s_waitcnt lgkmcnt(0)
ds_cmpst_rtn_b32 v13, v10, v11, v12
s_waitcnt lgkmcnt(0)
ds_read_b32 v14, v10
s_waitcnt lgkmcnt(0)
''' + st([7, 8, 9, 13, 14]),
     lambda arch: [64] * 64 + [63] * 64 + [0] * 64 + list(L) +
        [505 if l == 5 else l for l in L]),
    ('DS: bpermute and permute by byte address, swizzle quad and bitmask modes',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 100, v0
v_sub_u32 v3, 63, v0
v_lshlrev_b32 v3, 2, v3
ds_bpermute_b32 v4, v3, v2
v_add_u32 v5, 4, v1
ds_permute_b32 v6, v5, v2
ds_swizzle_b32 v7, v2 offset:swizzle(QUAD_PERM, 3, 2, 1, 0)
ds_swizzle_b32 v8, v2 offset:swizzle(BITMASK_PERM, "01pi0")
ds_swizzle_b32 v9, v2 offset:swizzle(BROADCAST, 8, 5)
ds_swizzle_b32 v10, v2 offset:swizzle(SWAP, 16)
s_waitcnt lgkmcnt(0)
''' + st([4, 6, 7, 8, 9, 10]),
     lambda arch: [100 + 63 - l for l in L] + [100 + ((l - 1) & 63) for l in L] +
        [100 + (l & ~3) + 3 - (l & 3) for l in L] +
        [100 + swz_bitmask(l, 0b00110, 0b01000, 0b00010) for l in L] +
        [100 + (l & ~7) + 5 for l in L] + [100 + (l ^ 16) for l in L]),
    ('DS and SOPP: two waves meet at s_barrier; each reads what the other wrote',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 1000, v0
ds_write_b32 v1, v2
s_waitcnt lgkmcnt(0)
s_barrier
v_xor_b32 v3, 0x100, v1
ds_read_b32 v4, v3
s_waitcnt lgkmcnt(0)
global_store_dword v1, v4, s[4:5]
''', lambda arch: [1000 + (t ^ 64) for t in range(128)], {'items': 128, 'races': []}),
    ('DS race: no s_barrier between one wave\'s write and the other\'s read of it: '
     'the first wave reads zeros, and the race check names the pair',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 1000, v0
ds_write_b32 v1, v2
s_waitcnt lgkmcnt(0)
v_xor_b32 v3, 0x100, v1
ds_read_b32 v4, v3
s_waitcnt lgkmcnt(0)
global_store_dword v1, v4, s[4:5]
''', lambda arch: [0] * 64 + [1000 + (t ^ 64) for t in range(64, 128)],
     {'items': 128, 'races': ['w-r:lds']}),
    ('DS race: atomics of two waves on one LDS word, then a barrier: no race',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_mov_b32 v2, 1
v_mov_b32 v3, 0
ds_add_u32 v3, v2
s_waitcnt lgkmcnt(0)
s_barrier
ds_read_b32 v4, v3
s_waitcnt lgkmcnt(0)
global_store_dword v1, v4, s[4:5]
''', lambda arch: [128] * 128, {'items': 128, 'races': []}),
    ('DS bytes: two waves write and read back their own bytes of shared dwords, no '
     'barrier: a card writes LDS by the byte, so no race',
     ['gfx90a', 'gfx908', 'gfx940'], _BYTES + '''ds_read_u8 v4, v5
s_waitcnt lgkmcnt(0)
global_store_dword v1, v4, s[4:5]
''', lambda arch: [t + 1 for t in range(128)], {'items': 128, 'races': []}),
    ('DS bytes: each wave reads the other\'s byte of a shared dword with no barrier: '
     'a race, each way a write and a read of one byte',
     ['gfx90a', 'gfx908', 'gfx940'], _BYTES + '''v_xor_b32 v3, 1, v5
ds_read_u8 v4, v3
s_waitcnt lgkmcnt(0)
global_store_dword v1, v4, s[4:5]
''', lambda arch: [0] * 64 + [l + 1 for l in range(64)], {'items': 128, 'races': ['w-r:lds']}),
    ('race in global memory: one wave stores, the other loads it with no barrier',
     ['gfx90a', 'gfx908', 'gfx940'], _GLOBAL_RACE, lambda arch: [0] * 64 + [1000 + (t ^ 64) for t in range(64, 128)],
     {'items': 128, 'races': ['w-r:global']}),
    ('races across dispatches: the next dispatch\'s wave writes the global and LDS dwords '
     'the last one\'s other wave wrote; a kernel\'s end orders them, so no race',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 1, v0
global_store_dword v1, v2, s[4:5]
s_and_b32 s8, s4, 0xff
v_add_u32 v6, s8, v1
ds_write_b32 v6, v2
''', lambda arch: [1] + list(range(1, 129)), {'items': 128, 'races': [], 'repeat': 2}),
    ('races across dispatches: the global race, in the second of two dispatches',
     ['gfx90a', 'gfx908', 'gfx940'], _GLOBAL_RACE,
     lambda arch: [0] + [0 if t == 63 else 1001 + (t ^ 64) for t in range(64)] +
        [1000 + (t ^ 64) for t in range(64, 128)],
     {'items': 128, 'races': ['w-r:global'], 'repeat': 2}),
    ('DS: AccVGPRs as data and destination (gfx90a and later)', ['gfx90a', 'gfx940'], '''
v_add_u32 v2, 321, v0
v_accvgpr_write_b32 a2, v2
v_mov_b32 v2, 0
ds_write_b32 v1, a2
s_waitcnt lgkmcnt(0)
ds_read_b32 a3, v1
s_waitcnt lgkmcnt(0)
v_accvgpr_read_b32 v4, a3
global_store_dword v1, v4, s[4:5]
''', lambda arch: [321 + l for l in L]),
]


def _fast(r, l):
    """What the partial-EXEC case leaves in v<r> of lane l: 7 where the
    lane was off, 0 where the lane it read from (l ^ 1) wrote nothing."""
    if l % 4 == 0:
        return 7
    o = l ^ 1
    if o % 4 == 0:
        return 0
    return {6: o + 100, 7: o + 200, 8: o + 300, 9: o + 400, 10: o + 100, 11: o + 200,
            12: o + 300, 14: o + 100, 15: o + 400, 16: o + 100, 17: o + 200}[r]


_FAST = [6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17]


CASES += [
    ('DS: the reads and writes run as lane loops, under a partial EXEC, '
     'a destination over its own address', ['gfx90a', 'gfx908', 'gfx940'], '''
''' + ''.join(f'v_mov_b32 v{r}, 7\n' for r in _FAST) + '''
v_and_b32 v20, 3, v0
v_cmp_ne_u32 vcc, 0, v20
s_and_saveexec_b64 s[10:11], vcc
v_lshlrev_b32 v21, 4, v0
v_add_u32 v2, 100, v0
v_add_u32 v3, 200, v0
v_add_u32 v4, 300, v0
v_add_u32 v5, 400, v0
ds_write2_b64 v21, v[2:3], v[4:5] offset1:128
ds_write_b96 v21, v[2:4] offset:2048
ds_write2st64_b32 v1, v2, v5 offset0:16 offset1:17
s_waitcnt lgkmcnt(0)
v_xor_b32 v22, 1, v0
v_lshlrev_b32 v23, 4, v22
v_lshlrev_b32 v24, 2, v22
ds_read2_b64 v[6:9], v23 offset1:128
ds_read_b96 v[10:12], v23 offset:2048
ds_read2st64_b32 v[14:15], v24 offset0:16 offset1:17
v_mov_b32 v16, v23
ds_read2_b32 v[16:17], v16 offset1:1
s_waitcnt lgkmcnt(0)
s_mov_b64 exec, s[10:11]
''' + st(_FAST),
     lambda arch: [_fast(r, l) for r in _FAST for l in L]),
    ('DS: a read one lane of which leaves the group\'s LDS stops the dispatch there',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_cmp_eq_u32 vcc, 37, v0
v_mov_b32 v3, 0x10000
v_cndmask_b32 v2, 0, v3, vcc
ds_read2_b32 v[4:5], v2 offset1:1
s_waitcnt lgkmcnt(0)
''' + st([4]),
     lambda arch: [0] * 64, {'fault': True}),
    # A runtime's packet says the group's whole LDS, the kernel's static
    # bytes included: 47,200 static bytes (gfx90a has 64 KiB) run, their
    # last dword used by lane 63.
    ('DS: 47,200 bytes of static LDS, as the descriptor and the packet say them, run',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_add_u32 v2, 0xb760, v1
v_add_u32 v3, 5, v0
ds_write_b32 v2, v3
s_waitcnt lgkmcnt(0)
ds_read_b32 v4, v2
s_waitcnt lgkmcnt(0)
''' + st([4]),
     lambda arch: [5 + l for l in L], {'lds': (47200, 47200)}),
    ('DS: a launch that asks for more LDS than a work-group has is refused in those words',
     ['gfx90a', 'gfx908', 'gfx940'], '''
v_mov_b32 v2, 1
''' + st([2]),
     lambda arch: [0] * 64, {'lds': (47200, 67200),
                             'too_large': '67200 bytes of LDS, over 65536'}),
]


# One lane of the second wave writes the dword at byte W; then both waves
# read a row of 16 dwords (rows 0 and 1, the same address row at two
# offsets: the race check's gathered path, the row's shape kept), with no
# barrier.  The first wave ran first, so it read zeros.
def _lds_row(w):
    return f'''
v_cmp_eq_u32 vcc, 64, v0
s_and_saveexec_b64 s[10:11], vcc
v_add_u32 v2, 1000, v0
v_mov_b32 v6, {w}
ds_write_b32 v6, v2
s_waitcnt lgkmcnt(0)
s_mov_b64 exec, s[10:11]
v_and_b32 v3, 15, v0
v_lshlrev_b32 v3, 2, v3
ds_read_b32 v4, v3
ds_read_b32 v5, v3 offset:64
s_waitcnt lgkmcnt(0)
global_store_dword v1, v5, s[4:5]
'''


# The same in global memory: one lane of the second wave stores the dword
# at byte W past 2048 of the output page; then each wave loads 16 dwords
# from the start of each of four 256-byte runs there (the race check's
# gathered path over several runs).
def _global_runs(w):
    return f'''
v_cmp_eq_u32 vcc, 64, v0
s_and_saveexec_b64 s[10:11], vcc
v_add_u32 v2, 1000, v0
v_mov_b32 v6, {w}
global_store_dword v6, v2, s[4:5] offset:2048
s_waitcnt vmcnt(0)
s_mov_b64 exec, s[10:11]
v_lshrrev_b32 v3, 4, v0
v_and_b32 v3, 3, v3
v_lshlrev_b32 v3, 8, v3
v_and_b32 v7, 15, v0
v_lshlrev_b32 v7, 2, v7
v_add_u32 v3, v3, v7
global_load_dword v4, v3, s[4:5] offset:2048
s_waitcnt vmcnt(0)
global_store_dword v1, v4, s[4:5]
'''


CASES += [
    ('race in a gathered LDS row: the other wave wrote the first dword of the second '
     'row the reads took, at the row\'s kept shape and a new offset',
     ['gfx90a', 'gfx908', 'gfx940'], _lds_row(64),
     lambda arch: [0] * 64 + [1064 if t % 16 == 0 else 0 for t in range(64)],
     {'items': 128, 'races': ['w-r:lds']}),
    ('no race in a gathered LDS row: the other wave wrote the dword just past the rows '
     'the reads took', ['gfx90a', 'gfx908', 'gfx940'], _lds_row(128),
     lambda arch: [0] * 128, {'items': 128, 'races': []}),
    ('race in gathered global runs: the other wave stored the first dword of the last '
     'of the four runs the loads took', ['gfx90a', 'gfx908', 'gfx940'], _global_runs(768),
     lambda arch: [0] * 64 + [1064 if t == 48 else 0 for t in range(64)],
     {'items': 128, 'races': ['w-r:global']}),
    ('no race in gathered global runs: the other wave stored a dword of the last run '
     'just past the ones the loads took', ['gfx90a', 'gfx908', 'gfx940'], _global_runs(832),
     lambda arch: [0] * 128, {'items': 128, 'races': []}),
]
