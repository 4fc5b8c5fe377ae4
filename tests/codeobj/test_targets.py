#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Targets hipgrain cannot or need not decode, and generic targets.

Debian 12's hipcc (ROCm 5.2) cannot build for gfx9-4-generic or gfx1102, so
the fixture is made here from real code objects: the gfx940 code object of
the test kernels, relabelled gfx9-4-generic (EF_AMDGPU_MACH 0x05f, generic
version 1, as LLVM 19+ writes it) and gfx942 (0x04c); the gfx90a one
relabelled gfx1102 (0x047).  A user scanning a library built for every
target must get the gfx9 family's atomics, a warning naming each target not
decoded, and exit 0.

usage: test_targets.py HIPGRAIN UNSAFE_EXE OBJCOPY CO_SELECT_TEST
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

HG, UNSAFE, OBJCOPY, SELECT = sys.argv[1:5]
MAGIC = b'__CLANG_OFFLOAD_BUNDLE__'
PREFIX = 'hipv4-amdgcn-amd-amdhsa--'
failures = []


def check(cond, what, detail=''):
    print(('ok    ' if cond else 'FAIL  ') + what)
    if not cond:
        print('      ' + str(detail)[:2000])
        failures.append(what)


def entries(bundle):
    """{target id: code object bytes} of a plain offload bundle."""
    n = struct.unpack_from('<Q', bundle, 24)[0]
    pos, out = 32, {}
    for _ in range(n):
        off, size, tlen = struct.unpack_from('<QQQ', bundle, pos)
        tid = bundle[pos + 24:pos + 24 + tlen].decode()
        out[tid] = bundle[off:off + size]
        pos += 24 + tlen
    return out


def relabel(co, mach, generic=0):
    """The code object with e_flags naming another processor."""
    co = bytearray(co)
    flags = struct.unpack_from('<I', co, 48)[0]
    flags = (flags & ~0xff00_00ff) | mach | generic << 24
    struct.pack_into('<I', co, 48, flags)
    return bytes(co)


def bundle_of(objs):
    """A plain offload bundle of [(target id, bytes)]."""
    head = MAGIC + struct.pack('<Q', len(objs))
    desc_len = sum(24 + len(t) for t, _ in objs)
    off = (len(head) + desc_len + 4095) // 4096 * 4096
    descs, body = b'', b''
    for tid, data in objs:
        descs += struct.pack('<QQQ', off + len(body), len(data), len(tid))
        descs += tid.encode()
        body += data + b'\0' * (-len(data) % 4096)
    pad = off - len(head) - len(descs)
    return head + descs + b'\0' * pad + body


def scan(*args):
    p = subprocess.run([HG, 'scan', *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as d:
    fatbin = os.path.join(d, 'fatbin')
    subprocess.run([OBJCOPY, '-O', 'binary', '--only-section=.hip_fatbin',
                    UNSAFE, fatbin], check=True)
    src = entries(open(fatbin, 'rb').read())
    host = [(t, b) for t, b in src.items() if t.startswith('host')]
    gfx940 = src[PREFIX + os.environ.get('HG_MI300_ARCH', 'gfx940')]
    gfx90a = src[PREFIX + 'gfx90a']
    path = os.path.join(d, 'every-target.hipfb')
    with open(path, 'wb') as f:
        f.write(bundle_of(host + [
            (PREFIX + 'gfx90a', gfx90a),
            (PREFIX + 'gfx942', relabel(gfx940, 0x4c)),
            (PREFIX + 'gfx9-4-generic', relabel(gfx940, 0x5f, 1)),
            (PREFIX + 'gfx1102', relabel(gfx90a, 0x47)),
        ]))

    rc, out, err = scan(path)
    check(rc == 0, 'a bundle with a target nothing decodes: exit 0', err)
    check('gfx9-4-generic (bundle 0): 6 kernels, 3 with hardware FP atomics'
          in out, 'gfx9-4-generic is decoded by the gfx9 decoder', out)
    check('downgraded' in out.split('gfx9-4-generic')[1],
          'gfx9-4-generic takes MI300\'s rules (scope downgraded)', out)
    check('gfx1102: 1 code object not decoded: no atomic hazard' in out,
          'the report names gfx1102 as not decoded, and why', out)
    check('gfx1102' not in err,
          'text says it once, in the report, not on stderr too', err)
    rc, out, err = scan(path, '--format', 'json')
    check(f'warning: {path}: gfx1102: not decoded (1 code object)' in err,
          'with JSON, a warning names gfx1102 on stderr', err)

    twins = os.path.join(d, 'xnack-twins.hipfb')
    with open(twins, 'wb') as f:
        f.write(bundle_of(host + [(PREFIX + 'gfx90a:xnack+', gfx90a),
                                  (PREFIX + 'gfx90a:xnack-', gfx90a)]))
    rc, out, err = scan(twins)
    check(rc == 0 and out.count('(bundle 0)') == 1 and
          'gfx90a:xnack+, gfx90a:xnack- (bundle 0)' in out,
          'identical code objects of two targets: one block, both names', out)

    rc, out, err = scan('--format', 'json', path)
    doc = json.loads(out)
    f = doc['files'][0]
    got = {co['target']: co for co in f['code_objects']}
    check(rc == 0 and sorted(got) == ['gfx9-4-generic', 'gfx90a', 'gfx942'],
          'JSON: the decoded code objects', sorted(got))
    fp = [a['mnemonic'] for k in got.get('gfx9-4-generic', {}).get('kernels', [])
          for a in k['hw_fp_atomics']]
    check(sorted(fp) == ['global_atomic_add_f32', 'global_atomic_add_f32',
                         'global_atomic_add_f64'],
          'JSON: the generic object\'s hardware FP atomics', fp)
    scopes = sorted(a.get('scope') or '-' for k in
                    got.get('gfx9-4-generic', {}).get('kernels', [])
                    for a in k['hw_fp_atomics'])
    check(scopes == ['agent', 'system', 'system'],
          'JSON: MI300 generic code says each atomic\'s scope', scopes)
    check([(x['target'], x['code_objects']) for x in f['not_decoded']] ==
          [('gfx1102', 1)] and 'hazard' in f['not_decoded'][0]['why'],
          'JSON: not_decoded lists gfx1102 with why', f['not_decoded'])

    rc, out, _ = scan('--format', 'json', '--target', 'gfx950', path)
    got = [co['target'] for co in json.loads(out)['files'][0]['code_objects']]
    check(got == ['gfx9-4-generic'],
          '--target gfx950: the generic object is the one that loads', got)
    rc, out, _ = scan('--format', 'json', '--target', 'gfx942', path)
    got = [co['target'] for co in json.loads(out)['files'][0]['code_objects']]
    check(got == ['gfx942', 'gfx9-4-generic'],
          '--target gfx942: both that could load, specific first', got)

    rc, out, err = scan('--decoder', 'own', path)
    check(rc == 0 and 'gfx1102: 1 code object not decoded: hipgrain\'s own '
          'decoder' in out, '--decoder own: gfx1102 not decoded, exit 0',
          out + err)
    rc, out, err = scan('--decoder', 'comgr', path)
    check(rc == 0, '--decoder comgr: exit 0 whether or not comgr knows '
          'gfx1102', err)

    p = subprocess.run([SELECT, path], capture_output=True, text=True)
    print(p.stdout, end='')
    check(p.returncode == 0, 'the runtime\'s choice: specific before generic',
          p.stdout)

print(f'{len(failures)} failed')
sys.exit(1 if failures else 0)
