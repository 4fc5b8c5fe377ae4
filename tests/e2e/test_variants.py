#!/usr/bin/env python3
"""Every kernels/ program and variant, traced by `hipgrain run` against the
test double, reported by `hipgrain report`: the rules kernels/variants.tsv
names fire, and no other (the near-misses stay silent).

usage: test_variants.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR VARIANTS_TSV
"""
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, fakehip, table = sys.argv[1:5]


def rows():
    for line in open(table):
        if not line.strip() or line.startswith('#'):
            continue
        prog, args, xnack, rules, outcome = line.rstrip('\n').split('\t')
        yield (prog, [] if args == '-' else args.split(), xnack,
               set() if rules == 'none' else set(rules.split(',')), outcome)


def check(row):
    prog, args, xnack, want, outcome = row
    env = hgrun.fake_env(fakehip, None if xnack in ('0', '*') else xnack)
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog)] + args, env=env)
    try:
        status, rep = hgrun.report(hipgrain, t.trace)
        got = {f['rule'] for f in rep['findings']} if rep else None
        expect_rc = 134 if outcome == 'abort' else 0
        return row, t.proc.returncode == expect_rc, got, status, t.proc.stderr
    finally:
        t.close()


tap = hgrun.Tap()
missing = hgrun.not_built()
table = list(rows())
todo = []
for prog, args, xnack, want, outcome in table:
    name = f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'
    if prog in missing:
        tap.skip(name, f'{prog} not built: {missing[prog]}')
        continue
    why = hgrun.omp_no_gpu(kdir, fakehip, prog, args, xnack) \
        if outcome == '0' else None
    if why:
        tap.skip(name, why)
        continue
    want = hgrun.omp_expected(hipgrain, kdir, table, prog, args, xnack, want)
    todo.append((prog, args, xnack, want, outcome))
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for row, rc_ok, got, status, err in pool.map(check, todo):
        prog, args, xnack, want, _ = row
        name = f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'
        tap.ok(rc_ok, f'{name}: program status passed through', err)
        tap.ok(status == 0 and got == want,
               f'{name}: fires {sorted(want) or "nothing"}',
               f'report status {status}, got {sorted(got) if got else got}')
sys.exit(tap.done())
