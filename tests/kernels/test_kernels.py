#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests for the kernels/ programs and the tests/fakehip test double.

  test_kernels.py fake    KERNELS_DIR FAKEHIP_DIR VARIANTS_TSV
  test_kernels.py real    KERNELS_DIR VARIANTS_TSV
  test_kernels.py abi     FAKEHIP_LIB READELF
  test_kernels.py every   FAKEHIP_LIB SYMS STUBS_C READELF
  test_kernels.py atomics KERNELS_DIR LLVM_OBJDUMP

TAP output; exit 0 when every check passed, 1 otherwise, 77 (skip) where
the machine cannot run a check.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import hgrun  # noqa: E402

FAILED = 0
COUNT = 0


def check(ok, what, detail=""):
    global FAILED, COUNT
    COUNT += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (COUNT, what))
    if not ok:
        FAILED += 1
        for line in str(detail).splitlines():
            print("#   " + line)
    return ok


def skip(what, why):
    global COUNT
    COUNT += 1
    print("ok %d - %s # SKIP %s" % (COUNT, what, why))


def finish():
    print("1..%d" % COUNT)
    sys.exit(1 if FAILED else 0)


def variants(path):
    """Rows of variants.tsv: (program, argv list, xnack, rules, fake outcome)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            prog, args, xnack, rules, fake = line.rstrip("\n").split("\t")[:5]
            argv = [] if args == "-" else args.split(" ")
            rows.append((prog, argv, xnack, rules, fake))
    return rows


def hip_only(rows):
    """The HIP programs' rows: the OpenMP ones (omp_*) never call HIP; their
    runs are checked by the e2e suite (tests/e2e/test_omp_same.py)."""
    return [r for r in rows if not r[0].startswith("omp_")]


def env_for(xnack, libdir=None, extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("HSA_XNACK", "LD_LIBRARY_PATH", "LD_PRELOAD",
                        "HGFAKE_ARCH", "HGFAKE_LOG")}
    if xnack in ("0", "1"):
        env["HSA_XNACK"] = xnack
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    env.update(extra or {})
    return env


def run(kdir, prog, argv, env):
    return subprocess.run([os.path.join(kdir, prog)] + argv, env=env,
                          capture_output=True, text=True, timeout=120)


def result_word(prog):
    """The first word of a program's result line."""
    return re.sub(r"_(cas|unsafe|fastflag)$", "", prog)


def describe(p):
    return "rc=%s\nstdout: %s\nstderr: %s" % (p.returncode, p.stdout, p.stderr)


def test_fake(kdir, fakedir, tsv):
    rows = variants(tsv)
    for prog, argv, xnack, _rules, fake in hip_only(rows):
        name = "%s %s (HSA_XNACK=%s) under fakehip" % (prog, " ".join(argv), xnack)
        p = run(kdir, prog, argv, env_for(xnack, fakedir))
        if fake == "abort":
            # free() on hipMalloc memory: glibc must refuse it, visibly
            # (which of its checks catches it depends on the glibc: 2.36
            # says "invalid pointer", 2.43 "invalid size").
            check(p.returncode == -6
                  and re.search(r"free\(\): invalid (pointer|size)", p.stderr)
                  and "calling free()" in p.stdout, name + " aborts in free()",
                  describe(p))
            continue
        last = p.stdout.strip().splitlines()[-1:] or [""]
        check(p.returncode == 0 and last[0].split(" ")[0].rstrip(":") == result_word(prog)
              and p.stderr == "", name + " exits 0 with its result line",
              describe(p))
    # What meson could not build here (HG_NOT_BUILT, "name=why;..."): skipped.
    missing = dict(i.split("=", 1) for i in os.environ.get(
        "HG_NOT_BUILT", "").split(";") if "=" in i)
    for prog in sorted({r[0] for r in rows}):
        if prog in missing:
            skip(prog + ": a bad variant exits 2 with usage",
                 "not built: " + missing[prog])
            continue
        p = run(kdir, prog, ["no-such-variant"], env_for("*", fakedir))
        why = hgrun.omp_fatal(p)
        if why:
            skip(prog + ": a bad variant exits 2 with usage", why)
            continue
        check(p.returncode == 2 and p.stderr.startswith("usage: ")
              and p.stdout == "", prog + ": a bad variant exits 2 with usage",
              describe(p))

    # The launch reaches the runtime with the registered kernel's name.
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "log")
        p = run(kdir, "misuse", ["use-after-free"],
                env_for("*", fakedir, {"HGFAKE_LOG": log}))
        text = open(log).read() if os.path.exists(log) else ""
        launches = re.findall(r"^hipLaunchKernel .*kernel=_Z5scalePffi .*-> hipSuccess$",
                              text, re.M)
        check(p.returncode == 0 and len(launches) == 2,
              "HGFAKE_LOG records both launches of misuse use-after-free", text)
        frees = re.findall(r"^hipFree ptr=(\S+) -> hipSuccess$", text, re.M)
        check(len(frees) == 1 and text.rfind("hipLaunchKernel") > text.find("hipFree "),
              "HGFAKE_LOG shows the second launch after the hipFree", text)

    # HGFAKE_ARCH=none behaves like the real library without a GPU.
    p = run(kdir, "vectoradd", ["hipmalloc"], env_for("*", fakedir, {"HGFAKE_ARCH": "none"}))
    check(p.returncode == 1 and p.stderr == "hipMalloc failed: hipErrorInvalidDevice\n",
          "HGFAKE_ARCH=none: hipMalloc fails with hipErrorInvalidDevice", describe(p))
    finish()


