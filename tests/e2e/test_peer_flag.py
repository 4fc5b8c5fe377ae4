#!/usr/bin/env python3
"""A producer kernel on GPU 0 and a consumer kernel spinning on GPU 1 at
the same time, on a virtual 4xMI250X under the real runtime (each virtual
GPU serves its queues on a thread of its own, as each card has its own
command processor).  `fine`: the flag in hipHostMalloc memory; the
consumer sees the producer's write, ends, reads the value, and no
coarse-sync finding is made.  `coarse`: the flag in GPU 0's hipMalloc
memory read by GPU 1 through peer access: GPU 1's L2 keeps the flag's
line, the spin stops at the instruction budget, and coarse-sync fires
with the stale read observed, naming the memory's GPU.

usage: test_peer_flag.py HIPGRAIN PROGRAM
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog = sys.argv[1:3]
tap = hgrun.Tap()


def run(mode, budget):
    env = dict(hgrun.vgpu_env(), HIPGRAIN_VGPU_BUDGET=budget)
    t = hgrun.run(hipgrain, [prog, mode], env=env,
                  extra=('--virtual-gpu', '4xMI250X'))
    _, rep = hgrun.report(hipgrain, t.trace)
    rep = rep or {'findings': []}
    found = [f for f in rep['findings'] if f['rule'] == 'coarse-sync']
    return t.proc.stdout + t.proc.stderr, rep, found


# A budget far above what the spin runs before the producer starts (a
# launch the host makes once the consumer says it runs), so that only a
# producer that never runs while the consumer spins reaches it.
out, rep, found = run('fine', '500000000')
tap.ok('read 42, OK' in out and 'HIPGRAIN_VGPU_BUDGET' not in out,
       'fine: the consumer on GPU 1 sees the flag the producer on GPU 0 '
       'set while both ran', out)
tap.ok(not found, 'fine: no coarse-sync finding', repr(found))

# Long enough that the producer, launched once the consumer says it runs,
# writes the flag while the consumer still spins: only a read that
# differs from memory is a stale one.
BUDGET = '50000000'
out, rep, found = run('coarse', BUDGET)
tap.ok('MISMATCH' in out and 'HIPGRAIN_VGPU_BUDGET' in out and BUDGET in out,
       'coarse: the spin on a peer\'s coarse-grained line stops at the '
       'budget, which stderr names', out)
seen = [f for f in found if f['severity'] == 'error' and
        'held while GPU 0\'s memory, reached as a peer, had newer bytes'
        in f['message'] and 'instruction budget' in f['message']]
tap.ok(len(seen) == 1 and 'consume(' in seen[0]['message'],
       'coarse: coarse-sync reports the consumer\'s stale read of GPU 0\'s '
       'memory, observed', repr([f['message'] for f in found]))
sys.exit(tap.done())
