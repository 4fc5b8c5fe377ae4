#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report -j N` and summaries: the same report, byte for byte.

usage: test_jobs.py HIPGRAIN TRACEGEN

Rank traces, each from other rule cases (findings, failed calls, a leak at
the end, what the virtual GPU saw and moved, the driver's view, two
processes in one trace), are reported with -j 1, 2 and 3 (an uneven split)
in every format, with an unreadable trace among them; then each trace's
summary (--summary) stands in for it.  Output, messages and exit status
must not differ, nor from findings grouped at output instead of as each
trace arrives (HIPGRAIN_GROUP_AT_OUTPUT=1).
"""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import hgrun  # noqa: E402
from lttng_session import Tracing  # noqa: E402

HIPGRAIN, TRACEGEN = sys.argv[1], sys.argv[2]
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases')
TMP = tempfile.mkdtemp(prefix='hgjobs-')
OUT = os.path.join(TMP, 'mpi.out')
atexit.register(shutil.rmtree, TMP, True)
tap = hgrun.Tap()

# Each rank's trace: the processes (rule cases) it holds.
RANKS = [
    ['observed_traffic.fire', 'leak.fire'],
    ['driver_gran_differs.fire'],
    ['observed_drop.fire'],
    ['uaf_copy_at_copy.fire', 'observed_not_run.fire'],
    ['fp_atomic_host.fire'],
    ['int_atomic_min.fire'],
    ['prefetch_at_prefetch.fire'],
    # Findings equal to earlier ranks', merged into their groups as this
    # trace arrives.
    ['fp_atomic_host.fire', 'observed_drop.fire'],
]
FORMATS = [['--format', f] for f in ('text', 'json', 'html', 'perfetto',
                                     'sarif')] + [['--inventory']]


def as_rank(case, rank, n):
    src = open(os.path.join(CASES, case + '.tg')).read().split('\n')
    at = next(i for i, ln in enumerate(src) if ln.startswith('process '))
    src.insert(at + 1, 'env name=OMPI_COMM_WORLD_RANK value=%d' % rank)
    path = os.path.join(TMP, 'r%d-%d.tg' % (rank, n))
    with open(path, 'w') as f:
        f.write('\n'.join(src))
    return path


def make_traces():
    dirs = []
    for rank, cases in enumerate(RANKS):
        out = os.path.join(TMP, 'job', 'rank%d' % rank)
        with Tracing(out) as t:
            for n, case in enumerate(cases):
                r = t.run([TRACEGEN, as_rank(case, rank, n)])
                assert r.returncode == 0, r.stderr
        dirs.append(out)
    return dirs


def report(*args, late='0'):
    """Status, output and messages; babeltrace2's messages name addresses
    of its objects, which differ from one run to the next at any -j."""
    p = subprocess.run([HIPGRAIN, 'report'] + list(args),
                       capture_output=True,
                       env=dict(os.environ, NO_COLOR='1',
                                HIPGRAIN_GROUP_AT_OUTPUT=late))
    return (p.returncode, p.stdout,
            re.sub(rb'0x[0-9a-f]{8,}', b'0xADDR', p.stderr))


def same_for_jobs(name, fmt, inputs):
    one = report('-j', '1', *fmt, *inputs)
    late = report('-j', '1', *fmt, *inputs, late='1')
    tap.ok(late == one, '%s %s: grouped as each trace arrives, the report '
           'grouped at output' % (name, ' '.join(fmt)),
           '' if late == one else '%r\n%r' % (one[1][:2000], late[1][:2000]))
    for j in ('2', '3'):
        other = report('-j', j, *fmt, *inputs)
        tap.ok(other == one, '%s %s: -j %s gives -j 1\'s report, messages '
               'and status' % (name, ' '.join(fmt), j),
               '' if other == one else '%r\n%r' % (one[0], other[0]))
    return one


def bad_trace():
    """A trace directory whose metadata is not CTF: said, and left out."""
    d = os.path.join(TMP, 'job', 'broken')
    os.makedirs(d)
    with open(os.path.join(d, 'metadata'), 'w') as f:
        f.write('not a trace\n')
    with open(os.path.join(d, 'stream_0'), 'wb') as f:
        f.write(b'\0' * 64)
    return d


def mpi(dirs):
    """mpirun -np 2 (and 3: an uneven split) --mpi: rank 0 writes the
    report one process writes, to -o's file; the other ranks write
    nothing."""
    mpirun = shutil.which('mpirun')
    if not mpirun or not os.path.exists('/usr/lib/x86_64-linux-gnu/'
                                        'libmpi.so.40'):
        tap.skip('--mpi', 'no Open MPI here')
        return
    e = dict(os.environ, NO_COLOR='1', OMPI_ALLOW_RUN_AS_ROOT='1',
             OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
             OMPI_MCA_rmaps_base_oversubscribe='1', OMPI_MCA_btl='self,vader',
             OMPI_MCA_btl_vader_single_copy_mechanism='none')
    for k in list(e):
        if k.startswith(('OMPI_COMM_WORLD', 'PMIX_', 'PMI_', 'SLURM_')):
            del e[k]
    # Open MPI leaks from components it unloads at MPI_Finalize, so
    # LeakSanitizer (in the sanitized build) cannot name them to suppress;
    # the report code the ranks run is leak-checked by the -j cases above.
    e['ASAN_OPTIONS'] = ':'.join(filter(None, [e.get('ASAN_OPTIONS'),
                                               'detect_leaks=0']))
    for np, fmt in (('2', 'json'), ('3', 'text'), ('2', 'html')):
        want = report('-j', '1', '--format', fmt, *dirs)
        p, got = mpirun_report(e, ['-np', np, HIPGRAIN, 'report', '--mpi',
                                   '--format', fmt, '-o', OUT] + dirs)
        tap.ok(p.returncode == 0 and got == want[1] and not p.stdout,
               'mpirun -np %s --mpi --format %s: the report of one process'
               % (np, fmt), p.stderr.decode(errors='replace'))
    node_local(e, dirs)


def mpirun_report(env, argv):
    if os.path.exists(OUT):
        os.unlink(OUT)
    p = subprocess.run([shutil.which('mpirun'), '--oversubscribe'] + argv,
                       capture_output=True, env=env, timeout=300)
    return p, open(OUT, 'rb').read() if os.path.exists(OUT) else b''


def node_local(env, dirs):
    """Traces each node holds on its own disk: ranks that find other
    inputs than rank 0 (mpirun's MPMD form gives each its own) judge their
    own, those that find the same share them; rank 0's report is the one
    process's over the union."""
    splits = [(dirs[:3], [dirs[3:]]),           # two disjoint halves
              (dirs[:2], [dirs[2:], dirs[2:]])]  # two ranks share the rest
    for fmt, (first, rest) in zip(('json', 'text'), splits):
        argv = ['-np', '1', HIPGRAIN, 'report', '--mpi', '--format', fmt,
                '-o', OUT] + first
        for mine in rest:
            argv += [':', '-np', '1', HIPGRAIN, 'report', '--mpi',
                     '--format', fmt, '-o', OUT] + mine
        union = first + [d for d in dirs if d not in first and
                         any(d in m for m in rest)]
        want = report('-j', '1', '--format', fmt, *union)
        p, got = mpirun_report(env, argv)
        tap.ok(p.returncode == 0 and got == want[1] and not p.stdout,
               'node-local traces, %d ranks (%s): rank 0 writes the report '
               'over the union' % (1 + len(rest), ' | '.join(
                   ','.join(os.path.basename(d) for d in m)
                   for m in [first] + rest)),
               p.stderr.decode(errors='replace'))


def main():
    dirs = make_traces()
    for fmt in FORMATS:
        rc, out, err = same_for_jobs('ranks', fmt, dirs)
        tap.ok(rc == 0 and out and not err, 'ranks %s: a report' %
               ' '.join(fmt), err.decode(errors='replace'))
    doc = json.loads(report('-j', '2', '--format', 'json', *dirs)[1])
    tap.ok(len(doc['processes']) == 11, 'every process of every rank in '
           'the merged report', [p['process'] for p in doc['processes']])
    broken = dirs[:3] + [bad_trace()] + dirs[3:]
    for fmt in FORMATS[:2]:
        rc, out, err = same_for_jobs('unreadable in the middle', fmt, broken)
        tap.ok(rc == 0 and b'broken' in err,
               'unreadable in the middle %s: said, the rest reported' %
               ' '.join(fmt), err.decode(errors='replace'))
    sums = []
    for i, d in enumerate(dirs):
        s = os.path.join(TMP, 'sum%d.hgsum' % i)
        rc, out, err = report('--summary', s, d)
        tap.ok(rc == 0 and os.path.getsize(s) > 0,
               'rank %d: its summary written' % i, err.decode())
        sums.append(s)
    for fmt in FORMATS[:2] + FORMATS[4:]:
        a = report('-j', '1', *fmt, *dirs)
        b = report('-j', '2', *fmt, *sums)
        tap.ok(a == b, 'summaries %s: the traces\' report' % ' '.join(fmt))
    mixed = report('-j', '3', *(sums[:3] + dirs[3:]))
    tap.ok(mixed == report('-j', '1', *dirs),
           'summaries and traces mixed: the same report')
    damaged = os.path.join(TMP, 'damaged.hgsum')
    with open(sums[1], 'rb') as f:
        data = f.read()
    with open(damaged, 'wb') as f:
        f.write(data[:len(data) // 2])
    rcs = [report('-j', j, dirs[0], damaged, dirs[2]) for j in ('1', '2')]
    tap.ok(rcs[0] == rcs[1] and rcs[0][0] == 1 and
           b'damaged.hgsum: damaged summary' in rcs[0][2],
           'a damaged summary: said, no report, on every -j',
           repr(rcs[0][2]))
    mpi(dirs)
    rc, _, err = report('-j', '0', dirs[0])
    tap.ok(rc == 64 and b'--jobs' in err, '-j 0: a usage error')
    sys.exit(tap.done())


main()
