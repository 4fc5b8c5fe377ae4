# SPDX-License-Identifier: MIT
"""A wave's plain dword loads and stores taken whole (vgpu/exec/vx_vrun.c)
and at its edges the lanes' way: lanes side by side in memory and in
EXEC (one copy), side by side in memory only, apart in one page; a partial
EXEC; a run crossing a page, and one crossing from a named block into
memory no block names; a page the L2 model holds, taken lane by lane,
whose line takes the GPU's own stores.  The values, the bytes each region
gave and took, and the stale rows must be what the lanes one by one give
(the general frame runs each case too)."""
from exec_host import f32

OUT, FINE = 0x120000, 0x130000
M = 0xffffffff

PARTIAL = '''
v_mov_b32 v2, -1
v_mov_b32 v5, 7
global_store_dword v1, v2, s[4:5]
global_store_dword v1, v2, s[4:5] offset:256
global_store_dword v1, v2, s[4:5] offset:512
s_mov_b64 s[12:13], exec
v_cmp_le_u32 s[8:9], 8, v0
v_cmp_gt_u32 s[10:11], 40, v0
s_and_b64 exec, s[8:9], s[10:11]
global_store_dword v1, v0, s[4:5]
s_mov_b64 exec, s[12:13]
v_and_b32 v3, 1, v0
v_cmp_eq_u32 vcc, 0, v3
s_mov_b64 exec, vcc
v_lshlrev_b32 v4, 1, v0
global_store_dword v4, v0, s[4:5] offset:256
s_not_b64 exec, vcc
global_store_dword v1, v0, s[4:5] offset:512
s_waitcnt vmcnt(0)
s_and_b64 exec, s[8:9], s[10:11]
global_load_dword v5, v1, s[4:5] offset:512
s_waitcnt vmcnt(0)
s_mov_b64 exec, s[12:13]
global_store_dword v1, v5, s[4:5] offset:768
'''

CROSS_PAGE = '''
v_add_u32 v2, 0xf80, v1
global_store_dword v2, v0, s[4:5]
s_waitcnt vmcnt(0)
global_load_dword v3, v2, s[4:5]
s_waitcnt vmcnt(0)
global_store_dword v1, v3, s[4:5]
'''

# The block from FINE + 0x70010 ends 16 bytes before its page does: a run
# across that page's end leaves the block, and the next page, first
# reached at its start, is in no block.
CROSS_BLOCK = '''
s_add_u32 s10, s6, 0x7ff80
s_addc_u32 s11, s7, 0
global_store_dword v1, v0, s[10:11]
s_waitcnt vmcnt(0)
global_load_dword v3, v1, s[10:11] offset:128
s_waitcnt vmcnt(0)
global_store_dword v1, v3, s[4:5]
'''

# gfx942's system-scope store reaches the line the L2 holds on its way to
# memory (only loads read past it): the next plain load is served from the
# line and reads the store, no stale row.
STALE = '''
global_load_dword v2, v1, s[6:7]
s_waitcnt vmcnt(0)
global_store_dword v1, v0, s[6:7] sc0 sc1
s_waitcnt vmcnt(0)
global_load_dword v3, v1, s[6:7]
s_waitcnt vmcnt(0)
global_store_dword v1, v2, s[4:5]
global_store_dword v1, v3, s[4:5] offset:256
'''

# A store to held memory stays among the L2's dirty lines (vx_wback.c):
# the GPU's own later loads see it, through the line or, gfx942's sc0
# sc1, past it; the kernel's end writes it back (the page's bytes after).
OWN = '''
global_store_dword v1, v0, s[6:7]
s_waitcnt vmcnt(0)
global_load_dword v2, v1, s[6:7]
global_load_dword v3, v1, s[6:7] %s
s_waitcnt vmcnt(0)
global_store_dword v1, v2, s[4:5]
global_store_dword v1, v3, s[4:5] offset:256
'''

