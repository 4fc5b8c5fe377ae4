#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The entry-point table (preload/entries/entries.tsv) against the releases'
libamdhip64 symbol lists (preload/entries/*.syms), the libamdhip64 this
suite runs against, and what the built preload exports.  A new release's new
allocation, copy, launch, graph, pool or virtual-memory function fails here
until the table says what hipgrain does with it.

usage: test_entries.py PRELOAD_SO ENTRIES_DIR
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from hg_entries import category  # noqa: E402

preload, entries_dir = sys.argv[1:3]
n = 0
failed = 0


def ok(cond, what, detail=None):
    global n, failed
    n += 1
    print(('ok' if cond else 'not ok') + f' {n} - {what}')
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:40]:
            print(f'#   {line}')


def functions(nm_out):
    """Defined function names of `nm -D --defined-only` output."""
    out = set()
    for line in nm_out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TW':
            out.add(f[2].split('@')[0])
    return out


def nm(path):
    return subprocess.run(['nm', '-D', '--defined-only', path], check=True,
                          capture_output=True, text=True).stdout


rows = {}
for line in open(os.path.join(entries_dir, 'entries.tsv')):
    if line.startswith('#') or line.startswith('name\t'):
        continue
    name, cat, status, why = line.rstrip('\n').split('\t')
    rows[name] = (cat, status, why)

releases = {os.path.basename(p)[:-5]: {l.split()[0] for l in open(p)}
            for p in sorted(glob.glob(os.path.join(entries_dir, '*.syms')))}
ok(len(releases) >= 3, f'symbol lists of {len(releases)} releases',
   sorted(releases))

ok(all(s in ('interposed', 'not-relevant', 'missing')
       for _, s, _ in rows.values()), 'every status is one of three')
ok(all(w.strip() and w != '-' for _, s, w in rows.values()
       if s != 'interposed'), 'every row not interposed says why',
   [k for k, (_, s, w) in rows.items() if s != 'interposed' and w == '-'])
ok(all(category(k) == c for k, (c, _, _) in rows.items()),
   'each row\'s category is the one its name gets',
   [(k, c, category(k)) for k, (c, _, _) in rows.items()
    if category(k) != c])

for rel, syms in sorted(releases.items()):
    relevant = {s for s in syms if category(s)}
    absent = sorted(relevant - set(rows))
    ok(not absent, f'{rel}: all {len(relevant)} relevant functions are in '
       'the table', absent)
    st = [rows[s][1] for s in relevant if s in rows]
    print(f'# {rel}: {len(syms)} functions, {len(relevant)} relevant: '
          f'{st.count("interposed")} interposed, '
          f'{st.count("not-relevant")} not relevant, '
          f'{st.count("missing")} missing')

everywhere = set().union(*releases.values())
stale = sorted(k for k in set(rows) - everywhere if rows[k][1] != 'interposed')
ok(not stale, 'every row is a function of a tested release (or one the '
   'preload interposes ahead of them)', stale)

exported = functions(nm(preload))
ours = {s for s in exported if category(s)}
ok(all(rows.get(s, ('', ''))[1] == 'interposed' for s in ours),
   f'every relevant function the preload exports ({len(ours)}) is a row '
   'marked interposed',
   sorted(s for s in ours if rows.get(s, ('', ''))[1] != 'interposed'))
ok(all(k in exported for k, (_, s, _) in rows.items() if s == 'interposed'),
   'every row marked interposed is exported by the preload',
   sorted(k for k, (_, s, _) in rows.items()
          if s == 'interposed' and k not in exported))

# The libamdhip64 this suite runs against: a release the lists do not have
# yet (a chroot of a newer one) must not slip by.
libs = [p for p in ('/usr/lib/x86_64-linux-gnu/libamdhip64.so.6',
                    '/usr/lib/x86_64-linux-gnu/libamdhip64.so.5',
                    '/opt/rocm/lib/libamdhip64.so')
        if os.path.exists(p)]
for lib in libs[:1]:
    here = {s for s in functions(nm(lib)) if category(s)}
    absent = sorted(here - set(rows))
    ok(not absent, f'{lib}: all {len(here)} relevant functions are in the '
       'table (a new release: add its list with gen_syms.sh and its rows)',
       absent)

print(f'1..{n}')
sys.exit(1 if failed else 0)
