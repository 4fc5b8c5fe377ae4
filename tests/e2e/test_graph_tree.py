#!/usr/bin/env python3
"""Graphs of graphs under `hipgrain run` against the .so.6 test double
(hg_graph_tree.c): a kernel node (a hardware FP atomic add) in a clone, a
child graph, an updated executable graph, a generic (ROCm 6) node or a
capture into an existing graph is a launch at hipGraphLaunch with its
pointer resolved, and fires fp-atomic-fine-grain on fine-grained memory
but not on coarse; a disabled or destroyed node does not run; a free node
takes its allocation node's memory out of the registry when it runs.

usage: test_graph_tree.py HIPGRAIN PROGRAM BUNDLE FAKEHIP6_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog, bundle, fakehip6 = sys.argv[1:5]
API = {'hipGraphLaunch': 95, 'hipLaunchKernel': 90}
API_FREE = {'free': 229, 'free-drv': 230}
RULE = 'fp-atomic-fine-grain'
FINE = {RULE}
UAF = 'use-after-free'
# variant: (rules, what each launch's first argument points into, in order)
CASES = {
    'clone-fine': (FINE, ['fine']),
    'clone-coarse': (set(), ['coarse']),
    'clone-set': (FINE, ['fine', 'coarse']),
    'child-fine': (FINE, ['fine']),
    'child-coarse': (set(), ['coarse']),
    'child-nested': (FINE, ['fine']),
    'child-exec-set': (FINE, ['fine']),
    'disabled': (set(), []),
    'reenabled': (FINE, ['fine']),
    'destroyed': (set(), ['coarse']),
    'update': (FINE, ['fine']),
    'generic-fine': (FINE, ['fine']),
    'generic-set': (FINE, ['fine']),
    'generic-exec-set': (set(), ['coarse']),
    'with-params': (FINE, ['fine']),
    # the graph's launch into its memory, then a launch after the free:
    # a use of freed memory
    'free': ({UAF}, ['mem', None]),
    'free-drv': (FINE | {UAF}, ['mem', None]),
    'capture-to-graph': (FINE, ['coarse', 'fine']),
}


def traced(variant):
    return hgrun.run_read(hipgrain, [prog, bundle, variant],
                          hgrun.fake_env(fakehip6))


def pointers(out):
    return {w[0]: int(w[1], 16) for w in (line.split() for line in
                                        out.splitlines())
            if len(w) == 2 and w[0] in ('fine', 'coarse', 'mem')}


tap = hgrun.Tap()
for variant, (rules, want) in CASES.items():
    proc, ev, rep = traced(variant)
    tap.ok(proc.returncode == 0 and f'{variant}: done' in proc.stdout,
           f'{variant}: the program runs through', proc.stdout + proc.stderr)
    got = {f['rule'] for f in rep['findings']} if rep else None
    tap.ok(got == rules, f'{variant}: rules {sorted(rules) or "none"}',
           rep and [f['message'] for f in rep['findings']])
    ptr = pointers(proc.stdout)
    ids = {e['addr']: e['id'] for e in ev if e['event'] == 'alloc'}
    ln = [e for e in ev if e['event'] == 'launch']
    first = [(e['arg_value'][0] if e['arg_index'][:1] == [0] else None,
              e['arg_id'][0] if e['arg_index'][:1] == [0] else None)
             for e in ln]
    expect = [(ptr.get(w), ids.get(ptr.get(w)) if w else 0)
              for w in want]
    if variant.startswith('free'):  # the freed pointer resolves to nothing
        expect[1] = (ptr.get('mem'), 0)
    tap.ok(first == expect and all(e['rc'] == 0 for e in ln),
           f'{variant}: {len(want)} launch(es), argument 0 resolved to '
           f'{want}', (first, expect))
    apis = [e['api'] for e in ln]
    graph = [a == API['hipGraphLaunch'] for a in apis]
    tap.ok(graph == [True] * len(want) if not variant.startswith('free')
           else graph == [True, False],
           f'{variant}: the graph\'s launches are hipGraphLaunch\'s', apis)
    if variant in API_FREE:
        mem = ids.get(ptr.get('mem'))
        fr = [e for e in ev if e['event'] == 'free' and e['id'] == mem]
        tap.ok(mem and len(fr) == 1 and fr[0]['api'] == API_FREE[variant]
               and fr[0]['rc'] == 0,
               f'{variant}: the free node frees the allocation node\'s '
               'memory at the launch', fr)

# A launch after the free node ran allocates the memory again: each
# launch's kernel resolves to its own allocation, and frees it.
proc, ev, rep = traced('relaunch')
mem = pointers(proc.stdout).get('mem')
al = [e['id'] for e in ev if e['event'] == 'alloc' and e['addr'] == mem]
ln = [e['arg_id'][0] for e in ev if e['event'] == 'launch' and
      e['arg_index'][:1] == [0] and e['api'] == API['hipGraphLaunch']]
fr = [e['id'] for e in ev if e['event'] == 'free' and e['api'] == 229]
tap.ok(proc.returncode == 0 and mem and len(al) == 2 and ln == al and
       fr == al and not (rep or {}).get('findings'),
       'relaunch: each launch allocates, uses and frees the node\'s memory, '
       'no finding', (al, ln, fr, rep and rep['findings']))

proc, ev, rep = traced('null')
nulls = [line.split() for line in proc.stdout.splitlines()
         if line.startswith('null ')]
tap.ok(proc.returncode == 0 and len(nulls) == 6,
       'null: six calls with NULL arguments', proc.stdout + proc.stderr)
for _, api, rc in nulls:
    c = [e for e in ev if e['event'] == 'call' and e['api'] == int(api)]
    tap.ok(int(rc) != 0 and len(c) == 1 and c[0]['rc'] == int(rc),
           f'null: api {api}: the runtime\'s error {rc} is recorded', c)
sys.exit(tap.done())
