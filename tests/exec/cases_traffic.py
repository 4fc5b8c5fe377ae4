# SPDX-License-Identifier: MIT
"""Traffic: the bytes each region of memory gave and took, as
`hipgrain report --inventory` shows them per allocation.  Vector and
scalar loads, stores (one crossing a page) and atomics count in the
buffer they reach, the kernel's arguments not at all, LDS and private
memory never; an atomic the product's memory made do nothing only read.
Memory in no buffer object counts by run of touched pages: a run that
grows until it meets another becomes one row, and runs apart stay
apart."""
from exec_host import f32

OUT, FINE, PAGEABLE = 0x120000, 0x130000, 0x140000

PAGEABLE_BASE = '''
s_add_u32 s10, s6, 0x10000
s_addc_u32 s11, s7, 0
v_lshlrev_b32 v2, 8, v0
global_store_dword v2, v0, s[10:11]
v_add_u32 v3, 0x8000, v1
global_store_dword v3, v0, s[10:11]
'''

PAGEABLE_READ = '''
s_waitcnt vmcnt(0)
global_load_dword v5, v3, s[10:11]
s_waitcnt vmcnt(0)
global_store_dword v1, v5, s[4:5]
'''

BRIDGE_LATE = '''
s_add_u32 s10, s6, 0x10000
s_addc_u32 s11, s7, 0
v_add_u32 v2, 0x2000, v1
v_add_u32 v3, 0x1000, v1
global_store_dword v1, v0, s[10:11]
global_store_dword v2, v0, s[10:11]
s_add_u32 s12, s10, 0x42000
s_addc_u32 s13, s11, 0
global_store_dword v1, v0, s[12:13]
global_store_dword v3, v0, s[10:11]
'''

# The end of one named block and the start of the next, in adjoining
# pages: two rows, where memory nobody names would make one run.
TWO_BLOCKS = '''
s_add_u32 s10, s6, 0x7ff00
s_addc_u32 s11, s7, 0
global_store_dword v1, v0, s[10:11]
s_add_u32 s10, s6, 0x80010
s_addc_u32 s11, s7, 0
global_store_dword v1, v0, s[10:11]
'''

CASES = [
    ('traffic: loads, stores and a scalar load by buffer; the arguments not counted',
     ['gfx90a', 'gfx908', 'gfx940'], '''
global_load_dword v2, v1, s[6:7]
s_load_dwordx2 s[8:9], s[6:7], 0x100
s_waitcnt vmcnt(0) lgkmcnt(0)
global_store_dword v1, v2, s[4:5]
v_mov_b32 v3, s8
global_store_dword v1, v3, s[4:5] offset:256
global_load_dwordx2 v[4:5], v1, s[4:5] offset:4092
s_waitcnt vmcnt(0)
''', lambda arch: [f32(1.0)] * 128,
     {'traffic': lambda arch: [(OUT, OUT, OUT + 0x10ff, 512, 512),
                               (FINE, FINE, FINE + 0x107, 264, 0)]}),
    ('traffic: an atomic reads and writes; one that did nothing only reads',
     ['gfx90a', 'gfx940'], '''
v_mov_b32 v2, 1.0
global_atomic_add_f32 v1, v2, s[6:7]
v_mov_b32 v3, 1
global_atomic_add v1, v3, s[4:5]
s_waitcnt vmcnt(0)
''', lambda arch: [1] * 64,
     {'drops': lambda arch: 64 if arch == 'gfx90a' else 0,
      'traffic': lambda arch: [(OUT, OUT, OUT + 0xff, 256, 256),
                               (FINE, FINE, FINE + 0xff, 256,
                                0 if arch == 'gfx90a' else 256)]}),
    ('traffic: LDS and private memory are not counted',
     ['gfx90a', 'gfx908'], '''
ds_write_b32 v1, v0
scratch_store_dword v1, v0, off
s_waitcnt vmcnt(0) lgkmcnt(0)
global_store_dword v1, v0, s[4:5]
''', lambda arch: list(range(64)),
     {'traffic': lambda arch: [(OUT, OUT, OUT + 0xff, 0, 256)]}),
    ('traffic: pageable runs apart stay two rows',
     ['gfx90a'], PAGEABLE_BASE + PAGEABLE_READ, lambda arch: list(range(64)),
     {'traffic': lambda arch: [(0, PAGEABLE, PAGEABLE + 0x3f03, 0, 256),
                               (0, PAGEABLE + 0x8000, PAGEABLE + 0x80ff, 256, 256),
                               (OUT, OUT, OUT + 0xff, 0, 256)]}),
    ('traffic: a pageable run that meets another becomes one row',
     ['gfx90a'], PAGEABLE_BASE + '''
v_add_u32 v4, 0x4000, v2
global_store_dword v4, v0, s[10:11]
''' + PAGEABLE_READ, lambda arch: list(range(64)),
     {'traffic': lambda arch: [(0, PAGEABLE, PAGEABLE + 0x80ff, 256, 768),
                               (OUT, OUT, OUT + 0xff, 0, 256)]}),
    # Pages 64 apart share a translation slot: the third store pushes the
    # second's count out early, so the bridge comes last and must join two
    # runs already apart.
    ('traffic: a page that bridges two runs already counted joins them',
     ['gfx90a'], BRIDGE_LATE, lambda arch: [],
     {'traffic': lambda arch: [(0, PAGEABLE, PAGEABLE + 0x20ff, 0, 768),
                               (0, PAGEABLE + 0x42000, PAGEABLE + 0x420ff, 0, 256)]}),
    ('traffic: adjoining pages of two named blocks stay apart',
     ['gfx90a'], TWO_BLOCKS, lambda arch: [],
     {'traffic': lambda arch: [(0x1a0010, 0x1aff00, 0x1affff, 0, 256),
                               (0x1b0010, 0x1b0010, 0x1b010f, 0, 256)]}),
]
