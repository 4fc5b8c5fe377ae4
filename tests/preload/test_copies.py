#!/usr/bin/env python3
"""Copies and sets beyond the plain forms (hg_copies.c) under `hipgrain run`
against the test double: each call is one memcpy or memset event with the
pointers, size, direction, stream and return code the program's arguments
mean, NULL and zero-size calls included; and every return code is the one
the program gets without hipgrain.

usage: test_copies.py HIPGRAIN PROGRAM FAKEHIP_DIR [MODE]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, fakehip = sys.argv[1:4]
mode = sys.argv[4:5]
API_HIP_MALLOC = 20  # common/hg_events.h
MEM_DEVICE = 1
tap = hgrun.Tap()
LINE = re.compile(r'^(memcpy|memset) (.+?) ((?:\w+=-?\d+ ?)+)$', re.M)


def calls(out):
    return [(kind, name, {k: int(v) for k, v in
                          (f.split('=') for f in fields.split())})
            for kind, name, fields in LINE.findall(out)]


plain = subprocess.run([prog] + mode, env=hgrun.fake_env(fakehip),
                       capture_output=True, text=True, timeout=60)
t = hgrun.run(hipgrain, [prog] + mode, env=hgrun.fake_env(fakehip))
try:
    ev = hgtrace.hipgrain_events(t.trace)
finally:
    t.close()
want = calls(t.proc.stdout)
tap.ok(plain.returncode == 0 and t.proc.returncode == 0 and want,
       f'the program runs, with and without hipgrain ({len(want)} calls)',
       plain.stderr + t.proc.stderr)
tap.ok([(n, c['rc']) for _, n, c in calls(plain.stdout)] ==
       [(n, c['rc']) for _, n, c in want],
       'every return code is the one the program gets without hipgrain',
       (plain.stdout, t.proc.stdout))
got = [e for e in ev if e['event'] in ('memcpy', 'memset')]
tap.ok(len(got) == len(want), f'one event per call ({len(got)})',
       [(e['event'], e['api']) for e in got])
for (kind, name, fields), e in zip(want, got):
    diff = {k: (v, e.get(k)) for k, v in fields.items() if e.get(k) != v}
    tap.ok(e['event'] == kind and not diff,
           f'{name}: {kind} event as its arguments mean', (e['event'], diff))
# The device side resolves to the program's hipMalloc block.
dev = [e for e in ev if e['event'] == 'alloc' and e['api'] == API_HIP_MALLOC]
to_dev = [e for e in got if e['event'] == 'memcpy' and e['kind'] == 1 and
          dev and dev[0]['addr'] <= e['dst'] < dev[0]['addr'] + dev[0]['size']]
tap.ok(dev and to_dev and all(e['dst_id'] == dev[0]['id'] and
                              e['dst_mem'] == MEM_DEVICE for e in to_dev),
       f'{len(to_dev)} copies into the hipMalloc block resolve to it',
       [(e['api'], e['dst_id'], e['dst_mem']) for e in to_dev])
sys.exit(tap.done())
