#!/usr/bin/env python3
"""malloc+free pairs: hipgrain's preload against its anchors, in one run.

The headline shape is issue 30's: 64 blocks live, each pair freeing the
oldest and allocating 16..271 bytes (`bm-malloc N ring`).  The older shape,
one block live at a time, follows as a second row.  Times are the loop
thread's CPU time unless --clock wall.  Anchors: plain glibc; lttng-ust's own libc wrapper with a session recording
its events; heaptrack.  Prints ns/pair (median of --runs) and each one's
ratio to glibc and to hipgrain.  Then what hipgrain adds to glibc's pair,
taken within rounds that run glibc and hipgrain back to back (median and
range of --runs rounds), since this host's speed wanders between runs by
more than the difference; with --callgrind, also in instructions (a run of
3n pairs less one of n, so that start-up cancels out), which load does not
move.  A benchmark, not a test: it never fails on a number.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                'lib'))
from benchlib import median, timing  # noqa: E402
from lttng_session import Tracing  # noqa: E402

LIBC_WRAPPER = 'liblttng-ust-libc-wrapper.so.1'


def run(cmd, env=None):
    return timing(subprocess.run(cmd, env=env, check=True, capture_output=True,
                                 text=True).stdout)


def run_in(session, cmd, env):
    """The same, inside the session's private daemon namespace."""
    return timing(session.run(cmd, env).stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--preload', required=True)
    ap.add_argument('--pairs', type=int, default=5_000_000)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--callgrind', action='store_true',
                    help='also count the instructions a pair adds')
    ap.add_argument('--clock', choices=('cpu', 'wall'), default='cpu',
                    help='time the loop by its thread\'s CPU clock (the '
                    'default: preemption on a busy host is not the '
                    'allocator\'s) or the wall clock')
    a = ap.parse_args()
    prog = [a.prog, str(a.pairs), 'ring', a.clock]
    env = dict(os.environ)
    rows = []

    rows.append(('glibc', median(lambda: run(prog), a.runs)))
    hg = dict(env, LD_PRELOAD=a.preload)
    rows.append(('hipgrain (default)', median(lambda: run(prog, hg), a.runs)))
    with tempfile.TemporaryDirectory() as d:
        with Tracing(os.path.join(d, 'hg'), statedump=False, blocking=False,
                     events=['hipgrain:*']) as s:
            rows.append(('hipgrain, session on', median(
                lambda: run_in(s, prog, dict(LD_PRELOAD=a.preload)), a.runs)))
        with Tracing(os.path.join(d, 'ust'), statedump=False, blocking=False,
                     events=['lttng_ust_libc:*']) as s:
            rows.append(('lttng-ust libc wrapper, session on', median(
                lambda: run_in(s, prog, dict(LD_PRELOAD=LIBC_WRAPPER)),
                a.runs)))
    if shutil.which('heaptrack'):
        with tempfile.TemporaryDirectory() as d:
            ht = ['heaptrack', '-o', os.path.join(d, 'ht')] + prog
            rows.append(('heaptrack', median(lambda: run(ht), a.runs)))

    base = rows[0][1]
    ours = rows[1][1]
    print(f'{"malloc+free pair":36} {"ns":>8} {"x glibc":>8} {"x hipgrain":>10}')
    for name, ns in rows:
        print(f'{name:36} {ns:8.1f} {ns / base:8.2f} {ns / ours:10.2f}')
    print(f'hipgrain adds {ours - base:.1f} ns per pair, medians of separate runs')
    for shape in SHAPES:
        paired(shape, [a.prog, str(a.pairs), shape, a.clock], env, hg,
               a.runs)
    if a.callgrind and shutil.which('valgrind'):
        for shape in SHAPES:
            counted(shape, a.prog, env, hg)


SHAPES = ('ring', 'one')
SHAPE_NAMES = {'ring': '64 live, 16..271 B', 'one': 'one live'}


def paired(shape, prog, env, hg, runs):
    """Added ns and its ratio to glibc's pair, within back-to-back rounds."""
    added, ratio = [], []
    for _ in range(runs):
        g = run(prog, env)
        h = run(prog, hg)
        added.append(h - g)
        ratio.append((h - g) / g)
    print(f'{SHAPE_NAMES[shape]}: in {runs} rounds of glibc then hipgrain, '
          f'hipgrain adds '
          f'{sorted(added)[runs // 2]:.1f} ns '
          f'(range {min(added):.1f} to {max(added):.1f}) = '
          f'{sorted(ratio)[runs // 2]:.2f}x glibc\'s pair '
          f'(range {min(ratio):.2f} to {max(ratio):.2f}; target <= 0.5x)')


def instructions(shape, prog, pairs, env):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'cg')
        r = subprocess.run(['valgrind', '--tool=callgrind',
                            '--callgrind-out-file=' + out, prog, str(pairs),
                            shape],
                           env=env, check=True, capture_output=True, text=True)
        return int(re.search(r'refs:\s+([\d,]+)', r.stderr)
                   .group(1).replace(',', ''))


def counted(shape, prog, env, hg, n=100000):
    """Instructions a pair costs: runs of 3n and n pairs (and their warm-up
    tenth), differenced."""
    pairs = 2 * n * 11 // 10

    def per_pair(e):
        return (instructions(shape, prog, 3 * n, e) -
                instructions(shape, prog, n, e)) / pairs
    g = per_pair(env)
    h = per_pair(hg)
    print(f'{SHAPE_NAMES[shape]}: instructions a pair: glibc {g:.0f}, '
          f'hipgrain adds {h - g:.0f} '
          f'= {(h - g) / g:.2f}x glibc\'s pair (target <= 0.5x)')


if __name__ == '__main__':
    main()
