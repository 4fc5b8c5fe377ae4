#!/usr/bin/env python3
"""Migrations, from the driver to the report: hipMallocManaged memory
prefetched with hipMemPrefetchAsync under HSA_XNACK=1, on a virtual GPU, is
migrated by the driver, which says so on its SMI file; --inventory's JSON
attributes the migration to the allocation, with its trigger and bytes.
The near miss: a prefetch of hipMalloc memory, which cannot migrate.  The
driver refuses shared-virtual-memory attributes on a buffer object
(kfd_svm.c, svm_range_is_valid: -EFAULT on the CPU's device mapping of
VRAM, -EADDRINUSE on a range the GPU's VM maps), and ROCr's assert on the
refused prefetch (Runtime::SvmPrefetch, kept in Debian's builds) aborts
the program; nothing migrated, and the refused attributes left the block
what its buffer object made it (coarse VRAM, not "svm|coherent").

usage: test_migration.py HIPGRAIN KERNELS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()


def inventory(variant, status=0, how='the program runs',
              prog='prefetch_advise', xnack='1'):
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog), variant],
                  env=hgrun.vgpu_env(xnack), extra=('--virtual-gpu', 'MI210'))
    try:
        tap.ok(t.proc.returncode == status, f'{variant}: {how}',
               t.proc.stderr)
        status, rep = hgrun.report(hipgrain, t.trace, '--inventory')
        return rep['inventory'] if rep else {}
    finally:
        t.close()


inv = inventory('managed')
managed = [a for a in inv.get('migrated', []) if a['api'] == 'hipMallocManaged']
tap.ok(len(managed) == 1, 'the managed allocation is listed as migrated',
       inv.get('migrated'))
if managed:
    a = managed[0]
    m = a['migrations']
    tap.ok(m['prefetch'] >= 1 and m['gpu_fault'] == 0 and m['cpu_fault'] == 0,
           'its migrations were triggered by the prefetch', m)
    tap.ok(m['bytes'] == a['size'], 'the whole allocation moved', m)
    tap.ok(a.get('driver', {}).get('domain') == 'svm' and
           a['driver'].get('node'), 'the driver saw it as SVM, prefetched to '
           'the GPU', a.get('driver'))
inv = inventory('hipmalloc', 134, 'ROCr aborts on the refused prefetch')
tap.ok(not inv.get('migrated'), 'hipMalloc memory: nothing migrated',
       inv.get('migrated'))
blocks = [a for a in inv.get('largest', []) if a['api'] == 'hipMalloc']
tap.ok(len(blocks) == 1 and blocks[0].get('driver', {}).get('domain') == 'vram'
       and blocks[0]['granularity'] == 'coarse',
       'the refused attributes left the block coarse VRAM', blocks)
# Managed memory a kernel touches first migrates by GPU page fault under
# XNACK (kfd_svm.c, svm_range_restore_pages): the runtime opens it to the
# GPU with ACCESS and no preferred location, so its best restore location
# is the GPU; without XNACK it is mapped in host memory and stays.
for xnack, faults in (('1', True), ('0', False)):
    inv = inventory('managed', prog='vectoradd', xnack=xnack,
                    how=f'vectoradd managed, HSA_XNACK={xnack}: the '
                    'program runs')
    moved = [a['migrations'] for a in inv.get('migrated', [])
             if a['api'] == 'hipMallocManaged']
    by_fault = sum(m['gpu_fault'] for m in moved)
    tap.ok(bool(by_fault) == faults,
           f'HSA_XNACK={xnack}: managed memory the kernel touched first '
           + ('migrated by GPU page fault' if faults else
              'did not migrate by fault'), moved)
sys.exit(tap.done())