# A store to held memory, then a spin that never ends (a kernel waiting
# for an answer to what it published): stopped at its budget, the store
# is still among the L2's dirty lines, a row naming the bytes, unless a
# release wrote it back first.  A second store of some lanes only, from
# another instruction, is a row of its own.
PUBLISH = '''
global_store_dword v1, v0, s[4:5]
global_store_dword v1, v0, s[6:7]
%s
s_mov_b64 s[12:13], exec
v_cmp_le_u32 s[8:9], 8, v0
v_cmp_gt_u32 s[10:11], 40, v0
s_and_b64 exec, s[8:9], s[10:11]
global_store_dword v1, v0, s[6:7] offset:512
s_mov_b64 exec, s[12:13]
%s
s_waitcnt vmcnt(0)
.Lspin:
s_branch .Lspin
'''
RELEASE = {'gfx90a': 'buffer_wbl2', 'gfx940': 'buffer_wbl2 sc1'}
HELD = 'pinned-host,coarse'
BOTH = [(FINE, FINE + 0xff, 256), (FINE + 0x220, FINE + 0x29f, 128)]


def partial(arch):
    first = [i if 8 <= i < 40 else M for i in range(64)]
    even = [2 * j if j < 32 else M for j in range(64)]
    odd = [i if i % 2 else M for i in range(64)]
    loaded = [odd[i] if 8 <= i < 40 else 7 for i in range(64)]
    return first + even + odd + loaded


CASES = [
    ('wave: the GPU\'s own store to held memory, seen before its write-back',
     ['gfx90a'], OWN % 'glc', lambda arch: list(range(64)) * 2,
     {'kind': HELD, 'stales': [], 'unwritten': []}),
    ('wave: the GPU\'s own store to held memory, seen by a load past the L2',
     ['gfx940'], OWN % 'sc0 sc1', lambda arch: list(range(64)) * 2,
     {'kind': HELD, 'stales': [], 'unwritten': []}),
    ('wave: stopped at its budget, its stores to held memory still in the L2',
     ['gfx908', 'gfx90a', 'gfx940'], PUBLISH % ('', ''), lambda arch: list(range(64)),
     {'kind': HELD, 'budget': 1000, 'unwritten': BOTH}),
    ('wave: stopped at its budget, the first store written back by a release',
     ['gfx90a', 'gfx940'], lambda arch: PUBLISH % (RELEASE[arch], ''),
     lambda arch: list(range(64)), {'kind': HELD, 'budget': 1000, 'unwritten': BOTH[1:]}),
    ('wave: stopped at its budget, every store written back by a release',
     ['gfx90a', 'gfx940'], lambda arch: PUBLISH % ('', RELEASE[arch]),
     lambda arch: list(range(64)), {'kind': HELD, 'budget': 1000, 'unwritten': []}),
    ('wave: partial EXEC, side by side in EXEC or in memory only, or apart',
     ['gfx90a', 'gfx940'], PARTIAL, partial,
     {'traffic': lambda arch: [(OUT, OUT, OUT + 0x3ff, 128, 1408)]}),
    ('wave: a run crossing a page',
     ['gfx90a'], CROSS_PAGE, lambda arch: list(range(64)),
     {'traffic': lambda arch: [(OUT, OUT, OUT + 0x107f, 256, 512)]}),
    ('wave: a run crossing from a named block into memory no block names',
     ['gfx90a'], CROSS_BLOCK, lambda arch: [32 + i if i < 32 else 0 for i in range(64)],
     {'traffic': lambda arch: [(0x1a0010, 0x1aff80, 0x1affff, 0, 128),
                               (0, 0x1b0000, 0x1b00ff, 256, 128),
                               (OUT, OUT, OUT + 0xff, 0, 256)]}),
    ('wave: a held line of coarse-grained host memory takes the GPU\'s own system-scope store',
     ['gfx940'], STALE, lambda arch: [f32(1.0)] * 64 + list(range(64)),
     {'kind': 'pinned-host,coarse', 'stales': [],
      'traffic': lambda arch: [(OUT, OUT, OUT + 0x1ff, 0, 512),
                               (FINE, FINE, FINE + 0xff, 512, 256)]}),
]
