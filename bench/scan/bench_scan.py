#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hipgrain scan against llvm-objdump-15 -d on the same code objects.

usage: bench_scan.py HIPGRAIN CO_AGREE BUNDLER OBJDUMP LIB TARGET
Extracts LIB's TARGET code objects (one per bundle) into a temp dir, times
llvm-objdump over them (the anchor), then hipgrain scan over LIB itself, and
prints both times, the ratio, max RSS and the FP atomics each found.  Then
the full scan of LIB, every target (time, max RSS, exit status, targets not
decoded; targets: under 10 s and 300 MB for sid's rocSPARSE 6.4), and our
decoder against comgr's in instructions/s (co_agree, on 10 objects).

Another release's tools: set BENCH_CHROOT to its root (e.g. the sid
chroot scripts/releases.sh makes) and name them as seen inside it
(llvm-objdump-21); the code objects are then written under its /tmp.
"""
import os
import re
import json
import resource
import shlex
import subprocess
import sys
import tempfile
import time

HG, AGREE, BUNDLER, OBJDUMP, LIB, TARGET = sys.argv[1:7]
ROOT = os.environ.get("BENCH_CHROOT", "")
BUNDLER, OBJDUMP = shlex.split(BUNDLER), shlex.split(OBJDUMP)
if ROOT:
    BUNDLER, OBJDUMP = ["chroot", ROOT] + BUNDLER, ["chroot", ROOT] + OBJDUMP


def inside(path):
    """path as the tools see it."""
    return path[len(ROOT):] if ROOT else path
FP = re.compile(r"\b(?:global|flat|buffer)_atomic_(?:pk_add_\w+|\w+_f(?:16|32|64))\b")


def bundles(path):
    """Offsets of the bundles in LIB's .hip_fatbin (by magic)."""
    data = open(path, "rb").read()
    return data, [m.start() for m in re.finditer(rb"__CLANG_OFFLOAD_BUNDLE__", data)]


def child_maxrss_mb():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


with tempfile.TemporaryDirectory(dir=ROOT + "/tmp" if ROOT else None) as tmp:
    data, offs = bundles(LIB)
    cos = []
    for i, off in enumerate(offs):
        end = offs[i + 1] if i + 1 < len(offs) else len(data)
        fb = os.path.join(tmp, f"b{i}.hipfb")
        open(fb, "wb").write(data[off:end])
        co = os.path.join(tmp, f"b{i}.co")
        r = subprocess.run(BUNDLER + ["--unbundle", "--type=o", f"--input={inside(fb)}",
                            f"--targets=hipv4-amdgcn-amd-amdhsa--{TARGET}",
                            f"--output={inside(co)}"], capture_output=True)
        os.unlink(fb)
        if r.returncode == 0 and os.path.getsize(co):
            cos.append(co)
    del data
    size = sum(os.path.getsize(c) for c in cos)
    print(f"{len(cos)} code objects for {TARGET}, {size / 1e6:.0f} MB")

    mcpu = TARGET.split(":")[0]
    t0 = time.monotonic()
    fp_ref = 0
    for co in cos:
        out = subprocess.run(OBJDUMP + ["-d", f"--mcpu={mcpu}", inside(co)],
                             capture_output=True, text=True).stdout
        fp_ref += len(FP.findall(out))
    t_ref = time.monotonic() - t0

    t0 = time.monotonic()
    r = subprocess.run([HG, "scan", "--format", "json", "--target", TARGET, LIB],
                       capture_output=True, text=True)
    t_hg = time.monotonic() - t0
    rss = child_maxrss_mb()

    doc = json.loads(r.stdout)
    ks = [k for c in doc["files"][0]["code_objects"] for k in c["kernels"]]
    fp_hg = sum(len(k["hw_fp_atomics"]) for k in ks)
    print(f"llvm-objdump -d: {t_ref:.2f} s, {fp_ref} hardware FP atomics")
    print(f"hipgrain scan:   {t_hg:.2f} s, {fp_hg} hardware FP atomics, "
          f"{len(ks)} kernels, exit {r.returncode}")
    print(f"ratio: {t_ref / t_hg:.0f}x  (target >= 50x)")
    print(f"largest child max RSS (llvm-objdump, bundler or scan): {rss:.0f} MB")
    ru = subprocess.run(["/usr/bin/time", "-f", "%M", HG, "scan", "--target",
                         TARGET, LIB], capture_output=True, text=True)
    print(f"hipgrain scan max RSS: {int(ru.stderr.split()[-1]) / 1024:.0f} MB "
          f"(file-backed pages of the mapping; nothing copied)")
    full = subprocess.run(["/usr/bin/time", "-f", "%e %M", HG, "scan",
                           "--format", "json", LIB],
                          capture_output=True, text=True)
    secs, kb = full.stderr.split()[-2:]
    skipped = json.loads(full.stdout)["files"][0]["not_decoded"]
    print(f"full scan, every target: {float(secs):.2f} s, max RSS "
          f"{int(kb) / 1024:.0f} MB, exit {full.returncode} (targets: < 10 s, "
          f"< 300 MB, 0); not decoded: "
          + (", ".join(f"{x['target']} x{x['code_objects']}" for x in skipped)
             or "none"))
    sub = subprocess.run([AGREE, "--target", TARGET, "--max", "10", LIB],
                         capture_output=True, text=True)
    print(sub.stdout.strip())
    sys.exit(0 if fp_ref == fp_hg and r.returncode == full.returncode == 0
             else 1)
