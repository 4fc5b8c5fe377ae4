#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed fz_dwarf from real -g code objects, then a short fuzz run.

usage: fz_dwarf_seed.py HARNESS RUNS WORKDIR HIPGRAIN INPUT...
INPUT: programs (.hip_fatbin), offload bundles or bare AMDGPU ELFs.  Each
code object's debug sections, in fz_dwarf.c's layout, followed by the
addresses of its atomics (from `hipgrain scan --format json`) and of
instructions spread over its .text (many kernels have no atomic) make one
seed; fuzz/corpus/dwarf/ (inputs that once crashed) is added.  RUNS
inputs are run from a fixed seed (-runs=RUNS -seed=1).  Exits non-zero
when the fuzzer finds a crash.
"""
import json
import os
import struct
import subprocess
import sys

from fz_aslr import no_aslr

# fz_dwarf.c's order (co_dwarf.h's S_ enum).
SECTIONS = ["info", "abbrev", "line", "line_str", "str", "str_offsets",
            "addr", "rnglists", "ranges"]
MAX_ADDRS = 64

# Memory caps from fuzz/meson.build (why there); by hand, the same.
LIMITS = os.environ.get('FUZZ_LIMITS',
                        '-malloc_limit_mb=256 -rss_limit_mb=2048').split()
harness, runs, work, hipgrain = sys.argv[1:5]
inputs = sys.argv[5:]
corpus = os.path.join(work, "corpus-dwarf")
os.makedirs(corpus, exist_ok=True)


def sections(elf, want_addr=False):
    """{name: bytes} of an ELF64's sections ({name: (address, size)})."""
    shoff, = struct.unpack_from("<Q", elf, 40)
    shnum, shstrndx = struct.unpack_from("<HH", elf, 60)
    stroff, = struct.unpack_from("<Q", elf, shoff + 64 * shstrndx + 24)
    out = {}
    for i in range(1, shnum):
        name, typ = struct.unpack_from("<II", elf, shoff + 64 * i)
        off, size = struct.unpack_from("<QQ", elf, shoff + 64 * i + 24)
        addr, = struct.unpack_from("<Q", elf, shoff + 64 * i + 16)
        end = elf.index(b"\0", stroff + name)
        key = elf[stroff + name:end].decode()
        if want_addr:
            out[key] = (addr, size)
        else:
            out[key] = b"" if typ == 8 else elf[off:off + size]
    return out


def bundle_elves(blob):
    """AMDGPU ELFs of the plain bundles found in blob."""
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    out, at = [], blob.find(magic)
    while at >= 0:
        n, = struct.unpack_from("<Q", blob, at + 24)
        p = at + 32
        for _ in range(n):
            off, size, tl = struct.unpack_from("<QQQ", blob, p)
            p += 24 + tl
            e = blob[at + off:at + off + size]
            if size and e[:4] == b"\x7fELF":
                out.append(e)
        at = blob.find(magic, p)
    return out


def elves(blob):
    if blob[:4] == b"\x7fELF" and struct.unpack_from("<H", blob, 18)[0] == 224:
        return [blob]  # EM_AMDGPU
    if blob[:4] == b"\x7fELF":
        return bundle_elves(sections(blob).get(".hip_fatbin", b""))
    return bundle_elves(blob)


def atomics(elf, path):
    """Addresses of the code object's atomics, as hipgrain scan lists them."""
    open(path, "wb").write(elf)
    r = subprocess.run([hipgrain, "scan", "--format", "json", path],
                       capture_output=True, text=True)
    addrs = []
    for f in json.loads(r.stdout)["files"] if r.stdout else []:
        for co in f["code_objects"]:
            for k in co["kernels"]:
                for a in k.get("hw_fp_atomics", []) + k.get("int_atomics", []):
                    addrs.append(a["offset"])
    text, size = sections(elf, True).get(".text", (0, 0))
    spread = [text + (size * i // 32) // 4 * 4 for i in range(32)] if size else []
    return sorted(set(addrs + spread))[:MAX_ADDRS]


n = 0
for path in inputs:
    for elf in elves(open(path, "rb").read()):
        secs = sections(elf)
        if ".debug_info" not in secs:
            continue
        body = [secs.get(".debug_" + s, b"") for s in SECTIONS]
        addrs = atomics(elf, os.path.join(work, "fz_dwarf_seed.co"))
        seed = b"".join(struct.pack("<I", len(b)) for b in body) + b"".join(body)
        seed += b"".join(struct.pack("<Q", a) for a in addrs)
        open(os.path.join(corpus, f"seed-{n}"), "wb").write(seed)
        n += 1
if n == 0:
    sys.exit("fz_dwarf_seed.py: no code object with debug info in the inputs")

# Inputs that once crashed the harness (fuzz/corpus/dwarf/) stay in the corpus.
saved = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "dwarf")
for name in sorted(os.listdir(saved)) if os.path.isdir(saved) else []:
    with open(os.path.join(saved, name), "rb") as f:
        open(os.path.join(corpus, "saved-" + name), "wb").write(f.read())

# A fixed seed and a fixed number of inputs, as fz_seed.py runs the others.
r = subprocess.run([harness, corpus, f"-runs={runs}", "-seed=1",
                    "-timeout=0", "-max_len=1048576", *LIMITS,
                    f"-artifact_prefix={work}/crash-dwarf-", "-print_final_stats=1"],
                   capture_output=True, text=True, preexec_fn=no_aslr)
stats = [l for l in r.stderr.splitlines() if "stat::number_of_executed_units" in l
         or "stat::average_exec_per_sec" in l]
print(f"{n} seeds")
print("\n".join(stats))
if r.returncode:
    print(r.stderr[-4000:])
    # The input that failed, to keep beside the fix (fuzz/README.md).
    for name in sorted(os.listdir(work)):
        if name.startswith('crash-dwarf-'):
            print('keep it: cp %s %s/NAME' % (
                os.path.join(work, name), os.path.join('fuzz', 'corpus', 'dwarf')))
# libFuzzer exits 77 when it finds a crash, which meson takes for a skip.
sys.exit(1 if r.returncode else 0)
