#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain scan` on mutated and truncated binaries, bundles, code objects.

usage: test_scan_hostile.py HIPGRAIN KERNELS_DIR FIXTURE...

HIPGRAIN_HOSTILE_SCALE=N multiplies the mutation counts (long runs by hand).

FIXTURE: tests/codeobj's compiled inputs (a plain bundle, zlib and zstd
compressed bundles, a bare gfx90a code object).  Kernel programs are
mutated inside their .hip_fatbin section (where the GPU code is) and as
whole files; code objects are also cut out of the programs' bundles and
mutated in their ELF header, section headers and AMDGPU metadata notes.
"""
import os
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402
from hostile import Case, says  # noqa: E402

PROGRAMS = ['arraysum_unsafe', 'vectoradd', 'histogram', 'xnack']
SCALE = int(os.environ.get('HIPGRAIN_HOSTILE_SCALE', '1'))
N_FATBIN, N_PROGRAM, N_BUNDLE, N_CCOB, N_CO = (
    n * SCALE for n in (48, 16, 32, 24, 80))


def sections(elf):
    """name -> (offset, size) of an ELF64's sections."""
    shoff, = struct.unpack_from('<Q', elf, 40)
    shnum, shstrndx = struct.unpack_from('<HH', elf, 60)
    hdr = lambda i: struct.unpack_from('<IIQQQQ', elf, shoff + 64 * i)  # noqa
    stroff = hdr(shstrndx)[4]
    out = {}
    for i in range(shnum):
        name, typ, _, _, off, size = hdr(i)
        end = elf.index(b'\0', stroff + name)
        out[elf[stroff + name:end].decode()] = (off, size, typ)
    return out


def bundle_elves(blob):
    """The AMDGPU ELFs in a plain clang offload bundle."""
    n, = struct.unpack_from('<Q', blob, 24)
    p, out = 32, []
    for _ in range(n):
        off, size, tl = struct.unpack_from('<QQQ', blob, p)
        p += 24 + tl
        if size and blob[off:off + 4] == b'\x7fELF':
            out.append(blob[off:off + size])
    return out


def scan_argv(hg, i, path):
    """Alternates decoders, formats and options over the cases."""
    opts = [['--format', 'json'], ['--decoder', 'own', '--fail-on',
                                   'hw-fp-atomics'],
            ['--decoder', 'comgr', '--format', 'json'],
            ['--target', 'gfx90a:xnack-']][i % 4]
    return [hg, 'scan'] + opts + [path], '--format' in opts


def zzuf_case(hg, work, name, src, seed, ratio, byte_range=None):
    dst = os.path.join(work, name)
    hostile.zzuf(src, dst, seed, ratio, byte_range)
    argv, js = scan_argv(hg, seed, dst)
    return Case(name, argv, json_out=js)


