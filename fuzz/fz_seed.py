#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed corpora from the compiled test kernels, then a short fuzz run.

usage: fz_seed.py HARNESS KIND RUNS WORKDIR INPUT...
KIND: bundle (inputs as they are), elf and image (AMDGPU ELFs), msgpack (their
metadata notes), vx (the .text of AMDGPU ELFs behind a header for
each family, see fz_vx.c), offload (inputs as they are, and each one's
.llvm.offloading section), smi (the "> " lines of SMI fixture files, each
alone and all together), plus fuzz/corpus/KIND/ (inputs that once
crashed).  An INPUT that is a directory stands for the files in it.  RUNS
inputs are run from a fixed seed (-runs=RUNS -seed=1).  Exits non-zero
when the fuzzer finds a crash.
"""
import codecs
import os
import struct
import subprocess
import sys

from fz_aslr import no_aslr

# Memory caps from fuzz/meson.build (why there); by hand, the same.
LIMITS = os.environ.get('FUZZ_LIMITS',
                        '-malloc_limit_mb=256 -rss_limit_mb=2048').split()
harness, kind, runs, work = sys.argv[1:5]
inputs = []
for arg in sys.argv[5:]:
    if os.path.isdir(arg):
        inputs += [os.path.join(arg, n) for n in sorted(os.listdir(arg))]
    else:
        inputs.append(arg)
corpus = os.path.join(work, f"corpus-{kind}")
os.makedirs(corpus, exist_ok=True)


def notes(elf):
    """Descriptors of NT_AMDGPU_METADATA notes in an ELF64."""
    shoff, = struct.unpack_from("<Q", elf, 40)
    shnum, = struct.unpack_from("<H", elf, 60)
    for i in range(shnum):
        typ, = struct.unpack_from("<I", elf, shoff + 64 * i + 4)
        off, size = struct.unpack_from("<QQ", elf, shoff + 64 * i + 24)
        if typ != 7:
            continue
        p = off
        while p + 12 <= off + size:
            nsz, dsz, t = struct.unpack_from("<III", elf, p)
            d = p + 12 + ((nsz + 3) & ~3)
            if t == 32:
                yield elf[d:d + dsz]
            p = d + ((dsz + 3) & ~3)


def smi_lines(blob):
    """The lines of an SMI fixture (tests/kfd/fixture.h), unescaped."""
    return [codecs.escape_decode(l[2:])[0] for l in blob.splitlines()
            if l.startswith(b"> ")]


def elves(blob):
    """AMDGPU ELFs inside a plain bundle."""
    if not blob.startswith(b"__CLANG_OFFLOAD_BUNDLE__"):
        return [blob] if blob[:4] == b"\x7fELF" else []
    n, = struct.unpack_from("<Q", blob, 24)
    p, out = 32, []
    for _ in range(n):
        off, size, tl = struct.unpack_from("<QQQ", blob, p)
        p += 24 + tl
        if size and blob[off:off + 4] == b"\x7fELF":
            out.append(blob[off:off + size])
    return out


def text(elf):
    """The .text section of an ELF64, if any."""
    shoff, = struct.unpack_from("<Q", elf, 40)
    shnum, shstrndx = struct.unpack_from("<HH", elf, 60)
    stroff, = struct.unpack_from("<Q", elf, shoff + 64 * shstrndx + 24)
    for i in range(shnum):
        name, = struct.unpack_from("<I", elf, shoff + 64 * i)
        off, size = struct.unpack_from("<QQ", elf, shoff + 64 * i + 24)
        if elf[stroff + name:].startswith(b".text\0"):
            return elf[off:off + size]
    return b""


def vx_seeds(code):
    """fz_vx's header (family, with and without the named-forms-only bit;
    shape; rsrc2 with the kernarg pointer's two user SGPRs and work-group
    id x; code properties asking for it; IEEE and denormals on) before each
    4 KiB run of code."""
    out = []
    for fam in list(range(3)) + [0x40 | f for f in range(3)]:
        head = struct.pack("<BBHHHHH4x", fam, fam, 2 << 1 | 1 << 7, 1 << 3,
                           0xf << 4 | 1 << 11, 1024, 64)
        for at in range(0, min(len(code), 65536), 4096):
            out.append(head + code[at:at + 4096])
    return out


def offloading(elf):
    """The .llvm.offloading section of a host ELF64, if any."""
    if elf[:4] != b"\x7fELF":
        return []
    shoff, = struct.unpack_from("<Q", elf, 40)
    shnum, shstrndx = struct.unpack_from("<HH", elf, 60)
    stroff, = struct.unpack_from("<Q", elf, shoff + 64 * shstrndx + 24)
    for i in range(shnum):
        name, = struct.unpack_from("<I", elf, shoff + 64 * i)
        off, size = struct.unpack_from("<QQ", elf, shoff + 64 * i + 24)
        if elf[stroff + name:].startswith(b".llvm.offloading\0"):
            return [elf[off:off + size]]
    return []


for i, path in enumerate(inputs):
    blob = open(path, "rb").read()
    seeds = [blob] if kind in ("bundle", "offload") else []
    if kind == "offload":
        seeds.extend(offloading(blob))
    if kind == "smi":
        lines = smi_lines(blob)
        seeds.extend(lines + [b"".join(lines)])
    for j, e in enumerate(elves(blob)):
        if kind in ("elf", "image"):
            seeds.append(e)
        elif kind == "vx":
            seeds.extend(vx_seeds(text(e)))
        elif kind == "msgpack":
            seeds.extend(notes(e))
    for j, s in enumerate(seeds):
        open(os.path.join(corpus, f"seed-{i}-{j}"), "wb").write(s)

# Inputs that once crashed a harness (fuzz/corpus/KIND/) stay in the corpus.
saved = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', kind)
for name in sorted(os.listdir(saved)) if os.path.isdir(saved) else []:
    with open(os.path.join(saved, name), 'rb') as f:
        open(os.path.join(corpus, 'saved-' + name), 'wb').write(f.read())



# A fixed seed and a fixed number of inputs: the same run on every machine,
# however slow (no wall-clock budget).  Long runs: fuzz/README.md.
r = subprocess.run([harness, corpus, f"-runs={runs}", "-seed=1",
                    "-timeout=0", "-max_len=1048576", *LIMITS,
                    f"-artifact_prefix={work}/crash-{kind}-", "-print_final_stats=1"],
                   capture_output=True, text=True, preexec_fn=no_aslr)
stats = [l for l in r.stderr.splitlines() if "stat::number_of_executed_units" in l
         or "stat::average_exec_per_sec" in l]
print("\n".join(stats))
if r.returncode:
    print(r.stderr[-4000:])
    # The input that failed, to keep beside the fix (fuzz/README.md).
    for name in sorted(os.listdir(work)):
        if name.startswith('crash-%s-' % kind):
            print('keep it: cp %s %s/NAME' % (
                os.path.join(work, name), os.path.join('fuzz', 'corpus', kind)))
# libFuzzer exits 77 when it finds a crash, which meson takes for a skip.
sys.exit(1 if r.returncode else 0)
