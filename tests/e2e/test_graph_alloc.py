#!/usr/bin/env python3
"""A graph allocation node under `hipgrain run` against the .so.6 test
double: its memory is an allocation (api hipGraphAddMemAllocNode) with the
granularity its pool properties give, freed by hipFree.

usage: test_graph_alloc.py HIPGRAIN PROGRAM FAKEHIP6_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, fakehip6 = sys.argv[1:4]
API_GRAPH_MEM_ALLOC = 35  # common/hg_events.h
GRAN = {'device': (1, 'coarse'), 'host': (2, 'fine')}
tap = hgrun.Tap()
for where, (gran, name) in GRAN.items():
    t = hgrun.run(hipgrain, [prog, where], env=hgrun.fake_env(fakehip6))
    try:
        ev = hgtrace.hipgrain_events(t.trace)
        _, rep = hgrun.report(hipgrain, t.trace, '--inventory')
    finally:
        t.close()
    tap.ok(t.proc.returncode == 0 and '-> hipSuccess' in t.proc.stdout,
           f'{where}: the node is added and its memory freed',
           t.proc.stdout + t.proc.stderr)
    al = [e for e in ev if e['event'] == 'alloc' and
          e['api'] == API_GRAPH_MEM_ALLOC]
    tap.ok(len(al) == 1 and al[0]['rc'] == 0 and al[0]['size'] == 8192 and
           al[0]['gran'] == gran and al[0]['addr'] and
           f'ptr={al[0]["addr"]:#x}' in t.proc.stdout,
           f'{where}: one allocation of the node\'s pointer, {name}', al)
    fr = [e for e in ev if e['event'] == 'free' and al and
          e['id'] == al[0]['id']]
    tap.ok(len(fr) == 1 and not (rep or {}).get('findings'),
           f'{where}: freed by hipFree, no finding',
           (fr, rep and rep['findings']))
    inv = (rep or {}).get('inventory', {}).get('by_allocator', [])
    tap.ok(any(b['api'] == 'hipGraphAddMemAllocNode' and
               b['granularity'] == name for b in inv),
           f'{where}: the inventory has hipGraphAddMemAllocNode, {name}', inv)
sys.exit(tap.done())
