#!/usr/bin/env python3
"""The driver front end, end to end on the virtual GPU: hg-kfd-hostile makes
ioctls with NULL arguments, prefetches shared memory to the GPU and back,
forks a child that opens the driver and migrates its own range, forks a
chain of processes each just after its parent's first migration (each
opens the driver and migrates), then execs
while the SMI reader thread runs.  The program must see the driver's
answers (its own checks), and the trace must hold, per process, the SVM
calls and the migrations the driver reported for them, each start with its
end, with the trigger and the direction, and nothing for the NULL calls.

usage: test_driver.py HIPGRAIN HG_KFD_HOSTILE
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog = sys.argv[1:3]
MIGRATE_START, MIGRATE_END, PREFETCH = 5, 6, 0
tap = hgrun.Tap()

t = hgrun.run(hipgrain, [prog, 'exec'], env=hgrun.vgpu_env(),
              extra=('--virtual-gpu', 'MI210'))
try:
    out = t.proc.stdout
    tap.ok(t.proc.returncode == 0, 'the program exits 0', t.proc.stderr)
    tap.ok('FAILED' not in out and out.count('ok:') == 11,
           'every call answered as the driver would', out)
    tap.ok('ok: exec while the reader runs' in out,
           'exec with the reader thread running', out)
    ev = hgtrace.hipgrain_events(t.trace)
finally:
    t.close()

forks = re.search(r'ok: a chain of (\d+) processes', out)
forks = int(forks.group(1)) if forks else 0
svm = [e for e in ev if e['event'] == 'kfd_svm']
smi = [e for e in ev if e['event'] == 'kfd_smi']
opens = [e for e in ev if e['event'] == 'kfd_smi_open']
pids = sorted({e['vpid'] for e in svm})
tap.ok(len(pids) == 2 + forks,
       'SVM calls from the program, its child and each process of the chain',
       pids)
tap.ok(forks and len(opens) == 2 + forks and
       len({e['vpid'] for e in opens}) == len(opens) and
       all(e['rc'] == 0 for e in opens),
       'each process opened its own SMI file', opens)
tap.ok(not [e for e in ev if e['event'] == 'kfd_alloc'],
       'a NULL ALLOC_MEMORY_OF_GPU records nothing')


def moves(pid):
    """(start address, size, from, to) of each migration, start and end
    paired in order."""
    s = [e for e in smi if e['vpid'] == pid]
    starts = [e for e in s if e['kind'] == MIGRATE_START]
    ends = [e for e in s if e['kind'] == MIGRATE_END]
    ok = len(starts) == len(ends) and all(
        (a['addr'], a['size'], a['from'], a['to']) ==
        (b['addr'], b['size'], b['from'], b['to'])
        for a, b in zip(starts, ends))
    return ok, [(e['addr'], e['size'], e['from'], e['to'], e['trigger'])
                for e in starts]


for pid in pids:
    calls = [e for e in svm if e['vpid'] == pid]
    paired, got = moves(pid)
    tap.ok(paired, f'process {pid}: every migration start has its end', got)
    want = []
    where = {}
    for c in calls:
        to = c['attrs'][1]
        if where.get(c['start'], 0) != to:
            want.append((c['start'], c['size'], where.get(c['start'], 0), to,
                         PREFETCH))
        where[c['start']] = to
    tap.ok(got == want and want,
           f'process {pid}: {len(want)} prefetch migration(s), direction '
           f'and range as asked', f'got {got}, want {want}')
sys.exit(tap.done())
