# SPDX-License-Identifier: MIT
"""Memory semantics of atomics, by AMD's tables: a hardware FP atomic and an
integer min or sub on fine-grained host memory do nothing on gfx90a over
PCIe and land on gfx940 (MI300, as LLVM 15 names it); a returning one that
did nothing gives 0; on coarse-grained memory they land everywhere."""
from exec_host import f32, f64

CASES = [
    ('atomics: FP add and integer min on fine host memory', ['gfx90a', 'gfx940'], '''
v_mov_b32 v2, 1.0
global_atomic_add_f32 v1, v2, s[6:7]
global_atomic_add_f32 v1, v2, s[4:5]
v_mov_b32 v3, 0
global_atomic_umin v1, v3, s[6:7] offset:256
s_waitcnt vmcnt(0)
global_load_dword v4, v1, s[6:7]
global_load_dword v5, v1, s[6:7] offset:256
s_waitcnt vmcnt(0)
global_store_dword v1, v4, s[4:5] offset:256
global_store_dword v1, v5, s[4:5] offset:512
''', lambda arch: [f32(1.0)] * 64 + [f32(1.0 if arch == 'gfx90a' else 2.0)] * 64 +
        [f32(1.0) if arch == 'gfx90a' else 0] * 64,
     {'drops': lambda arch: 64 if arch == 'gfx90a' else 0}),
    ('atomics: returning forms, 64-bit compare-swap, inc wrap, on coarse memory',
     ['gfx90a', 'gfx908'], '''
v_mov_b32 v2, 5
global_store_dword v1, v2, s[4:5]
s_waitcnt vmcnt(0)
v_mov_b32 v3, 3
global_atomic_add v4, v1, v3, s[4:5] glc
v_mov_b32 v5, 7
global_atomic_inc v6, v1, v5, s[4:5] glc
s_waitcnt vmcnt(0)
v_lshlrev_b32 v9, 3, v0
v_mov_b32 v10, 0
v_mov_b32 v11, 0
v_mov_b32 v12, 0x11
v_mov_b32 v13, 0x22
global_atomic_cmpswap_x2 v[14:15], v9, v[12:15], s[4:5] offset:1024 glc
s_waitcnt vmcnt(0)
global_store_dword v1, v4, s[4:5] offset:256
global_store_dword v1, v6, s[4:5] offset:512
''', lambda arch: [0] * 64 + [5] * 64 + [8] * 64 + [0] * 64 + [0x11, 0x22] * 64),
    ('atomics: f64 add (sc1) through a v_lshl_add_u64 address lands on fine host memory',
     ['gfx940'], '''
v_lshlrev_b32 v9, 3, v0
v_mov_b32 v10, v9
v_mov_b32 v11, 0
v_mov_b32 v12, s6
v_mov_b32 v13, s7
v_lshl_add_u64 v[14:15], v[10:11], 0, v[12:13]
v_mov_b32 v2, 0
v_mov_b32 v3, 0x40000000
global_atomic_add_f64 v[14:15], v[2:3], off offset:1024 sc1
global_atomic_add_f64 v9, v[2:3], s[4:5] offset:1024
s_waitcnt vmcnt(0)
global_load_dwordx2 v[4:5], v[14:15], off offset:1024 sc0 sc1
s_waitcnt vmcnt(0)
global_store_dwordx2 v9, v[4:5], s[4:5]
''', lambda arch: fine_pair(arch) * 64 +
     [0] * 128 + [f64(2.0) & M32, f64(2.0) >> 32] * 64,
     {'drops': lambda arch: 0}),
    ('atomics: sub is no PCIe AtomicOp, and a dropped returning atomic gives 0',
     ['gfx90a', 'gfx908'], '''
v_mov_b32 v2, 1
global_atomic_sub v3, v1, v2, s[6:7] glc
global_atomic_add v4, v1, v2, s[6:7] offset:256 glc
s_waitcnt vmcnt(0)
global_load_dword v5, v1, s[6:7]
global_load_dword v6, v1, s[6:7] offset:256
s_waitcnt vmcnt(0)
global_store_dword v1, v3, s[4:5]
global_store_dword v1, v4, s[4:5] offset:256
global_store_dword v1, v5, s[4:5] offset:512
global_store_dword v1, v6, s[4:5] offset:768
''', lambda arch: [0] * 64 + [f32(1.0)] * 64 + [f32(1.0)] * 64 + [f32(1.0) + 1] * 64,
     {'drops': lambda arch: 64}),
    ('atomics: a system-scope sub on MI300 fine host memory lands and returns the old value',
     ['gfx940'], '''
v_mov_b32 v2, 1
global_atomic_sub v3, v1, v2, s[6:7] sc0 sc1
s_waitcnt vmcnt(0)
global_load_dword v5, v1, s[6:7] sc0 sc1
s_waitcnt vmcnt(0)
global_store_dword v1, v3, s[4:5]
global_store_dword v1, v5, s[4:5] offset:256
''', lambda arch: [f32(1.0)] * 64 + [f32(1.0) - 1] * 64,
     {'drops': lambda arch: 0}),
    ('atomics: FP32 add flushes denormals on gfx908/gfx90a whatever the mode, not on gfx940',
     ['gfx908', 'gfx90a', 'gfx940'], '''
v_mov_b32 v2, 1
global_store_dword v1, v2, s[4:5]
s_waitcnt vmcnt(0)
global_atomic_add_f32 v1, v2, s[4:5]
s_waitcnt vmcnt(0)
''', lambda arch: [2 if arch == 'gfx940' else 0] * 64),
]

M32 = 0xffffffff


def fine_pair(arch):
    """The fine page's first two dwords hold the float 1.0 each; a landed
    f64 add of 2.0 changes the double they make."""
    import struct
    d = struct.unpack('<d', struct.pack('<II', 0x3f800000, 0x3f800000))[0]
    u = f64(d + 2.0)
    return [u & M32, u >> 32]
