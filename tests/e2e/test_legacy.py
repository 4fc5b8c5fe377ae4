#!/usr/bin/env python3
"""tests/e2e/hg_legacy under `hipgrain run` against the test double: a
hipLaunchByPtr is a launch whose pointers come from the bytes its thread
gave hipSetupArgument under the innermost hipConfigureCall, and is judged
like any launch (hardware FP atomics into fine-grained memory fire, into
device memory not); with nothing configured, the runtime's errors are
forwarded and recorded.

usage: test_legacy.py HIPGRAIN HG_LEGACY FAKEHIP_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog, fakehip = sys.argv[1:4]
# common/hg_events.h
API = {'hipMalloc': 20, 'hipHostMalloc': 22, 'hipLaunchByPtr': 105}
RULE = 'fp-atomic-fine-grain'


def traced(mode):
    return hgrun.run_read(hipgrain, [prog, mode], hgrun.fake_env(fakehip))


def alloc_id(ev, api, size):
    ids = [e['id'] for e in ev if e['event'] == 'alloc' and e['rc'] == 0 and
           e['api'] == API[api] and e['size'] == size]
    return ids[0] if len(ids) == 1 else None


tap = hgrun.Tap()
# mode: the allocators the launches' first argument points into, in order
CASES = {'fine': ['hipHostMalloc'], 'coarse': ['hipMalloc'],
         'nested': ['hipMalloc', 'hipHostMalloc']}
for mode, accs in CASES.items():
    proc, ev, rep = traced(mode)
    tap.ok(proc.returncode == 0 and f'legacy {mode}: hipSuccess' in proc.stdout,
           f'{mode}: the program runs through', proc.stdout + proc.stderr)
    x = alloc_id(ev, 'hipMalloc', 256 * 8)
    want = [[alloc_id(ev, a, 8), x] for a in accs]
    ln = [e for e in ev if e['event'] == 'launch' and
          e['api'] == API['hipLaunchByPtr']]
    tap.ok([e['arg_id'] for e in ln] == want and
           all(e['arg_index'] == [0, 1] and e['rc'] == 0 and
               e['grid'] == [1, 1, 1] and e['block'] == [256, 1, 1]
               for e in ln),
           f'{mode}: each hipLaunchByPtr is a launch with the arguments its '
           'configuration was given', [(e['arg_id'], e['arg_index']) for e in ln])
    fired = [f for f in rep['findings'] if f['rule'] == RULE] if rep else None
    n = accs.count('hipHostMalloc')
    tap.ok(fired is not None and sum(f['count'] for f in fired) == n,
           f'{mode}: {RULE} fires {n} time(s)',
           rep and [f['message'] for f in rep['findings']])

proc, ev, rep = traced('unconfigured')
tap.ok(proc.returncode == 0 and 'setup hipErrorMissingConfiguration' in
       proc.stdout, 'unconfigured: the runtime\'s errors reach the program',
       proc.stdout + proc.stderr)
tap.ok(not [e for e in ev if e['event'] == 'launch'] and rep is not None and
       not [f for f in rep['findings'] if f['rule'] == RULE],
       'unconfigured: no launch is made up', rep and rep['findings'])
sys.exit(tap.done())
