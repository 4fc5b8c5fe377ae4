# SPDX-License-Identifier: MIT
"""test_entrypoints.py PRELOAD.so TABLE.tsv SYMBOLS.tsv... (TAP)

The entry-point table against the releases and the built preload, both
ways: every allocation/free/copy/set/prefetch/advice/launch/graph/VM/pool
function of each committed symbol list, and of the libamdhip64 installed
where the suite runs, has a row; a row is 'interposed' exactly when the
preload exports it."""
import glob, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hg_entrypoints import category, read_symbols

STATUS = re.compile(r"^(interposed|not interposed yet|not relevant: .+)$")
results = []


def check(ok, what, detail=""):
    results.append((ok, what, detail))


def exports(so):
    out = subprocess.run(["nm", "-D", "--defined-only", so], check=True,
                         capture_output=True, text=True).stdout
    return {f[2].split("@")[0] for f in (l.split() for l in out.splitlines())
            if len(f) == 3}


def read_table(path):
    rows = {}
    for l in open(path):
        if l.startswith("#") or not l.strip():
            continue
        f = l.rstrip("\n").split("\t")
        rows[f[0]] = f
    return rows


def installed_hip():
    for d in ("/usr/lib/x86_64-linux-gnu", "/opt/rocm/lib"):
        for v in ("6", "5"):
            p = os.path.join(d, "libamdhip64.so." + v)
            if os.path.exists(p):
                return p
    return None


def main():
    pre, table = exports(sys.argv[1]), read_table(sys.argv[2])
    listed = set()
    for path in sys.argv[3:]:
        rel = re.search(r"symbols-(.*)\.tsv", path).group(1)
        syms = read_symbols(path)
        listed |= syms
        miss = sorted(n for n in syms if category(n) and n not in table)
        check(not miss, f"release {rel}: every relevant function has a row",
              " ".join(miss))
        wrong = sorted(n for n, f in table.items()
                       if rel in f[2].split(",") and n not in syms)
        check(not wrong, f"release {rel}: rows naming it are exported by it",
              " ".join(wrong))
    bad = sorted(n for n, f in table.items()
                 if len(f) != 4 or not STATUS.match(f[3])
                 or f[1] != category(n))
    check(not bad, "every row has a known status and its rule's category",
          " ".join(bad))
    said = sorted(n for n, f in table.items()
                  if f[3] == "interposed" and n not in pre)
    check(not said, "rows marked interposed are exported by the preload",
          " ".join(said))
    unsaid = sorted(n for n in pre & listed
                    if category(n) and table.get(n, [""] * 4)[3] != "interposed")
    check(not unsaid, "relevant preload exports are rows marked interposed",
          " ".join(unsaid))
    lib = installed_hip()
    if lib:
        miss = sorted(n for n in exports(lib) if category(n) and n not in table)
        check(not miss, f"installed {lib}: every relevant function has a row",
              " ".join(miss))
    print(f"1..{len(results)}")
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        if not ok:
            print(f"# missing or wrong: {detail}")
    if not lib:
        print("# no libamdhip64 installed here: the installed-release check did not run")
    return 0 if all(r[0] for r in results) else 1


sys.exit(main())
