#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""closefrom() and close_range() between fork and exec, under hipgrain run:
the program's own descriptors close, lttng-ust's stay (the preload turns
both into close() calls that liblttng-ust-fd.so guards), and nothing aborts.

usage: test_closefds.py HIPGRAIN HG_CLOSEFDS
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import hgrun  # noqa: E402

HG, APP = sys.argv[1:3]
tap = hgrun.Tap()
REPS = 10

for how in ('closefrom', 'close_range'):
    plain = subprocess.run([APP, how], capture_output=True, text=True)
    tap.ok(plain.returncode == 0 and 'owned-closed=1 kept=0' in plain.stdout,
           '%s without hipgrain closes everything' % how,
           plain.stdout + plain.stderr)
    for rep in range(REPS):
        with tempfile.TemporaryDirectory(prefix='hgclosefds-') as tmp:
            p = subprocess.run(hgrun.hermetic(
                [HG, 'run', '-q', '--no-report', '-o', tmp + '/t', '--',
                 APP, how]), capture_output=True, text=True)
            m = re.search(r'owned-closed=(\d) kept=(\d+)', p.stdout)
            ok = tap.ok(p.returncode == 0 and 'Assertion' not in p.stderr,
                        '%s #%d under hipgrain: exit 0, no abort' % (how, rep),
                        '%d %s' % (p.returncode, p.stderr[-1500:]))
            ok &= tap.ok(m is not None and m.group(1) == '1',
                         "%s #%d: the program's own descriptors are closed"
                         % (how, rep), p.stdout)
            tap.ok(m is not None and int(m.group(2)) > 0,
                   "%s #%d: lttng-ust's descriptors are kept" % (how, rep),
                   p.stdout)
sys.exit(tap.done())
