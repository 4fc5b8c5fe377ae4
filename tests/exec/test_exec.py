#!/usr/bin/env python3
"""The interpreter by instruction family, against values computed here on
the host: small kernels assembled by LLVM (llvm-mc-15) run on vx-probe,
one work-group of 64 lanes, and what they store is compared word by word.
Memory semantics are checked the same way: a hardware FP atomic and an
integer min on fine-grained host memory do nothing on gfx90a and land on
gfx940 (MI300, as LLVM 15 names it), and on coarse-grained memory they
land everywhere.

usage: test_exec.py VX_PROBE"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

probe = sys.argv[1]
MC = os.environ.get('LLVM_MC', 'llvm-mc-15')
OBJCOPY = os.environ.get('LLVM_OBJCOPY', 'llvm-objcopy-15')

# s[4:5] the output page, s[6:7] the fine page; v1 the lane's byte offset
PROLOGUE = '''
s_load_dwordx4 s[4:7], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
'''


def f32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f16(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


CASES = [
    # name, archs, body, expected words (a function of arch)
    ('ds_write/ds_read2: both dwords come back', ['gfx90a', 'gfx908'], '''
v_add_u32 v2, 100, v0
ds_write_b32 v1, v2
v_add_u32 v3, 0x3e8, v0
ds_write_b32 v1, v3 offset:256
ds_read2_b32 v[4:5], v1 offset1:64
s_waitcnt lgkmcnt(0)
v_add_u32 v6, v4, v5
global_store_dword v1, v6, s[4:5]
''', lambda arch: [1100 + 2 * lane for lane in range(64)]),
    ('SALU: s_bfm_b64, an SGPR-offset s_load', ['gfx90a', 'gfx940'], '''
s_bfm_b64 s[8:9], 8, 4
s_mov_b32 s10, 8
s_load_dword s11, s[0:1], s10
s_waitcnt lgkmcnt(0)
s_xor_b32 s12, s8, s11
v_mov_b32 v2, s12
v_add_u32 v2, v2, v0
global_store_dword v1, v2, s[4:5]
''', lambda arch: [(0xff0 ^ 0x130000) + lane for lane in range(64)]),
    ('VALU: f32 to f16 rounds to nearest even, denormals kept', ['gfx90a'], '''
v_cvt_f32_u32 v2, v0
s_mov_b32 s13, 0x32800000
v_mul_f32 v2, s13, v2
v_cvt_f16_f32 v3, v2
global_store_dword v1, v3, s[4:5]
''', lambda arch: [f16(lane * 2.0 ** -26) for lane in range(64)]),
    ('VALU: 64-bit shifts and mad_u64_u32 carry the high half', ['gfx90a'], '''
v_mov_b32 v4, 0
v_mov_b32 v5, 0
s_mov_b32 s14, 0x10000001
v_mad_u64_u32 v[2:3], s[8:9], v0, s14, v[4:5]
v_lshrrev_b64 v[6:7], 4, v[2:3]
v_xor_b32 v8, v6, v3
global_store_dword v1, v8, s[4:5]
''', lambda arch: [((lane * 0x10000001 >> 4) & 0xffffffff) ^ (lane * 0x10000001 >> 32)
                   for lane in range(64)]),
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
        [f32(1.0) if arch == 'gfx90a' else 0] * 64),
]

runs = sum(len(archs) for _, archs, _, _ in CASES)
print(f'1..{runs}')
n = 0
if not shutil.which(MC) or not shutil.which(OBJCOPY):
    for _ in range(runs):
        n += 1
        print(f'ok {n} # SKIP {MC} or {OBJCOPY} is not installed')
    sys.exit(0)
failed = 0
tmp = tempfile.mkdtemp(prefix='hgexec-')
try:
    for name, archs, body, want in CASES:
        for arch in archs:
            n += 1
            src, obj, blob = (os.path.join(tmp, f'k{n}.{e}') for e in ('s', 'o', 'bin'))
            open(src, 'w').write('.text\n' + PROLOGUE + body + 's_endpgm\n')
            subprocess.run([MC, '-arch=amdgcn', '-mcpu=' + arch, '-filetype=obj',
                            src, '-o', obj], check=True)
            subprocess.run([OBJCOPY, '-O', 'binary', '--only-section=.text', obj, blob],
                           check=True)
            exp = want(arch)
            p = subprocess.run([probe, arch, blob, str(len(exp))], capture_output=True,
                               text=True, timeout=60)
            lines = p.stdout.splitlines()
            got = [int(x, 16) for x in ' '.join(lines[1:]).split()]
            ok = p.returncode == 0 and lines and lines[0].startswith('status 0') and got == exp
            if 'atomics' in name:
                dropped = 'dropped 64' in lines[0] if lines else False
                ok = ok and dropped == (arch == 'gfx90a')
            failed += not ok
            print(f'{"" if ok else "not "}ok {n} - {arch}: {name}')
            if not ok:
                print('#   ' + (lines[0] if lines else p.stderr.strip()))
                bad = [(i, hex(g), hex(e)) for i, (g, e) in enumerate(zip(got, exp)) if g != e]
                print(f'#   first differences (word, got, want): {bad[:4]}')
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failed else 0)
