#!/usr/bin/env python3
"""The HSA front end against the test doubles (tests/fakehip, tests/fakehsa):
a HIP program places its atomic target with HSA calls, and the report
follows what those calls did; every HSA entry point hipgrain exports is one
the real libhsa-runtime64 exports.

usage: test_hsa.py HIPGRAIN PROGRAM FAKEHIP_DIR FAKEHSA_DIR PRELOAD
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog, fakehip, fakehsa, preload = sys.argv[1:6]
CASES = {
    'svm-coarse': set(),
    'svm-none': {'fp-atomic-fine-grain'},
    'pool-coarse': set(),
    'pool-fine': {'fp-atomic-fine-grain'},
    'lock': {'fp-atomic-fine-grain'},
}

tap = hgrun.Tap()
for variant, want in CASES.items():
    env = hgrun.fake_env(fakehip, '1')
    env['LD_LIBRARY_PATH'] = fakehip + ':' + fakehsa
    t = hgrun.run(hipgrain, [prog, variant], env=env)
    try:
        status, rep = hgrun.report(hipgrain, t.trace)
        got = {f['rule'] for f in rep['findings']} if rep else None
        tap.ok(t.proc.returncode == 0 and
               t.proc.stdout == f'hsa: {variant} done\n',
               f'{variant}: the program runs as without hipgrain',
               t.proc.stdout + t.proc.stderr)
        tap.ok(got == want, f'{variant}: fires {sorted(want) or "nothing"}',
               f'got {sorted(got) if got is not None else got}')
    finally:
        t.close()

real = '/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1'
nm = ['nm', '-D', '--defined-only']
ours = [line.split()[-1] for line in subprocess.run(
    nm + [preload], capture_output=True, text=True, check=True).stdout.splitlines()
    if ' hsa_' in line]
theirs = {line.split()[-1].split('@')[0] for line in subprocess.run(
    nm + [real], capture_output=True, text=True, check=True).stdout.splitlines()}
missing = [s for s in ours if s not in theirs]
tap.ok(len(ours) == 6 and not missing,
       f'the preload\'s HSA entry points ({len(ours)}) are libhsa-runtime64\'s',
       missing)
sys.exit(tap.done())
