#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How long `meson test` takes in BUILD's order, from a run's durations.

usage: scripts/schedule.py BUILD TESTLOG [PROCESSES]

Replays meson's scheduler without running anything: the tests BUILD
defines, in priority order (then in the order defined), PROCESSES at a
time (2, as CI runs them), a test that is not parallel waiting until every
running test has ended and then running alone; each test takes the
duration TESTLOG (a meson-logs/testlog.json, of this build or another,
a release's chroot included) gives it.  Prints the wall time and the time
spent alone.  A test TESTLOG lacks counts as zero and is named.
"""
import json
import subprocess
import sys


def durations(path):
    """{test name: seconds} of a testlog.json ("suite / name" or, from
    older meson, "suite - project:name")."""
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            name = r['name'].split(' / ')[-1].split(':')[-1].strip()
            out[name] = r['duration']
    return out


def replay(tests, took, processes):
    now, alone, running = 0.0, 0.0, []
    for t in sorted(tests, key=lambda t: -t['priority']):
        d = took.get(t['name'], 0.0)
        if not t['is_parallel']:
            now = max([now] + running)
            running = []
            now += d
            alone += d
            continue
        if len(running) >= processes:
            running.sort()
            now = max(now, running.pop(0))
        running.append(now + d)
    return max([now] + running), alone


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and not argv[3].isdigit()):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    r = subprocess.run(['meson', 'introspect', argv[1], '--tests'],
                       capture_output=True, text=True)
    if r.returncode:
        print('schedule.py: %s is not a configured build: %s' %
              (argv[1], (r.stderr or r.stdout).strip()), file=sys.stderr)
        return 1
    try:
        took = durations(argv[2])
    except (OSError, ValueError, KeyError) as e:
        print('schedule.py: %s: not a meson test log: %s' % (argv[2], e),
              file=sys.stderr)
        return 1
    tests = json.loads(r.stdout)
    processes = int(argv[3]) if len(argv) == 4 else 2
    wall, alone = replay(tests, took, max(1, processes))
    lacking = sorted(t['name'] for t in tests if t['name'] not in took)
    print('%d tests, %d at a time: %.0f s, %.0f s of it alone' %
          (len(tests), processes, wall, alone))
    if lacking:
        print('not in the log (counted as 0 s): ' + ' '.join(lacking))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
