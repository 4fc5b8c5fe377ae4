#!/usr/bin/env python3
"""The fast reading of a trace writes the same report as the reference
reading (every value through its own field's class, one array element at
a time, asking nothing of the event class: an_read_reference; every frame
of a call site named, even where only the site is shown:
an_sym_every_frame):
text, JSON and SARIF, byte for byte, on every kernels/ program and variant
traced by `hipgrain run` against the test double, and on the committed
traces of each earlier schema.

usage: test_read_same.py REPORT_REF HIPGRAIN KERNELS_DIR FAKEHIP_DIR
                         VARIANTS_TSV FIXTURES_DIR
"""
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

report_ref, hipgrain, kdir, fakehip, table, fixtures = sys.argv[1:7]
FORMATS = ('text', 'json', 'sarif')


def differs(trace):
    """The formats whose two readings differ, or whose reading failed."""
    bad = []
    for fmt in FORMATS:
        out = [subprocess.run([report_ref] + ref + [fmt, trace],
                              capture_output=True, timeout=120)
               for ref in ([], ['--reference'])]
        if out[0].returncode or out[1].returncode or \
                out[0].stdout != out[1].stdout or not out[0].stdout:
            bad.append(fmt)
    return bad


def variant(row):
    prog, args, xnack = row[:3]
    xn = None if xnack in ('0', '*') else xnack
    name = f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'
    try:
        t = hgrun.run(hipgrain, [os.path.join(kdir, prog)] + args,
                      env=hgrun.fake_env(fakehip, xn))
    except subprocess.TimeoutExpired as e:
        return name, [f'hung: {e}']
    try:
        return name, differs(t.trace)
    finally:
        t.close()


tap = hgrun.Tap()
for schema in sorted(os.listdir(fixtures)):
    d = os.path.join(fixtures, schema)
    for trace in sorted(os.listdir(d)):
        if os.path.isdir(os.path.join(d, trace)):
            bad = differs(os.path.join(d, trace))
            tap.ok(not bad, f'{schema}/{trace}: the same report',
                   f'differs in {bad}')
missing = hgrun.not_built()
rows = []
for row in hgrun.variants(table):
    if row[0] in missing:
        tap.skip(row[0], f'not built: {missing[row[0]]}')
    else:
        rows.append(row)
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for name, bad in pool.map(variant, rows):
        tap.ok(not bad, f'{name}: the same report in {", ".join(FORMATS)}',
               f'differs in {bad}')
sys.exit(tap.done())