def test_real(kdir, tsv):
    if os.path.exists("/dev/kfd"):
        print("1..0 # SKIP a ROCm device is present; this checks the no-GPU path")
        sys.exit(77)
    seen = set()
    # Which "no GPU" answer depends on the release and the call (ROCm 5.2:
    # hipErrorInvalidDevice; 5.7: hipErrorNoDevice from a launch,
    # hipErrorInvalidDevice from the rest; 6: hipErrorNoDevice): the first
    # program failing in a call tells which, and every program failing in
    # that call must then give the same answer.
    nogpu = {}
    for prog, argv, xnack, _rules, _fake in hip_only(variants(tsv)):
        if (prog, tuple(argv)) in seen:
            continue
        seen.add((prog, tuple(argv)))
        p = run(kdir, prog, argv, env_for(xnack))
        m = re.fullmatch(r"(hip\w+) failed: (hipError\w+)\n", p.stderr)
        if m and m.group(2) in ("hipErrorInvalidDevice", "hipErrorNoDevice"):
            nogpu.setdefault(m.group(1), m.group(2))
        check(p.returncode == 1 and m is not None
              and m.group(2) == nogpu.get(m.group(1)) and p.stdout == "",
              "%s %s with the real libamdhip64 (no GPU) fails: %s" %
              (prog, " ".join(argv), m.group(0).strip() if m else "?"), describe(p))
    finish()


def real_library():
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*libamdhip64\.so\.5 \(.*x86-64.*\) => (\S+)", line)
        if m:
            return m.group(1)
    return None