def program_cases(hg, kdir, work):
    cases = []
    progs = [os.path.join(kdir, p) for p in PROGRAMS
             if os.path.exists(os.path.join(kdir, p)) and
             '.hip_fatbin' in sections(open(os.path.join(kdir, p), 'rb').read())]
    for seed in range(N_FATBIN):
        prog = progs[seed % len(progs)]
        off, size, _ = sections(open(prog, 'rb').read())['.hip_fatbin']
        cases.append(zzuf_case(
            hg, work, 'zzuf-fatbin-s%d-%s' % (seed, os.path.basename(prog)),
            prog, seed, '0.0002:0.002', '%d-%d' % (off, off + size)))
    for seed in range(N_PROGRAM):
        prog = progs[seed % len(progs)]
        cases.append(zzuf_case(
            hg, work, 'zzuf-program-s%d-%s' % (seed, os.path.basename(prog)),
            prog, seed, '0.001:0.005'))
    prog = progs[0]
    off, size, _ = sections(open(prog, 'rb').read())['.hip_fatbin']
    for cut in [off + 20, off + 100, off + size // 2, os.path.getsize(prog) // 3]:
        dst = os.path.join(work, 'cut-program-%d' % cut)
        hostile.truncate(prog, dst, cut)
        cases.append(Case('truncated %s at %d' % (os.path.basename(prog), cut),
                          scan_argv(hg, cut, dst)[0]))
    return cases, progs


def fixture_cases(hg, fixtures, work):
    bundle = next(f for f in fixtures if f.endswith('.hipfb'))
    ccobs = [f for f in fixtures if f.endswith('.ccob')]
    cases = []
    for seed in range(N_BUNDLE):
        cases.append(zzuf_case(hg, work, 'zzuf-bundle-s%d' % seed, bundle,
                               seed, '0.0005:0.005'))
    for seed in range(N_CCOB):
        src = ccobs[seed % len(ccobs)]
        # Half in the header: sizes, method, version are what a reader trusts.
        rng = '0-64' if seed % 2 else None
        cases.append(zzuf_case(hg, work, 'zzuf-%s-s%d%s' % (
            os.path.basename(src), seed, '-header' if rng else ''),
            src, seed, '0.01:0.05' if rng else '0.0005:0.005', rng))
    for src in [bundle] + ccobs:
        size = os.path.getsize(src)
        for cut in [8, 20, 40, size // 2, size - 1]:
            dst = os.path.join(work, 'cut-%s-%d' % (os.path.basename(src), cut))
            hostile.truncate(src, dst, cut)
            cases.append(Case('truncated %s at %d' % (os.path.basename(src),
                                                      cut),
                              scan_argv(hg, cut, dst)[0]))
    return cases


def code_objects(progs, fixtures, work):
    """Bare code objects: the fixture, and one cut out of each program."""
    cos = [f for f in fixtures if f.endswith('.co')]
    for prog in progs[:3]:
        elf = open(prog, 'rb').read()
        off, size, _ = sections(elf)['.hip_fatbin']
        for j, co in enumerate(bundle_elves(elf[off:off + size])[:2]):
            p = os.path.join(work, '%s-%d.co' % (os.path.basename(prog), j))
            open(p, 'wb').write(co)
            cos.append(p)
    return cos


def co_ranges(co):
    """Byte ranges worth aiming at: headers, section table, metadata notes."""
    elf = open(co, 'rb').read()
    shoff, = struct.unpack_from('<Q', elf, 40)
    notes = [(o, o + s) for o, s, t in sections(elf).values() if t == 7]
    return [None, '0-64', '%d-%d' % (shoff, len(elf)),
            '%d-%d' % notes[0] if notes else None]


def co_cases(hg, cos, work):
    cases = []
    for seed in range(N_CO):
        co = cos[seed % len(cos)]
        rng = co_ranges(co)[seed // len(cos) % 4]
        name = 'zzuf-co-s%d-%s-%s' % (seed, os.path.basename(co),
                                      rng or 'all')
        cases.append(zzuf_case(hg, work, name, co, seed,
                               '0.0005:0.005' if not rng else '0.005:0.02',
                               rng))
    co = cos[0]
    size = os.path.getsize(co)
    for cut in [4, 63, 64, 200, size // 2, size - 1]:
        dst = os.path.join(work, 'cut-co-%d' % cut)
        hostile.truncate(co, dst, cut)
        cases.append(Case('truncated %s at %d' % (os.path.basename(co), cut),
                          scan_argv(hg, cut, dst)[0]))
    return cases


def odd_cases(hg, work):
    empty = os.path.join(work, 'empty.co')
    open(empty, 'wb').close()
    text = os.path.join(work, 'notes.txt')
    open(text, 'w').write('not a code object\n')
    fifo = os.path.join(work, 'fifo')
    os.mkfifo(fifo)
    one = lambda p: [hg, 'scan', p]  # noqa: E731
    return [
        Case('empty file', one(empty), (1,), check=says('empty.co')),
        Case('text file', one(text), (1,), check=says('notes.txt')),
        Case('directory', one(work), (1,)),
        Case('nonexistent', one(os.path.join(work, 'nowhere')), (1,),
             check=says('nowhere')),
        Case('/dev/null', one('/dev/null'), (1,)),
        # A FIFO nobody writes to: open() waited forever (fixed in co_set.c).
        Case('regression: FIFO without a writer', one(fifo), (1,),
             check=says('not a regular')),
        Case('host program without GPU code', one('/bin/true'), (0,)),
    ]


def main():
    hg, kdir = sys.argv[1:3]
    fixtures = sys.argv[3:]
    tap = hostile.Tap()
    work = tempfile.mkdtemp(prefix='hghostile-scan-')
    try:
        cases, progs = program_cases(hg, kdir, work)
        cases += fixture_cases(hg, fixtures, work)
        cases += co_cases(hg, code_objects(progs, fixtures, work), work)
        cases += odd_cases(hg, work)
        cases += regression_cases(hg, work)
        print('# %d cases' % len(cases))
        hostile.run_all(tap, cases)
    finally:
        if os.environ.get('HIPGRAIN_HOSTILE_KEEP'):
            print('# inputs kept in %s' % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return tap.done()


def note_only_co(metadata):
    """A minimal gfx90a code object: an ELF header, an NT_AMDGPU_METADATA
    note holding metadata (msgpack), and the section table."""
    size = len(metadata)
    note = 12 + 8 + ((size + 3) & ~3)
    shoff = 64 + note
    elf = bytearray(shoff + 3 * 64)
    elf[0:7] = b'\x7fELF\x02\x01\x01'
    struct.pack_into('<HH', elf, 16, 3, 224)            # ET_DYN, EM_AMDGPU
    struct.pack_into('<Q', elf, 40, shoff)
    struct.pack_into('<I', elf, 48, 0x3f | 0x200)       # gfx90a, xnack-
    struct.pack_into('<HHH', elf, 58, 64, 3, 2)
    struct.pack_into('<III', elf, 64, 7, size, 32)      # NT_AMDGPU_METADATA
    elf[76:83] = b'AMDGPU\0'
    elf[84:84 + size] = metadata
    struct.pack_into('<I', elf, shoff + 64 + 4, 7)      # SHT_NOTE
    struct.pack_into('<QQ', elf, shoff + 64 + 24, 64, note)
    struct.pack_into('<I', elf, shoff + 128 + 4, 3)     # SHT_STRTAB
    struct.pack_into('<QQ', elf, shoff + 128 + 24, len(elf), 1)
    return bytes(elf) + b'\0'


def mp_str(s):
    return bytes([0xa0 | len(s)]) + s.encode()


def regression_cases(hg, work):
    """Inputs that once crashed or hung `hipgrain scan`."""
    def kernel(name):
        return (b'\x83' + mp_str('.name') + mp_str(name) + mp_str('.symbol') +
                mp_str(name + '.kd') + mp_str('.args') + b'\x90')
    # amdhsa.kernels twice, the second empty: the first one's count was
    # kept, and kernels past the new array's end were sorted (SIGSEGV in
    # strcmp; found by fz_msgpack, fixed in codeobj/co_meta.c).
    twice = os.path.join(work, 'kernels-twice.co')
    with open(twice, 'wb') as f:
        f.write(note_only_co(b'\x82' + mp_str('amdhsa.kernels') + b'\x92' +
                             kernel('_Z1av') + kernel('_Z1bv') +
                             mp_str('amdhsa.kernels') + b'\x90'))
    return [Case('regression: amdhsa.kernels twice', [hg, 'scan', twice],
                 (1,), check=says('twice'))]


if __name__ == '__main__':
    sys.exit(main())
