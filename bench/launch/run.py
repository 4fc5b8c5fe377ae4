#!/usr/bin/env python3
"""hipLaunchKernel with four pointer arguments: the same program with and
without hipgrain, in one run.  Prints ns per launch (median of --runs) and
what hipgrain adds (target: <= 250 ns), for three loops: the same buffers
every time, four buffer sets in turn (a solver), and a new combination of
buffers every launch (each one written as an event: the worst case).  The
session is the one `hipgrain run` makes: same channel, events and contexts.
A benchmark, never a test."""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                'lib'))
from benchlib import median, timing  # noqa: E402
from lttng_session import Tracing  # noqa: E402

MODES = (('same buffers', 'same'), ('4 buffer sets in turn', 'rotate'),
         ('new buffers every launch', 'fresh'))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--preload', required=True)
    ap.add_argument('--fakehip', required=True)
    ap.add_argument('--launches', type=int, default=200000)
    ap.add_argument('--runs', type=int, default=5)
    a = ap.parse_args()
    env = dict(os.environ, LD_LIBRARY_PATH=a.fakehip)
    env.pop('LD_PRELOAD', None)

    def med(fn):
        return median(fn, a.runs)

    def plain(argv, extra):
        return timing(subprocess.run(argv, env=dict(env, **extra), check=True,
                                     capture_output=True, text=True).stdout)

    pre = {'LD_PRELOAD': a.preload}
    rows = []
    added = {}
    with tempfile.TemporaryDirectory() as d:
        # Discarding, as `hipgrain run` does by default, with buffers large
        # enough that nothing is discarded: a dropped event costs less.
        with Tracing(os.path.join(d, 't'), statedump=False, blocking=False,
                     subbuf='8M', nsubbuf=8,
                     events=('hipgrain:*', 'lttng_ust_dl:*')) as s:
            for label, mode in MODES:
                argv = [a.prog, str(a.launches), mode]
                base = med(lambda: plain(argv, {}))
                rows.append((label, 'without hipgrain', base, base))
                rows.append((label, 'hipgrain, no session',
                             med(lambda: plain(argv, pre)), base))
                on = med(lambda: timing(s.run(argv, dict(env, **pre)).stdout))
                rows.append((label, 'hipgrain, session on', on, base))
                added[mode] = on - base
    print(f'{"launch, 4 pointer args":48} {"ns":>8} {"added ns":>9} {"ratio":>6}')
    for label, name, ns, base in rows:
        print(f'{label + ": " + name:48} {ns:8.1f} {ns - base:9.1f} '
              f'{ns / base:6.2f}')
    print(f'hipgrain adds {added["same"]:.0f} ns per repeated launch, '
          f'{added["rotate"]:.0f} ns per launch of a solver-like loop and '
          f'{added["fresh"]:.0f} ns per launch written as an event '
          '(target: <= 250 ns)')


if __name__ == '__main__':
    main()
