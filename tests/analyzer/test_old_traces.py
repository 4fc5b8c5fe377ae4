#!/usr/bin/env python3
"""Traces written by earlier releases still read, with the findings each
release reported.  fixtures/schema1: three kernels/ programs traced by
`hipgrain run` against the test double, before the trace layout changed
(vtid/ip/procname contexts, six launch sequences); fixtures/schema2: the
same programs traced by the release before schema 3 (named alloc and free
fields, the launch's `args` sequence); fixtures/schema3: the same, by
906fe30, the last release of schema 3 (alloc, free and launch as words,
before schema 4 wrote them as bytes); fixtures/schema4: the same, by
88fe06e, the last release of schema 4 (before schema 5 wrote a launch's
dimensions, argument indexes and codes, and a free's address, in fewer
bytes); fixtures/schema5: the same, by 81be365, the last release of schema
5 (before schema 6 wrote the bytes that fit a size as that size's event);
fixtures/schema6: the same, by d507ded, the last release of schema 6
(before schema 7 wrote the bytes as 32-bit elements); fixtures/schema8:
the same, by 2f520de, the last release of schema 8 (32-bit elements, in
sized arrays and sequences, before schema 9 wrote them as text);
fixtures/schema9: the same, by cbf060c, the last release of schema 9
(alloc, free and launch as text, before schema 10 wrote a memcpy's values
as text too), with async_copy's pageable copies, whose findings come
from the memcpy events alone.  Call
site frames are left out of
the comparison: they are symbolised from the binaries named in the trace,
which exist only where the fixture was made.

usage: test_old_traces.py HIPGRAIN FIXTURES_DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

SUMMARY = ('findings', 'errors', 'warnings', 'notes', 'processes', 'events',
           'hipgrain_events', 'traces_read', 'partial')


def comparable(rep):
    fs = []
    for f in rep['findings']:
        a = dict(f.get('allocation') or {})
        a.pop('callsite', None)
        a.pop('site', None)  # a frame of callsite
        fs.append({'rule': f['rule'], 'severity': f['severity'],
                   'count': f['count'], 'message': f['message'],
                   'kernel': f.get('kernel'), 'allocation': a,
                   'process': f['where']['process'],
                   'vpid': f['where']['vpid']})
    return {'findings': fs,
            'summary': {k: rep['summary'][k] for k in SUMMARY}}


hipgrain, fixtures = sys.argv[1:3]
tap = hgrun.Tap()
expected = json.load(open(os.path.join(fixtures, 'expected.json')))
for name in sorted(expected):
    rc, rep = hgrun.report(hipgrain, os.path.join(fixtures, name))
    got = comparable(rep) if rep else None
    tap.ok(rc == 0 and got == expected[name],
           f'{name}: {os.path.basename(fixtures)} trace reads with its findings',
           json.dumps({'rc': rc, 'got': got, 'want': expected[name]},
                      indent=1, sort_keys=True))
sys.exit(tap.done())
