#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain dump` against `babeltrace2 TRACE` (text) on the same trace, and
babeltrace2 through filter.hipgrain.decode, and `hipgrain dump --ctf`.

usage: bench_dump.py HIPGRAIN TRACEGEN PLUGIN_DIR [EVENTS]

The trace is bench_report.py's (about EVENTS, default 1,050,000, hipgrain
events in a real LTTng session); each reader prints it to /dev/null, best
of 5 rounds in turn, and the ratios to babeltrace2's text are printed
(target for dump: at most 1.5).
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_report import make_trace, timed  # noqa: E402

# On a machine others share, the load moves during a run: each round runs
# every reader once, in turn, so that a busy spell falls on all of them,
# and each reader's best round counts.
ROUNDS = 5


def interleaved(runs, rounds):
    best = {}
    for _ in range(rounds):
        for k, argv in runs.items():
            t = timed(argv, 1)[0]
            best[k] = min(best.get(k, t), t)
    return best


def main():
    hipgrain, tracegen, plugin = sys.argv[1:4]
    events = int(sys.argv[4]) if len(sys.argv) > 4 else 1050000
    tmp = tempfile.mkdtemp(prefix='hgbench-')
    try:
        trace, n = make_trace(tracegen, tmp, events)
        runs = {
            'bt': ['babeltrace2', trace],
            'dec': ['babeltrace2', '--plugin-path', plugin, trace,
                    '-c', 'filter.hipgrain.decode'],
            'hg': [hipgrain, 'dump', trace],
            # --ctf wants a new directory each time: the removal is timed.
            'ctf': ['sh', '-c', 'rm -rf "$1" && exec "$2" dump --ctf "$1" '
                    '"$3"', 'sh', os.path.join(tmp, 'ctf'), hipgrain, trace],
        }
        best = interleaved(runs, ROUNDS)
        bt, dec, hg, ctf = (best[k] for k in ('bt', 'dec', 'hg', 'ctf'))
        print('trace: %d hipgrain events (+ statedump)' % n)
        print('babeltrace2 TRACE:                 %.3f s' % bt)
        print('babeltrace2 + hipgrain.decode:     %.3f s  (%.2f)' % (dec, dec / bt))
        print('hipgrain dump:                     %.3f s  (%.2f, target <= 1.5)'
              % (hg, hg / bt))
        print('hipgrain dump --ctf:               %.3f s  (%.2f)'
              % (ctf, ctf / bt))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
