#!/usr/bin/env python3
"""hipLaunchKernel with four pointer arguments: the same program with and
without hipgrain, in one run.  Prints ns per launch (median of --runs) and
what hipgrain adds, for four loops: the same buffers every time, four buffer
sets in turn (a solver), a new combination of buffers every launch (each one
written as an event), and a fresh hipMalloc'd buffer every launch (alloc,
launch and free written each round).

The floor: what is written costs at least one LTTng event each.  An event is
priced in the same run and session (same channel, same contexts) as the
simplest one there is: lttng-ust's own libc wrapper, whose malloc and free
events carry one or two integers ((wrapped pair - plain pair) / 2).  Targets:
a new combination within 1.5x of one event, the alloc loop within 1.5x of
three.  The runs go in rounds: each round prices an event (a pair of
anchor runs) and then, for each loop, runs it without and with hipgrain,
back to back; a ratio is taken within its round, and the median of the
rounds' ratios is reported with their range.  The machine's speed drifts
(an event cost 99 to 197 ns here within an hour), and a ratio of two
numbers measured minutes apart moves with it; within a round it mostly
cancels.
With --callgrind, the same two ratios are also counted in instructions
(valgrind's callgrind, in the same session), which a loaded machine does not
move at all: a round's count is the difference between a run of 2n and one
of n rounds, so start-up cancels out.
A benchmark, never a test."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                'lib'))
from benchlib import median, timing  # noqa: E402
from lttng_session import Tracing  # noqa: E402

MODES = (('same buffers', 'same'), ('4 buffer sets in turn', 'rotate'),
         ('new buffers every launch', 'fresh'),
         ('hipMalloc+launch+hipFree', 'alloc'))
LIBC_WRAPPER = 'liblttng-ust-libc-wrapper.so.1'
PAIRS = 200000  # 400k events: well within the buffers, none dropped
ROUNDS = 2000  # under callgrind: a few seconds a run


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--preload', required=True)
    ap.add_argument('--fakehip', required=True)
    ap.add_argument('--anchor', required=True,
                    help='bm-malloc: malloc+free pairs, ns per pair')
    ap.add_argument('--launches', type=int, default=200000)
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--callgrind', action='store_true',
                    help='also count instructions a round under callgrind')
    a = ap.parse_args()
    # The double keeps freed blocks for reuse, as ROCr does: its mmap,
    # mprotect and munmap a round otherwise move by more than the alloc
    # loop's whole cost (tests/fakehip/fh_state.c).
    env = dict(os.environ, LD_LIBRARY_PATH=a.fakehip, HGFAKE_REUSE='1')
    env.pop('LD_PRELOAD', None)

    def plain(argv, extra):
        return timing(subprocess.run(argv, env=dict(env, **extra), check=True,
                                     capture_output=True, text=True).stdout)

    pre = {'LD_PRELOAD': a.preload}
    anchor = [a.anchor, str(PAIRS)]
    modes = [(label, mode, [a.prog, str(a.launches // 4 if mode == 'alloc'
                                        else a.launches), mode])
             for label, mode in MODES]
    events = []  # per round: one event, ns
    runs = {mode: [] for _, mode, _ in modes}  # per round: (without, with)
    with tempfile.TemporaryDirectory() as d:
        # Discarding, as `hipgrain run` does by default, with buffers large
        # enough that nothing is discarded: a dropped event costs less.
        with Tracing(os.path.join(d, 't'), statedump=False, blocking=False,
                     subbuf='8M', nsubbuf=8,
                     events=('hipgrain:*', 'lttng_ust_dl:*',
                             'lttng_ust_libc:*')) as s:
            def traced(argv, extra):
                return timing(s.run(argv, dict(env, **extra)).stdout)

            for _ in range(a.runs):
                p = traced(anchor, {})
                w = traced(anchor, {'LD_PRELOAD': LIBC_WRAPPER})
                events.append((w - p) / 2)
                # Three events a round in the alloc loop: a quarter of the
                # rounds keeps them all within the buffers too.
                for _, mode, argv in modes:
                    runs[mode].append((plain(argv, {}), traced(argv, pre)))
            if a.callgrind:
                insns = instructions(s, a, env, d)
    rows = []
    added = {}
    for label, mode, argv in modes:
        base = statistics.median(b for b, _ in runs[mode])
        rows.append((label, 'without hipgrain', base, base))
        rows.append((label, 'hipgrain, no session',
                     median(lambda: plain(argv, pre), a.runs), base))
        added[mode] = [o - b for b, o in runs[mode]]
        rows.append((label, 'hipgrain, session on',
                     base + statistics.median(added[mode]), base))
    event = statistics.median(events)
    print(f'{"launch, 4 pointer args":48} {"ns":>8} {"added ns":>9} {"ratio":>6}')
    for label, name, ns, base in rows:
        print(f'{label + ": " + name:48} {ns:8.1f} {ns - base:9.1f} '
              f'{ns / base:6.2f}')
    print(f'one LTTng event (lttng-ust libc wrapper, same session): '
          f'{event:.0f} ns (rounds: {min(events):.0f}-{max(events):.0f})')
    print(f'hipgrain adds {statistics.median(added["same"]):.0f} ns per '
          f'repeated launch and {statistics.median(added["rotate"]):.0f} ns '
          'per launch of a solver-like loop')

    def ratio(mode, n):
        r = [x / (n * e) for x, e in zip(added[mode], events)]
        return (f'{statistics.median(r):.2f}x (rounds: {min(r):.2f}-'
                f'{max(r):.2f})')

    print(f'a new combination every launch: '
          f'+{statistics.median(added["fresh"]):.0f} ns = '
          f'{ratio("fresh", 1)} one event (target: <= 1.5x)')
    print(f'a fresh buffer every launch: '
          f'+{statistics.median(added["alloc"]):.0f} ns = '
          f'{ratio("alloc", 3)} three events (alloc, launch, free; '
          'target: <= 1.5x)')
    if a.callgrind:
        ev, fresh, alloc = insns
        print(f'instructions: one event {ev:.0f}; a new combination '
              f'+{fresh:.0f} = {fresh / ev:.2f}x; a fresh buffer '
              f'+{alloc:.0f} = {alloc / (3 * ev):.2f}x three events')


def instructions(session, a, env, tmp):
    """Instructions a round: one event (the libc wrapper's pair, halved), and
    what hipgrain adds to the two written loops."""
    def count(argv, extra):
        out = os.path.join(tmp, 'callgrind.out')
        session.run(['valgrind', '--tool=callgrind', '-q',
                     '--callgrind-out-file=' + out] + argv, dict(env, **extra))
        with open(out) as f:
            return int(re.search(r'^summary: (\d+)', f.read(), re.M)[1])

    def per_round(argv, extra):
        """argv(n): the command for n rounds."""
        return (count(argv(2 * ROUNDS), extra) -
                count(argv(ROUNDS), extra)) / ROUNDS

    def anchor(n):
        return [a.anchor, str(n)]

    wrap = {'LD_PRELOAD': LIBC_WRAPPER}
    event = (per_round(anchor, wrap) - per_round(anchor, {})) / 2
    pre = {'LD_PRELOAD': a.preload}
    added = []
    for mode in ('fresh', 'alloc'):
        def prog(n, mode=mode):
            return [a.prog, str(n), mode]
        added.append(per_round(prog, pre) - per_round(prog, {}))
    return event, added[0], added[1]

if __name__ == '__main__':
    main()
