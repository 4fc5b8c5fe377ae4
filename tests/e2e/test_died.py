#!/usr/bin/env python3
"""A call the runtime aborts in gets its finding at the program's line
(issue 48, 1).  kernels/stage prefetches hipMalloc or hipHostMalloc memory
from a helper of its own; on the virtual GPU the driver refuses the range
and ROCr's assert aborts the program inside hipMemPrefetchAsync, on ROCr's
own thread.  The report must name the call it died in and judge the
prefetch at the prefetch's line (both fail on e6bb077's behaviour, which
reported no finding), HIPGRAIN_WARN=1 must say so before the abort, and
`report --fail-on error` must not pass.

usage: test_died.py HIPGRAIN KERNELS_DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
src = os.path.join(os.path.dirname(__file__), '..', '..', 'kernels', 'stage.hip')
line = next(i for i, t in enumerate(open(src), 1) if '// stage: prefetch' in t)
want_at = f'stage.hip:{line}'

for variant in ('device', 'pinned'):
    env = hgrun.vgpu_env()
    env['HIPGRAIN_WARN'] = '1'
    t = hgrun.run(hipgrain, [os.path.join(kdir, 'stage'), variant], env=env,
                  extra=('--virtual-gpu', 'MI210'))
    try:
        err = t.proc.stderr
        aborted = 'KFD Prefetch failed' in err
        if not aborted:
            tap.skip(f'{variant}: 3', 'this runtime does not abort on a refused prefetch')
            continue
        warn = err.find('[prefetch-unsupported]')
        tap.ok(0 <= warn < err.find('KFD Prefetch failed'),
               f'{variant}: HIPGRAIN_WARN=1 warns of the prefetch before the runtime aborts', err)
        p = subprocess.run([hipgrain, 'report', t.trace], capture_output=True, text=True)
        out = p.stdout
        died = re.search(r'killed by SIGABRT inside hipMemPrefetchAsync[^\n]*\n'
                         r'\s*call: hipMemPrefetchAsync at ' + re.escape(want_at), out)
        tap.ok(died is not None, f'{variant}: died-in-call at {want_at}', out)
        pre = re.search(r'\[prefetch-unsupported\][^\n]*\n[^\n]*aborted the program inside '
                        r'this call\n\s*call: hipMemPrefetchAsync at ' + re.escape(want_at), out)
        tap.ok(pre is not None, f'{variant}: prefetch-unsupported at {want_at}, saying the '
               'runtime aborted there', out)
        rc, _ = hgrun.report(hipgrain, t.trace, '--fail-on', 'error')
        tap.ok(rc == 2, f'{variant}: --fail-on error fails the job (status {rc})')
    finally:
        t.close()
sys.exit(tap.done())
