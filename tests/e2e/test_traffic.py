#!/usr/bin/env python3
"""`hipgrain report --inventory` on a kernels/ program run on the virtual
MI210: the bytes each kernel read and wrote in each allocation, exact.
vectoradd computes a[i] = b[i] + c[i] over 1,048,576 floats, so its
kernel writes 4 MiB into a and reads 4 MiB from each of b and c, and
nothing else (its arguments and dispatch packet are the runtime's), each
block apart: from hipMalloc memory (a buffer object each), and from
managed and malloc memory (XNACK on), whose blocks adjoin in no buffer
object and are told apart by the tracer's allocations.

usage: test_traffic.py HIPGRAIN KERNELS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
MIB4 = 4 * 1024 * 1024
KERNEL = '_Z15vectoradd_floatPfPKfS1_ii'


def traffic(variant, xnack=None):
    """(the program's stdout, [(api, size, symbol, read, written, beyond)],
    traffic_unlisted) of one run; rows None when no report came."""
    t = hgrun.run(hipgrain, [os.path.join(kdir, 'vectoradd'), variant],
                  env=hgrun.vgpu_env(xnack), extra=('--virtual-gpu', 'MI210'))
    try:
        _, rep = hgrun.report(hipgrain, t.trace, '--inventory')
        if not rep:
            return t.proc.stdout + t.proc.stderr, None, None
        inv = rep['inventory']
        rows = []
        for place in inv['traffic']:
            a = place['allocation'] or {}
            rows += [(a.get('api'), a.get('size'), k['symbol'], k['read'], k['written'],
                      k['beyond']) for k in place['kernels']]
        return t.proc.stdout, sorted(rows, key=str), inv['traffic_unlisted']
    finally:
        t.close()


for variant, api, xnack in (('hipmalloc', 'hipMalloc', None),
                             ('managed', 'hipMallocManaged', None),
                             ('malloc', 'malloc', '1')):
    out, rows, more = traffic(variant, xnack)
    want = sorted([(api, MIB4, KERNEL, 0, MIB4, False),
                   (api, MIB4, KERNEL, MIB4, 0, False),
                   (api, MIB4, KERNEL, MIB4, 0, False)], key=str)
    tap.ok('0 errors' in out and rows == want and more == {'read': 0, 'written': 0},
           f'{api}: a written 4 MiB, b and c read 4 MiB each, nothing else',
           (out, rows, more))

sys.exit(tap.done())
