#!/usr/bin/env python3
"""ioctl on a descriptor that is not /dev/kfd: the driver front end's price
for every other ioctl a program makes.  Anchors in the same run: the loop
with no preload, and with liblttng-ust alone preloaded (the tracer hipgrain
brings, whose threads alone slow every system call of the process here).
Rounds rotate the three, so a host whose speed wanders moves all of them;
prints each round and the median and range of what the hooks add.

With valgrind on the machine, the instructions each call adds are counted
too (callgrind, two loop lengths, so start-up cancels out): a number the
host's speed cannot move.  A benchmark, not a test: it never fails on a
number.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                'lib'))
from benchlib import timing  # noqa: E402

UST = 'liblttng-ust.so.1'


def run(cmd, env):
    return timing(subprocess.run(cmd, env=env, check=True, capture_output=True,
                                 text=True).stdout)


def instructions(prog, n, env):
    p = subprocess.run(['valgrind', '--tool=callgrind',
                        '--callgrind-out-file=/dev/null', prog, str(n)],
                       env=env, capture_output=True, text=True, check=True)
    return int(re.search(r'Collected : (\d+)', p.stderr).group(1))


def per_call(prog, env, lo=20_000, hi=120_000):
    return (instructions(prog, hi, env) - instructions(prog, lo, env)) / (hi - lo)


def spread(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2], xs[0], xs[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--preload', required=True)
    ap.add_argument('--calls', type=int, default=2_000_000)
    ap.add_argument('--rounds', type=int, default=9)
    a = ap.parse_args()
    prog = [a.prog, str(a.calls)]
    plain = dict(os.environ)
    plain.pop('LD_PRELOAD', None)
    envs = {'none': plain, 'ust': dict(plain, LD_PRELOAD=UST),
            'hipgrain': dict(plain, LD_PRELOAD=a.preload)}
    names = list(envs)
    got = {k: [] for k in names}
    for r in range(a.rounds):
        for k in names[r % 3:] + names[:r % 3]:
            got[k].append(run(prog, envs[k]))
        print(f'round {r}: ' + ', '.join(f'{k} {got[k][-1]:.1f} ns'
                                         for k in names))
    over_ust = spread([h - u for h, u in zip(got['hipgrain'], got['ust'])])
    over_none = spread([h - n for h, n in zip(got['hipgrain'], got['none'])])
    print(f'ioctl on another fd: {spread(got["none"])[0]:.1f} ns with no '
          f'preload, {spread(got["ust"])[0]:.1f} ns with liblttng-ust alone, '
          f'{spread(got["hipgrain"])[0]:.1f} ns under hipgrain')
    print(f'hipgrain adds {over_ust[0]:+.1f} ns to liblttng-ust alone '
          f'(range {over_ust[1]:+.1f} to {over_ust[2]:+.1f}), '
          f'{over_none[0]:+.1f} ns to no preload (range {over_none[1]:+.1f} '
          f'to {over_none[2]:+.1f}); median of {a.rounds} rounds')
    if shutil.which('valgrind'):
        i0, i1 = per_call(a.prog, plain), per_call(a.prog, envs['hipgrain'])
        print(f'instructions per call (callgrind): {i0:.1f} with no preload, '
              f'{i1:.1f} under hipgrain: {i1 - i0:+.1f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
