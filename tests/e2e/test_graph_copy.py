#!/usr/bin/env python3
"""A graph's copy and set nodes in every form (hg_graph_copy.c) under
`hipgrain run` against the .so.6 test double: at the graph's launch, each
node is one asynchronous copy or one set (api hipGraphLaunch) with the
pointers and size it was last given before instantiation, or in the
executable graph; nothing else, and nothing before the launch.  Calls with
NULL arguments are recorded with the runtime's error.

usage: test_graph_copy.py HIPGRAIN PROGRAM FAKEHIP6_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, fakehip6 = sys.argv[1:4]
API_GRAPH_LAUNCH = 95  # common/hg_events.h
tap = hgrun.Tap()
t = hgrun.run(hipgrain, [prog], env=hgrun.fake_env(fakehip6))
try:
    ev = hgtrace.hipgrain_events(t.trace)
finally:
    t.close()
out = t.proc.stdout.split('\n')
tap.ok(t.proc.returncode == 0, 'the program runs through',
       t.proc.stdout + t.proc.stderr)

want_cp = collections.Counter(
    (int(d, 16), int(s, 16), int(n), int(k)) for _, d, s, n, k in
    (line.split() for line in out if line.startswith('copy ')))
want_set = collections.Counter(
    (int(d, 16), int(n), int(v)) for _, d, n, v in
    (line.split() for line in out if line.startswith('set ')))
cp = [e for e in ev if e['event'] == 'memcpy']
st = [e for e in ev if e['event'] == 'memset']
got_cp = collections.Counter((e['dst'], e['src'], e['size'], e['kind'])
                             for e in cp)
got_set = collections.Counter((e['dst'], e['size'], e['value']) for e in st)
tap.ok(len(want_cp) == 11 and len(want_set) == 3,
       'the program names 11 copies and 3 sets', (want_cp, want_set))
tap.ok(got_cp == want_cp,
       'each copy node is one copy at the launch, with its last pointers, '
       'size and kind', sorted((got_cp - want_cp) + (want_cp - got_cp)))
tap.ok(got_set == want_set,
       'each set node is one set at the launch, with its last pointer, '
       'size and value', sorted((got_set - want_set) + (want_set - got_set)))
tap.ok(all(e['api'] == API_GRAPH_LAUNCH and e['rc'] == 0 for e in cp + st)
       and all(e['async'] == 1 for e in cp),
       'all of them the launch\'s (api hipGraphLaunch), asynchronous',
       [(e['api'], e['rc']) for e in cp + st])
launch = [i for i, e in enumerate(ev) if e['event'] == 'call' and
          e['api'] == API_GRAPH_LAUNCH]
first = min(i for i, e in enumerate(ev) if e['event'] in ('memcpy', 'memset')) \
    if cp + st else -1
tap.ok(len(launch) == 1 and first > launch[0],
       'nothing is copied or set before the launch', (launch, first))
dev = [e for e in ev if e['event'] == 'alloc' and e['size'] == 16384]
into = [e for e in cp + st if dev and
        dev[0]['addr'] <= e['dst'] < dev[0]['addr'] + 16384]
tap.ok(len(into) == 10 and all(e['dst_id'] == dev[0]['id'] for e in into),
       'the 10 nodes\' device pointers resolve to the hipMalloc', (dev, into))

nulls = [line.split() for line in out if line.startswith('null ')]
for _, api, rc in nulls:
    c = [e for e in ev if e['event'] == 'call' and e['api'] == int(api)
         and e['rc'] != 0]
    tap.ok(int(rc) != 0 and len(c) == 1 and c[0]['rc'] == int(rc),
           f'api {api} with NULL arguments: the runtime\'s error {rc} is '
           'recorded', c)
tap.ok(len(nulls) == 3, 'three calls with NULL arguments', nulls)
sys.exit(tap.done())
