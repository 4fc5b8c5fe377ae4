#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hipgrain scan on the OpenMP programs in kernels/ (issue 10): every image
found, named as a target region, and its atomics the same as llvm-objdump-15
finds in the image extracted independently (llvm-objdump's offloading
listing, the host's own symbol for the old driver's image).

usage: test_omp_scan.py HIPGRAIN OBJDUMP SOURCE NEW_DRIVER_EXE... -- OLD_DRIVER_EXE...
                        [-- HIP_RDC_OBJECT]
HIP_RDC_OBJECT: HIP built with --offload-new-driver -fgpu-rdc -c, whose
.llvm.offloading holds bitcode: refused with a reason, never called clean.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HG, OBJDUMP, SOURCE = sys.argv[1:4]
rest = sys.argv[4:]
groups = [[]]
for a in rest:
    if a == "--":
        groups.append([])
    else:
        groups[-1].append(a)
NEW, OLD, RDC = (groups + [[], []])[:3]
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def scan(*args):
    p = subprocess.run([HG, "scan", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def sections(path):
    """{name: (addr, offset, size)} from the host's section headers."""
    out = subprocess.run(["readelf", "-SW", path], capture_output=True,
                         text=True, check=True).stdout
    secs = {}
    for m in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", out):
        secs[m.group(1)] = tuple(int(m.group(i), 16) for i in (2, 3, 4))
    return secs


def new_driver_images(path):
    """(arch, ELF bytes) per image, and llvm-objdump's own listing."""
    listing = subprocess.run([OBJDUMP, "--offloading", path], capture_output=True,
                             text=True, check=True).stdout
    archs = re.findall(r"^arch\s+(\S+)", listing, re.M)
    _, off, size = sections(path)[".llvm.offloading"]
    blob = open(path, "rb").read()[off:off + size]
    images, p = [], 0
    while p + 32 <= len(blob):
        if blob[p:p + 4] != b"\x10\xff\x10\xad":
            p += 8
            continue
        total, eoff = struct.unpack_from("<QQ", blob, p + 8)
        _, _, _, _, _, ioff, isize = struct.unpack_from("<HHIQQQQ", blob, p + eoff)
        images.append(blob[p + ioff:p + ioff + isize])
        p += (total + 7) & ~7
    return archs, images


def old_driver_image(path):
    out = subprocess.run(["readelf", "-sW", path], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"([0-9a-f]+)\s+(\d+)\s+OBJECT\s+LOCAL\s+\S+\s+\d+\s+"
                  r"\.omp_offloading\.device_image$", out, re.M)
    addr, size = int(m.group(1), 16), int(m.group(2))
    for name, (saddr, soff, ssize) in sections(path).items():
        if saddr <= addr < saddr + ssize:
            at = soff + addr - saddr
            return open(path, "rb").read()[at:at + size]
    return b""


ATOMIC = re.compile(r"^\s+((?:global|flat|buffer)_atomic_\w+)\s.*//\s*([0-9A-Fa-f]+):")
LABEL = re.compile(r"^[0-9a-f]+ <([^>]+)>:")


def objdump_atomics(co_file):
    out = subprocess.run([OBJDUMP, "-d", "--mcpu=gfx90a", co_file],
                         capture_output=True, text=True, check=True).stdout
    found, fn = {}, None
    for line in out.splitlines():
        m = LABEL.match(line)
        if m:
            fn = m.group(1)
        elif (m := ATOMIC.match(line)) and fn:
            found.setdefault(fn, []).append((int(m.group(2), 16), m.group(1)))
    return found


def agree(exe, image, tmp):
    rc, out, err = scan("--format", "json", "--decoder", "own", exe)
    check(rc == 0, f"{os.path.basename(exe)}: scan exits 0 ({err.strip()})")
    cos = json.loads(out)["files"][0]["code_objects"]
    check(len(cos) == 1 and cos[0]["target"].startswith("gfx90a"),
          f"{os.path.basename(exe)}: one gfx90a image")
    co_file = os.path.join(tmp, "image.co")
    open(co_file, "wb").write(image)
    ref = objdump_atomics(co_file)
    kernels = cos[0]["kernels"] if cos else []
    check(kernels and all(k["name"].startswith("__omp_offloading_") for k in kernels),
          f"{os.path.basename(exe)}: kernels are target regions ({len(kernels)})")
    for k in kernels:
        ours = sorted((a["offset"], a["mnemonic"])
                      for a in k["hw_fp_atomics"] + k["int_atomics"])
        theirs = [x for x in ref.get(k["name"], []) if "cmpswap" not in x[1]]
        ncas = sum("cmpswap" in x[1] for x in ref.get(k["name"], []))
        check(ours == sorted(theirs) and k["cas"] == ncas,
              f"{os.path.basename(exe)} {k['demangled']}: same atomics as "
              f"llvm-objdump ({len(ours)} + {ncas} CAS)")
    return kernels


# Where the source has its target regions: (function, line).
src = open(SOURCE).read().splitlines()
regions = set()
fn = None
for i, line in enumerate(src, 1):
    m = re.match(r"^static \w+ \*?(\w+)\(", line)
    if m:
        fn = m.group(1)
    # Constructs that offload code (a data region or an update does not).
    if re.match(r"#pragma omp target(?! (enter |exit )?data| update)", line):
        regions.add((fn, i))

with tempfile.TemporaryDirectory() as tmp:
    for exe in NEW:
        archs, images = new_driver_images(exe)
        check(archs == ["gfx90a"] and len(images) == 1,
              f"{os.path.basename(exe)}: llvm-objdump lists one gfx90a image")
        kernels = agree(exe, images[0], tmp)
        named = {(m.group(2), int(m.group(1))) for k in kernels if (m := re.match(
            r"target region at line (\d+) in (\w+)\(\)", k["demangled"]))}
        check(named == regions, f"{os.path.basename(exe)}: every region named "
              f"by function and line ({sorted(named)} vs {sorted(regions)})")
    for exe in OLD:
        agree(exe, old_driver_image(exe), tmp)
        stripped = os.path.join(tmp, "stripped")
        subprocess.run(["strip", "-o", stripped, exe], check=True)
        rc, out, _ = scan(stripped)
        check(rc == 0 and "target region at line" in out and
              "flat_atomic_add_f64" in out, "old driver, stripped: image still found")
        # The image destroyed: an error, never "no GPU code objects".
        data = bytearray(open(stripped, "rb").read())
        at = data.find(b"\x7fELF\x02\x01", 64)
        data[at:at + 4] = b"XXXX"
        open(stripped, "wb").write(data)
        rc, out, err = scan(stripped)
        check(rc == 1 and "__tgt_register_lib" in err,
              f"OpenMP program whose image is unreadable: exit 1 ({err.strip()})")

    if not OLD:
        why = dict(i.split("=", 1) for i in os.environ.get(
            "HG_NOT_BUILT", "").split(";") if "=" in i)
        print("skip  old driver: " + why.get("omp_arraysum_old", "no program given"))
    # The f64 add's form is the compiler's (clang 15: flat_).
    rc, out, _ = scan(NEW[0])
    check(rc == 0 and re.search(r"target region at line \d+ in atomic_fine\(\)", out)
          and re.search(r"\b(flat|global)_atomic_add_f64\b", out) and "nop" in out,
          "text report: the target region with hardware FP atomics and its effect")
    rc, _, _ = scan("--fail-on", "hw-fp-atomics", NEW[0])
    check(rc == 2, "--fail-on hw-fp-atomics exits 2 on an OpenMP program")

for obj in RDC:
    listing = subprocess.run([OBJDUMP, "--offloading", obj], capture_output=True,
                             text=True, check=True).stdout
    check("producer        hip" in listing and "llvm ir" in listing,
          "llvm-objdump: the HIP object's offloading image is HIP bitcode")
    rc, out, err = scan(obj)
    check(rc == 1 and "hip-amdgcn-amd-amdhsa--gfx90a" in err and
          "LLVM bitcode" in err, f"HIP -fgpu-rdc object: exit 1, the HIP "
          f"bitcode image named ({err.strip()})")

sys.exit(1 if failures else 0)
