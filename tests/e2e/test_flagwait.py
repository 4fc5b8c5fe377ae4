#!/usr/bin/env python3
"""Issue 49's "done means" on a virtual MI210: kernels/flagwait spins on a
flag the host sets mid-kernel.  In hipHostMallocNonCoherent memory the
GPU's L2 keeps the stale line: the spin stops at a small, fixed
instruction budget (never a hung test), stderr names the budget, and
coarse-sync fires naming the kernel, the allocation and the read's line.
In hipHostMalloc memory (fine-grained) the kernel sees the write, ends,
and the run has no finding.  Two work-groups on two interpreter threads
handing a value to each other at device scope through the same
coarse-grained memory see each other's writes, as a card's compute units
behind one L2 do: no stop, no finding.  The noncoherent spin on MI100
stops as on MI210, and on MI300X, whose volatile load reads past the L2,
it ends.  The other way, a kernel's store to hipHostMallocNonCoherent
memory stays in the GPU's L2 until the kernel ends: the host waiting for
it never answers, the kernel's spin stops, and coarse-sync fires naming
the kernel, the store's line and the allocation, the store unwritten;
after __threadfence_system(), which writes the L2 back on MI210 and
MI300X and has no such instruction on MI100, the host sees it and no
store is left unwritten, but for MI100's; in hipHostMalloc memory it is
seen at once.

usage: test_flagwait.py HIPGRAIN KERNELS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
BUDGET = '2000000'
# For a kernel that must end: the host's answer, however late a loaded
# machine schedules it, comes before this.
ENDS = '200000000'


def flagwait(mode, product='MI210', **more):
    """(the program's stdout and stderr, the report, its coarse-sync
    findings) of one run."""
    env = dict(hgrun.vgpu_env(), HIPGRAIN_VGPU_BUDGET=BUDGET)
    env.update(more)
    t = hgrun.run(hipgrain, [os.path.join(kdir, 'flagwait'), mode], env=env,
                  extra=('--virtual-gpu', product))
    _, rep = hgrun.report(hipgrain, t.trace)
    rep = rep or {'findings': []}
    found = [f for f in rep['findings'] if f['rule'] == 'coarse-sync']
    return t.proc.stdout + t.proc.stderr, rep, found


out, rep, found = flagwait('noncoherent')
tap.ok('MISMATCH' in out and 'HIPGRAIN_VGPU_BUDGET' in out and BUDGET in out,
       'noncoherent: the spin stops at the budget, which stderr names', out)
# The stale reads the virtual GPU saw are one error.  The kernel publishes
# ready with a system-scope release, which on MI210 writes the L2's lines
# of host memory back: the code says that much works, a note beside the
# error and never a second warning or error.
seen = [f for f in found if f['severity'] == 'error']
said = [f for f in found if f['severity'] != 'error']
msg = seen[0]['message'] if seen else ''
tap.ok(len(seen) == 1 and 'wait_flag' in msg and 'flagwait.hip:' in msg and
       'budget' in msg and
       all(f['severity'] == 'note' and 'reach past' in f['message']
           for f in said), 'noncoherent: coarse-sync names the kernel, the line and the stop',
       repr(found))
alloc = (found[0].get('allocation') or {}) if found else {}
tap.ok(alloc.get('api') == 'hipHostMalloc', 'noncoherent: the finding names the allocation',
       repr(alloc))
out, rep, found = flagwait('host')
tap.ok('OK' in out and 'MISMATCH' not in out, 'host: the kernel sees the flag and ends', out)
tap.ok(not rep['findings'], 'host: no finding', repr(rep['findings']))
out, rep, found = flagwait('exchange', HIPGRAIN_VGPU_THREADS='2')
tap.ok('OK' in out and 'MISMATCH' not in out and 'HIPGRAIN_VGPU_BUDGET' not in out,
       'exchange: each work-group sees the other\'s write and the kernel ends', out)
tap.ok(not rep['findings'], 'exchange: no finding', repr(rep['findings']))

# The same spin by each product's own rules (isa/isa_coh.c, the one table
# the interpreter runs by and the rule grades by).  MI100 has no
# instruction that reaches its L2: the spin stops, and its code shows no
# system-scope site to infer from.
out, rep, found = flagwait('noncoherent', 'MI100')
tap.ok('MISMATCH' in out and BUDGET in out, 'MI100: the spin stops at the budget', out)
tap.ok([f['severity'] for f in found] == ['error'], 'MI100: one coarse-sync error, the stale reads',
       repr(found))
# MI300X's volatile load is sc0 sc1, which reads past the L2 to system
# memory: the spin sees the host's flag, and the code's sites are a note.
if hgrun.rocm_version() < (5, 7):
    for what in ('the kernel sees the flag', 'a note and no error'):
        tap.skip('MI300X: ' + what, 'ROCm 5.2 does not know gfx942')
else:
    out, rep, found = flagwait('noncoherent', 'MI300X')
    tap.ok('OK' in out and 'MISMATCH' not in out and 'HIPGRAIN_VGPU_BUDGET' not in out,
           'MI300X: the kernel sees the flag', out)
    tap.ok(found and all(f['severity'] == 'note' and 'gfx942' in f['message'] for f in found),
           'MI300X: a note and no error', repr(found))

# Write-back (vgpu/exec/vx_wback.c, by isa_coh's table).
UNWRITTEN = 'still in the GPU\'s L2'


def unwritten(found):
    """The observed coarse-sync errors of stores left in the L2."""
    return [f for f in found if f['severity'] == 'error' and UNWRITTEN in f['message']]


out, rep, found = flagwait('publish')
tap.ok('MISMATCH' in out and BUDGET in out and 'still in the GPU' in out,
       'publish: the store stays in the L2, the host never answers, the spin stops', out)
seen = unwritten(found)
msg = seen[0]['message'] if seen else ''
alloc = (seen[0].get('allocation') or {}) if seen else {}
tap.ok(len(found) == 1 and len(seen) == 1 and 'publish' in msg and
       'flagwait.hip:' in msg and 'budget' in msg and '__threadfence_system' in msg and
       alloc.get('api') == 'hipHostMalloc' and alloc.get('granularity') == 'coarse',
       'publish: coarse-sync names the kernel, the store\'s line and the allocation',
       repr(found))
out, rep, found = flagwait('publish-fence', HIPGRAIN_VGPU_BUDGET=ENDS)
tap.ok('OK' in out and 'MISMATCH' not in out,
       'publish-fence: the system-scope release writes the L2 back, the kernel ends', out)
tap.ok(not unwritten(found) and all(f['severity'] == 'note' for f in found),
       'publish-fence: no store left unwritten, no error', repr(found))
out, rep, found = flagwait('publish-fine', HIPGRAIN_VGPU_BUDGET=ENDS)
tap.ok('OK' in out and 'MISMATCH' not in out and not rep['findings'],
       'publish-fine: the host sees the store at once, no finding', out + repr(rep['findings']))
out, rep, found = flagwait('publish-fence', 'MI100')
tap.ok('MISMATCH' in out and BUDGET in out,
       'MI100: no instruction writes the L2 back, the spin stops', out)
seen = unwritten(found)
tap.ok(len(seen) == 1 and 'gfx908 has no instruction' in seen[0]['message'] and
       (seen[0].get('allocation') or {}).get('api') == 'hipHostMalloc',
       'MI100: coarse-sync names the store the release left in the L2', repr(found))
if hgrun.rocm_version() < (5, 7):
    for what in ('buffer_wbl2 sc1 writes the L2 back', 'no store left unwritten'):
        tap.skip('MI300X: ' + what, 'ROCm 5.2 does not know gfx942')
else:
    out, rep, found = flagwait('publish-fence', 'MI300X', HIPGRAIN_VGPU_BUDGET=ENDS)
    tap.ok('OK' in out and 'MISMATCH' not in out,
           'MI300X: buffer_wbl2 sc1 writes the L2 back', out)
    tap.ok(not unwritten(found), 'MI300X: no store left unwritten', repr(found))
sys.exit(tap.done())
