# SPDX-License-Identifier: MIT
"""make_table.py PRELOAD.so SYMBOLS.tsv... > entrypoints.tsv

Writes the entry-point table from the committed symbol lists and the built
preload's exports.  Rows already in the table keep a hand-written status
(a 'not relevant: why' line); new rows are 'interposed' when the preload
exports them and 'not interposed yet' otherwise.  Review the diff."""
import os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hg_entrypoints import category, read_symbols

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "entrypoints.tsv")


def exports(so):
    out = subprocess.run(["nm", "-D", "--defined-only", so], check=True,
                         capture_output=True, text=True).stdout
    return {l.split()[2].split("@")[0] for l in out.splitlines()
            if len(l.split()) == 3}


def main():
    pre = exports(sys.argv[1])
    old = {}
    if os.path.exists(TABLE):
        for l in open(TABLE):
            if l.startswith("#") or not l.strip():
                continue
            f = l.rstrip("\n").split("\t")
            old[f[0]] = f[3]
    rel = {}
    for path in sys.argv[2:]:
        r = re.search(r"symbols-(.*)\.tsv", path).group(1)
        for n in read_symbols(path):
            if category(n):
                rel.setdefault(n, []).append(r)
    print("# name\tcategory\treleases\tstatus")
    for n in sorted(rel):
        st = "interposed" if n in pre else old.get(n, "not interposed yet")
        if st == "interposed" and n not in pre:
            st = "not interposed yet"
        print(f"{n}\t{category(n)}\t{','.join(sorted(rel[n]))}\t{st}")


main()
