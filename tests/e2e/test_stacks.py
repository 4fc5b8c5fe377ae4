#!/usr/bin/env python3
"""Call sites that a thread's stack memo could confuse (hg_stacks.c): each
allocation's call site must hold the return address its program saw, and
each path (caller, recursion depth, thread) must have one call site of its
own, shared by every allocation along it.

usage: test_stacks.py HIPGRAIN PROGRAM FAKEHIP_DIR
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, fakehip = sys.argv[1:4]
API_HIP_MALLOC = 20  # common/hg_events.h
ROUNDS = 5  # hg_stacks.c
tap = hgrun.Tap()
t = hgrun.run(hipgrain, [prog], env=hgrun.fake_env(fakehip))
try:
    ev = hgtrace.hipgrain_events(t.trace)
finally:
    t.close()
lines = re.findall(r'^alloc (0x[0-9a-f]+) path=(\S+) ret=(0x[0-9a-f]+)$',
                   t.proc.stdout, re.M)
paths = collections.Counter(p for _, p, _ in lines)
want = {f'{w}/{p}': ROUNDS for w, p in
        [('main', 'a'), ('main', 'b'), ('main', 'alloca'),
         ('thread', 'a'), ('thread', 'b')]}
want.update({'main/deep0': 2, 'main/deep1': 2, 'main/deep2': 1})
tap.ok(t.proc.returncode == 0 and paths == want,
       'the program allocates along every path', (paths, t.proc.stderr))

allocs = {e['addr']: e for e in ev
          if e['event'] == 'alloc' and e['api'] == API_HIP_MALLOC}
sites = {e['id']: e['frames'] for e in ev if e['event'] == 'callsite'}
wrong = []
site_of = collections.defaultdict(set)
for ptr, path, ret in lines:
    a = allocs.get(int(ptr, 16))
    frames = sites.get(a['callsite'], []) if a else []
    site_of[path].add(a['callsite'] if a else None)
    if int(ret, 16) not in frames[1:2]:
        wrong.append((path, ret, [hex(f) for f in frames[:3]]))
tap.ok(lines and not wrong,
       'every call site holds the return address its allocation saw', wrong)
tap.ok(lines and all(len(s) == 1 for s in site_of.values()),
       'each path has one call site for all its allocations', dict(site_of))
ids = [next(iter(s)) for s in site_of.values()]
tap.ok(lines and len(set(ids)) == len(ids),
       'no two paths share a call site', dict(site_of))
sys.exit(tap.done())
