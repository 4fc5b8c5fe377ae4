#!/usr/bin/env python3
"""malloc+free pairs: hipgrain's preload against its anchors, in one run.

Anchors: plain glibc; lttng-ust's own libc wrapper with a session recording
its events; heaptrack.  Prints ns/pair (median of --runs) and each one's
ratio to glibc and to hipgrain.  A benchmark, not a test: it never fails on
a number.
"""
import argparse
import os
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
    a = ap.parse_args()
    prog = [a.prog, str(a.pairs)]
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
    print(f'hipgrain adds {ours - base:.1f} ns per pair (target: total <= 40 ns)')


if __name__ == '__main__':
    main()
