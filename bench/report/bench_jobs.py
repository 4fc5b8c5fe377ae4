#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report` on many rank traces: one process, -j 2, and
`mpirun -np 2 … --mpi`, and one rank's trace against `babeltrace2 -o dummy`.

usage: bench_jobs.py HIPGRAIN TRACEGEN [EVENTS_PER_RANK] [RANKS...]

One rank trace of about EVENTS_PER_RANK (default 10,000) hipgrain events
is made with hg_tracegen in a real LTTng session and copied once per rank
(bench_ranks.py: its rank and UUID rewritten), for each count of ranks
(default 1024 4096).  Each way of reporting runs once per count: wall
time, CPU time (user + system, the workers' and MPI's processes counted)
and the peak RSS of its largest process; the JSON reports must be the
same, byte for byte.  The anchor is `babeltrace2 -o dummy` reading one
rank's trace, timed in the same run.  The goal: -j 2 at or under 0.6× the
wall time of one process on a 2-core machine.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_ranks import copy_as_rank, make_rank_trace  # noqa: E402
from bench_report import timed  # noqa: E402

MPI_ENV = dict(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
               OMPI_MCA_rmaps_base_oversubscribe='1', OMPI_MCA_btl='self,vader',
               OMPI_MCA_btl_vader_single_copy_mechanism='none')


def run(argv, out):
    """Wall s, CPU s and peak RSS KiB of argv (and every process it
    waited for), its report written to out."""
    env = dict(os.environ, **MPI_ENV)
    t0 = time.monotonic()
    p = subprocess.Popen(argv + ['-o', out], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 2):
        sys.exit('%s failed: %s' % (' '.join(argv[:4]),
                                    p.stderr.read().decode()))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def main():
    hipgrain, tracegen = sys.argv[1], sys.argv[2]
    events = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    counts = [int(a) for a in sys.argv[4:]] or [1024, 4096]
    mpirun = shutil.which('mpirun')
    tmp = tempfile.mkdtemp(prefix='hgbench-jobs-')
    try:
        src, n = make_rank_trace(tracegen, tmp, events)
        bt, _ = timed(['babeltrace2', src, '-o', 'dummy'])
        one, _ = timed([hipgrain, 'report', '-j', '1', src])
        print('one rank trace, %d hipgrain events: report %.3f s cpu, '
              'babeltrace2 -o dummy %.3f s cpu, ratio %.2f'
              % (n, one, bt, one / bt))
        job, have = os.path.join(tmp, 'job'), 0
        for k in sorted(counts):
            for r in range(have, k):
                copy_as_rank(src, os.path.join(job, 'rank%05d' % r), r)
            have = max(have, k)
            ways = [('one process', [hipgrain, 'report', '-j', '1']),
                    ('-j 2', [hipgrain, 'report', '-j', '2'])]
            if mpirun:
                ways.append(('mpirun -np 2 --mpi',
                             [mpirun, '--oversubscribe', '-np', '2',
                              hipgrain, 'report', '--mpi']))
            base, outs = None, []
            for name, argv in ways:
                out = os.path.join(tmp, 'report-%d-%d.json' % (k, len(outs)))
                # The job's folder, not its k rank folders: Open MPI hands
                # each rank its command line joined in one variable
                # (OMPI_ARGV), and 4,096 paths pass the kernel's limit on
                # one string, so mpirun cannot start hipgrain.  The folder
                # holds the first k ranks only, copied count by count.
                wall, cpu, rss = run(argv + ['--format', 'json', job], out)
                outs.append(open(out, 'rb').read())
                base = base or wall
                print('%5d ranks, %-19s wall %6.2f s (%.2fx)  cpu %6.2f s  '
                      'peak rss %6d KiB' % (k, name, wall, wall / base, cpu,
                                            rss))
            print('%5d ranks: the same report every way: %s'
                  % (k, 'yes' if all(o == outs[0] for o in outs) else 'NO'))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