def versioned_symbols(readelf, lib):
    """{name: version} for the defined dynamic symbols of lib."""
    out = subprocess.run([readelf, "--dyn-syms", "-W", lib], capture_output=True,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(":") or f[6] == "UND":
            continue
        name, _, version = f[7].replace("@@", "@").partition("@")
        if f[4] in ("GLOBAL", "WEAK"):
            syms[name] = version
    return syms


def error_names(lib):
    code = ("import ctypes,sys\n"
            "l=ctypes.CDLL(sys.argv[1]); f=l.hipGetErrorName; f.restype=ctypes.c_char_p\n"
            "g=l.hipGetErrorString; g.restype=ctypes.c_char_p\n"
            "for c in list(range(0,1100)):\n"
            "  print(c, f(c).decode(), g(c).decode())\n")
    return subprocess.run([sys.executable, "-c", code, lib], capture_output=True,
                          text=True, check=True, timeout=60).stdout


def test_abi(fake, readelf):
    real = real_library()
    if not real:
        print("1..0 # SKIP no libamdhip64.so.5 on this machine")
        sys.exit(77)
    dyn = subprocess.run([readelf, "-d", fake], capture_output=True, text=True).stdout
    check("Library soname: [libamdhip64.so.5]" in dyn, "fakehip's soname is libamdhip64.so.5", dyn)
    mine, theirs = versioned_symbols(readelf, fake), versioned_symbols(readelf, real)
    bad = ["%s@%s (real: %s)" % (n, v or "<none>", theirs.get(n, "absent"))
           for n, v in sorted(mine.items()) if theirs.get(n) != v]
    check(len(mine) >= 70 and not bad,
          "each of fakehip's %d exported symbols exists with the same version in %s"
          % (len(mine), real), "\n".join(bad))
    needed = set()
    for prog_syms in ("hipMalloc", "hipLaunchKernel", "__hipRegisterFatBinary",
                      "__hipPushCallConfiguration", "hipMemAdvise", "hipMallocAsync"):
        needed.add(prog_syms)
    check(needed <= set(mine), "fakehip exports the registration and launch entry points",
          sorted(needed - set(mine)))
    a, b = error_names(fake), error_names(real)
    names = [(x.split()[:2], y.split()[:2], x, y)
             for x, y in zip(a.splitlines(), b.splitlines())]
    diff = [x + "  |  " + y for n, m, x, y in names if n != m]
    check(a and len(names) == 1100 and not diff,
          "hipGetErrorName agrees with the real library for codes 0-1099",
          "\n".join(diff[:20]))
    # ROCm 5.2's hipGetErrorString returns the name, as the double does;
    # later releases return a sentence of their own, which the double does
    # not copy: there, each string is at least the code's name.
    if b.splitlines()[1].split()[1:] == b.splitlines()[1].split()[1:2] * 2:
        diff = [x + "  |  " + y for n, m, x, y in names if x != y]
        check(not diff, "hipGetErrorString agrees with the real library too",
              "\n".join(diff[:20]))
    else:
        odd = [x for n, m, x, y in names if x.split()[1:] != x.split()[1:2] * 2]
        check(not odd, "hipGetErrorString is the name (this release's runtime "
              "answers sentences, which the double does not copy)", "\n".join(odd[:20]))
    finish()


def test_every(fake, syms_path, stubs_c, readelf):
    """The double answers every entry point of its release, under the
    release's version, and its generated stubs answer "not supported"."""
    want = {}
    for line in open(syms_path):
        f = line.split()
        if len(f) == 2:
            want[f[0]] = f[1]
    mine = versioned_symbols(readelf, fake)
    missing = ["%s@%s" % (n, v) for n, v in sorted(want.items()) if mine.get(n) != v]
    extra = sorted(n for n in mine if n not in want and n not in mine.values())
    check(not missing, "every one of the %d functions of %s is exported under its version"
          % (len(want), os.path.basename(syms_path)), "\n".join(missing[:40]))
    check(not extra, "nothing else is exported", "\n".join(extra[:40]))
    stubs = re.findall(r"^FH_STUB hipError_t (\w+)\(void\);", open(stubs_c).read(), re.M)
    code = ("import ctypes,sys\n"
            "l=ctypes.CDLL(sys.argv[1])\n"
            "for n in sys.argv[2:]:\n"
            "  print(n, getattr(l, n)())\n")
    out = subprocess.run([sys.executable, "-c", code, fake] + stubs, capture_output=True,
                         text=True, timeout=60)
    answers = dict(l.split() for l in out.stdout.splitlines())
    wrong = ["%s -> %s" % (n, answers.get(n, "no answer")) for n in stubs
             if answers.get(n) != "801"]
    check(len(stubs) > 50 and not wrong and out.returncode == 0,
          "each of the %d generated entry points answers hipErrorNotSupported (801)" % len(stubs),
          "\n".join(wrong[:40]) + out.stderr)
    finish()


def elf_section(path, wanted):
    """The bytes of section `wanted` of a 64-bit little-endian ELF file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("%s: not a 64-bit little-endian ELF file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    def header(i):
        return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    for i in range(shnum):
        name_off, _, _, _, off, size = header(i)
        start = strtab[4] + name_off
        name = data[start:data.index(b"\0", start)].decode()
        if name == wanted:
            return data[off:off + size]
    raise ValueError("%s: no %s section" % (path, wanted))


def bundle_entries(blob):
    """{target triple: code object bytes} of a clang offload bundle."""
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    if not blob.startswith(magic):
        raise ValueError("not a clang offload bundle")
    n, = struct.unpack_from("<Q", blob, len(magic))
    pos, entries = len(magic) + 8, {}
    for _ in range(n):
        off, size, tlen = struct.unpack_from("<QQQ", blob, pos)
        triple = blob[pos + 24:pos + 24 + tlen].decode()
        pos += 24 + tlen
        entries[triple] = blob[off:off + size]
    return entries


FP_HW = re.compile(r"\b(global|flat|buffer)_atomic_(pk_)?(add|min|max)_(f16|bf16|f32|f64)\b")
CAS = re.compile(r"\b(global|flat|buffer)_atomic_cmpswap(_x2)?\b")

# What kernels/arraysum.hip's top comment claims, per program and arch
# (MI300: gfx940, or gfx942 where LLVM has no gfx940).  A tuple: the one
# instruction may be any of these, as the release's compiler chooses (for
# the same hardware f64 add on gfx90a, hipcc 5.2 emits the flat_ form and
# hipcc 7 the global_ one).
MI300 = os.environ.get("HG_MI300_ARCH", "gfx940")
ATOMIC_CLAIMS = {
    "arraysum_cas": {"gfx908": "global_atomic_cmpswap", "gfx90a": "global_atomic_cmpswap",
                     MI300: "global_atomic_add_f32"},
    "arraysum_unsafe": {"gfx908": "global_atomic_cmpswap_x2",
                        "gfx90a": ("flat_atomic_add_f64", "global_atomic_add_f64"),
                        MI300: "global_atomic_add_f64"},
    "arraysum_fastflag": {"gfx908": "global_atomic_add_f32", "gfx90a": "global_atomic_add_f32",
                          MI300: "global_atomic_add_f32"},
}


def test_atomics(kdir, objdump):
    with tempfile.TemporaryDirectory() as tmp:
        for prog, claims in ATOMIC_CLAIMS.items():
            entries = bundle_entries(elf_section(os.path.join(kdir, prog), ".hip_fatbin"))
            for arch, claim in claims.items():
                co = entries.get("hipv4-amdgcn-amd-amdhsa--" + arch)
                if not check(co is not None, "%s has a %s code object" % (prog, arch),
                             sorted(entries)):
                    continue
                path = os.path.join(tmp, "%s.%s.co" % (prog, arch))
                with open(path, "wb") as f:
                    f.write(co)
                text = subprocess.run([objdump, "-d", "--mcpu=" + arch, path],
                                      capture_output=True, text=True, check=True).stdout
                atomics = sorted(set(m.group(0) for m in re.finditer(
                    r"\b(global|flat|buffer)_atomic_\w+", text)))
                alts = claim if isinstance(claim, tuple) else (claim,)
                mnemonic = atomics[0] if len(atomics) == 1 and atomics[0] in alts else alts[0]
                hw = bool(FP_HW.search(mnemonic))
                only = atomics == [mnemonic]
                cls = "hardware FP atomic" if hw else "CAS loop"
                check(only and bool(FP_HW.search(text)) == hw and bool(CAS.search(text)) != hw,
                      "%s %s: exactly %s (%s)" % (prog, arch, mnemonic, cls),
                      "atomics found: %s" % atomics)
    finish()


def main():
    cmds = {"fake": (test_fake, 3), "real": (test_real, 2), "abi": (test_abi, 2),
            "every": (test_every, 4),
            "atomics": (test_atomics, 2)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or len(sys.argv) != 2 + cmds[sys.argv[1]][1]:
        sys.stderr.write(__doc__)
        sys.exit(64)
    fn, _ = cmds[sys.argv[1]]
    fn(*sys.argv[2:])


if __name__ == "__main__":
    main()
