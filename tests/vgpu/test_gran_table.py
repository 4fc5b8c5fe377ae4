#!/usr/bin/env python3
"""The driver table: for every allocator and flag combination the model
knows (hg-gran-table), on a virtual GPU, under each HIP_HOST_COHERENT, what
the real runtime asked the driver for (the granularity of the buffer
object or SVM range holding the allocation) equals gran_table.tsv's entry
for the running ROCm release, and hipgrain's model says the same.  Where a
release differs from another, the table says so; where the model differs
from the driver, the model is wrong.

usage: test_gran_table.py HIPGRAIN HG_GRAN_TABLE GRAN_TABLE_TSV [--print]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, table = sys.argv[1:4]
show = '--print' in sys.argv[4:]
GRAN = {1: 'coarse', 2: 'fine'}  # hg_events.h's HG_GRAN_*
ADVISE = 1  # HG_GRAN_SRC_ADVISE
# KFD_IOC_ALLOC_MEM_FLAGS_*: what kfd/kd_flags.c decides by (COHERENT,
# UNCACHED, and EXT_COHERENT of newer kernels make a buffer fine).
FINE_BITS = (1 << 26) | (1 << 25) | (1 << 24)
NOT_MEMORY = (1 << 3) | (1 << 4)  # doorbell, MMIO remap
SVM_SET, SVM_CLR, SVM_COHERENT = 5, 6, 2


def driver_gran(ev, ptr):
    """What the driver was told for the memory at ptr, or None."""
    bos, svm = {}, []
    for e in ev:
        if e['event'] == 'kfd_alloc' and e['rc'] == 0:
            bos[e['handle']] = e
        elif e['event'] == 'kfd_free' and e['rc'] == 0:
            bos.pop(e['handle'], None)
        elif e['event'] == 'kfd_svm' and e['rc'] == 0:
            svm.append(e)
    for b in bos.values():
        if b['flags'] & NOT_MEMORY:
            continue
        if b['va'] <= ptr < b['va'] + b['size'] or \
                (b['cpu'] and b['cpu'] <= ptr < b['cpu'] + b['size']):
            return 'fine' if b['flags'] & FINE_BITS else 'coarse'
    coherent = None
    for s in svm:
        if not s['start'] <= ptr < s['start'] + s['size']:
            continue
        pairs = zip(s['attrs'][0::2], s['attrs'][1::2])
        for kind, value in pairs:
            if kind in (SVM_SET, SVM_CLR) and value & SVM_COHERENT:
                coherent = kind == SVM_SET
            elif coherent is None:
                coherent = True  # the driver's default for a new range
    return None if coherent is None else 'fine' if coherent else 'coarse'


def model_gran(ev, ptr):
    ids = {e['id']: e for e in ev if e['event'] == 'alloc' and e['addr'] == ptr}
    if not ids:
        return None
    a = max(ids)
    g = GRAN.get(ids[a]['gran'])
    for e in ev:
        if e['event'] == 'granularity' and e.get('id') == a and \
                e.get('source') == ADVISE and e.get('rc') == 0:
            g = GRAN.get(e['gran'], g)
    return g


def release(ev):
    v = [e['version'] for e in ev if e['event'] == 'runtime' and e['rc'] == 0]
    return f'{v[0] // 10000000}.x' if v else None


def expected():
    rows = {}
    for line in open(table):
        if line.startswith('#') or not line.strip():
            continue
        name, gpu, coh, r5, r6, differs = line.rstrip('\n').split('\t')
        rows[(name, gpu, coh)] = ({'5.x': r5, '6.x': r6}, differs.split(','))
    return rows


tap = hgrun.Tap()
want = expected()
for gpu in ('MI210', 'MI250X'):
    for coh in ('unset', '0', '1'):
        env = hgrun.vgpu_env()
        if coh != 'unset':
            env['HIP_HOST_COHERENT'] = coh
        t = hgrun.run(hipgrain, [prog], env=env, extra=('--virtual-gpu', gpu))
        try:
            tap.ok(t.proc.returncode == 0, f'{gpu}, HIP_HOST_COHERENT={coh}: '
                   'the program runs', t.proc.stderr)
            ev = hgtrace.hipgrain_events(t.trace)
        finally:
            t.close()
        rel = release(ev)
        for line in t.proc.stdout.splitlines():
            name, _, value = line.partition(' ')
            key = next((k for k in [(name, gpu, coh), (name, gpu, '*'),
                                    (name, '*', coh), (name, '*', '*')]
                        if k in want), None)
            if value.startswith('failed'):
                drv = mdl = 'failed'
            else:
                ptr = int(value, 16)
                drv, mdl = driver_gran(ev, ptr), model_gran(ev, ptr)
            exp = want[key][0].get(rel) if key else None
            differs = key is not None and rel in want[key][1]
            if show:
                print(f'# {rel}\t{gpu}\t{coh}\t{name}\tdriver {drv}\tmodel {mdl}')
            label = f'ROCm {rel}, {gpu}, HIP_HOST_COHERENT={coh}: {name}'
            tap.ok(exp is not None and drv == exp,
                   f'{label}: the driver was told {exp}', f'it was told {drv}')
            if differs:
                tap.ok(mdl != drv and mdl is not None,
                       f'{label}: the model keeps the call\'s promise, '
                       f'the driver was told less', f'model {mdl}')
            else:
                tap.ok(drv == 'failed' or mdl == drv,
                       f'{label}: the model says what the driver was told',
                       f'model {mdl}, driver {drv}')
sys.exit(tap.done())
