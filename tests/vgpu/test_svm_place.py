#!/usr/bin/env python3
"""Where the driver places shared virtual memory a kernel reaches, as
amdkfd places it (kfd_svm.c), told by kernels/svm_place's result on a
virtual MI210, whose integer atomic max does nothing in host memory over
PCIe and lands in its own, and by the SMI events the driver wrote.

Under XNACK a GPU fault on memory no range holds makes one: the process's
initial heap and stack prefer system memory and stay there (the max is
lost, the fault is only mapped), any other mapping goes to the faulting
GPU (the max lands; one migration, triggered by the GPU's fault).  A range
advised hipMemAdviseSetAccessedBy (ACCESS_IN_PLACE) stays where it is;
managed memory, which the runtime opens to the GPU with ACCESS, moves.
Without XNACK the GPU reaches only ranges whose access bits name it: a
malloc block advised coarse-grained faults, one advised SetAccessedBy runs.

usage: test_svm_place.py HIPGRAIN KERNELS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
FAULT_END, MIGRATE_START, PAGEFAULT_GPU = 8, 5, 1
tap = hgrun.Tap()


def run(op, mem, xnack, profile='MI210'):
    """(exit status, the result's verdict, GPU-fault migrations, fault ends,
    stderr)."""
    t = hgrun.run(hipgrain, [os.path.join(kdir, 'svm_place'), op, mem],
                  env=hgrun.vgpu_env(xnack), extra=('--virtual-gpu', profile))
    try:
        ev = hgtrace.hipgrain_events(t.trace)
    finally:
        t.close()
    smi = [e for e in ev if e['event'] == 'kfd_smi']
    moved = [e for e in smi if e['kind'] == MIGRATE_START
             and e['trigger'] == PAGEFAULT_GPU]
    ends = [e for e in smi if e['kind'] == FAULT_END]
    words = t.proc.stdout.split()
    verdict = words[-1] if words else None
    return t.proc.returncode, verdict, moved, ends, t.proc.stderr


# XNACK on: (memory, the max's verdict, whether the fault migrates).
ON = [('heap', 'MISMATCH', False), ('stack', 'MISMATCH', False),
      ('mmap', 'OK', True), ('accessedby', 'MISMATCH', False),
      ('coarse', 'OK', True),
      # hipMallocManaged names the GPU ACCESS (ROCclr's SvmAllocInit), with
      # no preferred location: its first touch moves it to the GPU.
      ('managed', 'OK', True),
      # Pages a prefetch moves lose their GPU mappings: back in host
      # memory, the GPU faults on them again and takes them back.
      ('managed-back', 'OK', True)]
for mem, want, migrates in ON:
    rc, verdict, moved, ends, err = run('max', mem, '1')
    tap.ok(rc == 0 and verdict == want,
           f'XNACK on, max into {mem}: {want} '
           + ('(migrated to the GPU)' if migrates else
              '(left in host memory, over PCIe)'), (rc, verdict, err))
    # page_fault_end says 'M' when the block went to the GPU, 'U' when the
    # fault only mapped it.
    marks = {chr(e['rw']) for e in ends}
    tap.ok(bool(moved) == migrates and marks == {'M' if migrates else 'U'},
           f'XNACK on, {mem}: ' + ('a migration triggered by the GPU fault'
                                   if migrates else
                                   'the fault only maps it, no migration'),
           (moved, marks))
# The near miss of the lost max: an add, which crosses PCIe.
rc, verdict, moved, _, err = run('add', 'heap', '1')
tap.ok(rc == 0 and verdict == 'OK' and not moved,
       'XNACK on, add into heap: OK, in host memory', (rc, verdict, err))

# XNACK off: (memory, exit status, verdict).
OFF = [('coarse', 134, None), ('accessedby', 0, 'OK'),
       ('heap', 134, None), ('managed', 0, 'OK')]
for mem, status, want in OFF:
    rc, verdict, _, _, err = run('add', mem, '0')
    if status:
        tap.ok(rc == status and 'memory access fault' in err,
               f'XNACK off, add into {mem}: a memory access fault', (rc, err))
    else:
        tap.ok(rc == 0 and verdict == want,
               f'XNACK off, add into {mem}: the GPU may access it, {want}',
               (rc, verdict, err))
sys.exit(tap.done())
