#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Which argument an atomic reaches, on hand-written kernels: scalar writes
beside a pointer must not lose it, and writes that may reach it must.

Each case is assembled by LLVM into a code object whose metadata has two
pointer arguments; its one atomic's address is argument 1 (s[2:3]) unless
the instruction before it may have written there.  A compiler decides
where it keeps a pointer, so compiled kernels show these only by chance
(LLVM 21 counts a wave's lanes with s_bcnt1_i32_b64 into s1 beside bins
in s[2:3]; LLVM 15 does not); here each shape is fixed.

usage: test_flow.py HIPGRAIN
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HG = sys.argv[1]


def tool(names):
    for n in names:
        if shutil.which(n):
            return n
    return None


MC = tool([os.environ.get('LLVM_MC', ''), 'llvm-mc-15', 'llvm-mc-21', 'llvm-mc'])
LLD = tool([os.environ.get('LLD', ''), 'ld.lld-15', 'ld.lld-21', 'ld.lld'])

# (name, what the instruction before the atomic does, the argument wanted)
CASES = [
    ('bcnt1-beside', 's_bcnt1_i32_b64 s1, exec', 1),
    ('bcnt1-over', 's_bcnt1_i32_b64 s2, exec', None),
    ('ff1-beside', 's_ff1_i32_b64 s1, exec', 1),
    ('flbit-i64-beside', 's_flbit_i32_i64 s4, s[0:1]', 1),
    ('flbit-i64-over', 's_flbit_i32_i64 s3, s[0:1]', None),
    ('not-b64-beside', 's_not_b64 s[0:1], exec', 1),
    ('not-b64-over', 's_not_b64 s[4:5], exec\ns_not_b64 s[2:3], s[4:5]', None),
    ('brev-b32-beside', 's_brev_b32 s1, s0', 1),
    ('sext-beside', 's_sext_i32_i16 s4, s0', 1),
    ('wqm-b64-over', 's_wqm_b64 s[2:3], exec', None),
    # movreld writes the SGPR at its destination plus M0: s2 when M0 is 2.
    ('movreld-indirect', 's_mov_b32 m0, 2\ns_movreld_b32 s0, s9', None),
    ('mov-b32-copy', 's_mov_b32 s10, s2\ns_mov_b32 s11, s3\ns_mov_b64 s[2:3], 0\n'
     's_mov_b64 s[2:3], s[10:11]', 1),
]

KERNEL = '''.amdgcn_target "amdgcn-amd-amdhsa--{arch}"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dwordx4 s[0:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
{body}
  v_mov_b32 v1, 0
  v_mov_b32 v3, 1
  global_atomic_or v1, v3, s[2:3]
  s_endpgm
.Lend:
.size k, .Lend-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 16
{accum}
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - {{ .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }}
      - {{ .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }}
...
.end_amdgpu_metadata
'''


def build(tmp, name, arch, body):
    src, obj, co = (os.path.join(tmp, f'{name}-{arch}.{e}') for e in ('s', 'o', 'co'))
    with open(src, 'w') as f:
        f.write(KERNEL.format(arch=arch, body=body, accum=(
            '  .amdhsa_accum_offset 8' if arch != 'gfx908' else '')))
    subprocess.run([MC, '-triple=amdgcn-amd-amdhsa', '-mcpu=' + arch, '-filetype=obj',
                    src, '-o', obj], check=True, capture_output=True, text=True)
    subprocess.run([LLD, '-shared', obj, '-o', co], check=True, capture_output=True)
    return co


def reached(co):
    p = subprocess.run([HG, 'scan', '--format', 'json', '-v', co],
                       capture_output=True, text=True)
    doc = json.loads(p.stdout)
    ks = [k for f in doc['files'] for c in f['code_objects'] for k in c['kernels']]
    return [a['arg'] for a in ks[0]['int_atomics']]


def main():
    archs = ('gfx908', 'gfx90a')
    print(f'1..{len(CASES) * len(archs)}')
    if not MC or not LLD:
        for i in range(len(CASES) * len(archs)):
            print(f'ok {i + 1} # SKIP no llvm-mc or ld.lld to assemble the kernels')
        return 0
    n, bad = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for arch in archs:
            for name, body, want in CASES:
                n += 1
                got = reached(build(tmp, name, arch, body))
                ok = got == [want]
                bad += not ok
                print(f'{"ok" if ok else "not ok"} {n} - {arch} {name}: '
                      f'the or reaches {want}' + ('' if ok else f' (got {got})'))
    return 1 if bad else 0


sys.exit(main())
