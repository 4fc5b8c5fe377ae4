#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hipgrain in MPI jobs: Debian's Open MPI, 4 ranks of tests/jobs/hg_ranks
against the test double, both ways round.

usage: test_jobs.py CASE HIPGRAIN HG_RANKS FAKEHIP_DIR MPIRUN

CASE:
  ranks        mpirun -np 4 hipgrain run -- app, 20 times: every rank
               prints one line, the job's status is as without hipgrain,
               one session daemon per job (none left after), rank-named
               traces holding their rank's process only, and the merged
               report holds one finding on ranks 0 and 2.
  wrap         hipgrain run -- mpirun -np 4 app, 20 times: no rank
               aborts, the job's status is as without hipgrain, findings
               are named by the rank's image (not mpirun), ranks 0 and 2.
  fork-helper  both ways, rank 1 forks a helper that closes every
               descriptor and execs: the job still ends well.
  exit-status  a rank that exits 3: the job's status as without hipgrain.
  output       --output placeholders, a bad placeholder, Slurm's variables.
  relay        --relay to an lttng-relayd the test starts on 127.0.0.1.
  as-user      a user's job (nobody): the shared daemon in the rendezvous.
"""
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import hgrun  # noqa: E402

CASE, HG, APP, FAKEHIP, MPIRUN = sys.argv[1:6]
REPS = int(os.environ.get('HIPGRAIN_JOBS_REPS', '20'))
NP = 4
FIRING = [0, 2]  # even ranks sum into fine-grained host memory

tap = hgrun.Tap()


def env():
    e = hgrun.fake_env(FAKEHIP)
    # Open MPI refuses root without these; 4 ranks on 2 cores (Open MPI 4
    # reads the OMPI_ variable, 5 and later PRRTE's mapping policy).
    e.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
             OMPI_MCA_rmaps_base_oversubscribe='1',
             PRTE_MCA_rmaps_default_mapping_policy=':oversubscribe',
             OMPI_MCA_btl='self,vader', OMPI_MCA_btl_vader_single_copy_mechanism='none')
    for k in list(e):
        if k.startswith(('OMPI_COMM_WORLD', 'PMIX_', 'PMI_', 'SLURM_')):
            del e[k]
    return e


def mpirun(*argv):
    return [MPIRUN, '-np', str(NP)] + list(argv)


def run(cmd, cwd, extra_env=None, timeout=600):
    e = env()
    e.update(extra_env or {})
    return subprocess.run(hgrun.hermetic(cmd), cwd=cwd, env=e,
                          capture_output=True, text=True, timeout=timeout)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] not in 'ZX'
    except OSError:
        return False


def daemons(stderr):
    return [int(m) for m in re.findall(
        r'started a private session daemon \(pid (\d+)\)', stderr)]


def merged(traces, cwd):
    p = subprocess.run([HG, 'report', '--format', 'json'] + traces, cwd=cwd,
                       capture_output=True, text=True)
    try:
        return p, json.loads(p.stdout)
    except json.JSONDecodeError:
        return p, None


def fp_findings(doc):
    return [f for f in doc['findings'] if f['rule'] == 'fp-atomic-fine-grain']


def baseline(*args):
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(APP, *args), tmp)
    return p.returncode


def check_merged(name, p, doc):
    if not tap.ok(doc is not None, '%s: merged report is JSON' % name,
                     p.stderr[-2000:]):
        return
    fp = fp_findings(doc)
    tap.ok(len(fp) == 1 and fp[0]['where']['ranks'] == FIRING,
              '%s: one fp-atomic-fine-grain finding on ranks %s' %
              (name, FIRING), json.dumps(fp)[:2000])
    tap.ok(all('mpirun' not in f['where']['process'] for f in fp),
              '%s: the finding names the rank image, not mpirun' % name,
              json.dumps(fp)[:500])


def one_ranks_job(rep, args=(), want_status=0):
    name = 'ranks #%d%s' % (rep, ' ' + ' '.join(args) if args else '')
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(HG, 'run', '--', APP, *args), tmp)
        ok = tap.ok(p.returncode == want_status,
                       '%s: job status %d' % (name, want_status),
                       'got %d\n%s' % (p.returncode, p.stderr[-3000:]))
        lines = re.findall(r'^hipgrain: rank (\d+) on \S+: (\d+) findings?.*'
                           r'trace in (\S+)$', p.stdout, re.M)
        ranks = sorted(int(r) for r, _, _ in lines)
        ok &= tap.ok(ranks == list(range(NP)),
                        '%s: one line per rank' % name, p.stdout[-2000:])
        ok &= tap.ok('error[' not in p.stdout,
                        '%s: no full report per rank' % name)
        want = {r: (1 if r in FIRING else 0) for r in range(NP)}
        got = {int(r): int(n) for r, n, _ in lines}
        ok &= tap.ok(got == want, '%s: findings per rank' % name,
                        '%s != %s' % (got, want))
        ds = daemons(p.stderr)
        ok &= tap.ok(len(ds) == 1, '%s: one session daemon for the node'
                        % name, 'started: %s' % ds)
        ok &= tap.ok(not any(alive(d) for d in ds),
                        '%s: no daemon left after the job' % name)
        dirs = sorted(glob.glob(os.path.join(tmp, 'hipgrain-trace-job*',
                                             'rank*-*')))
        names = [os.path.basename(d).split('-')[0] for d in dirs]
        ok &= tap.ok(names == ['rank%d' % r for r in range(NP)],
                        '%s: traces named for the job and rank' % name,
                        str(dirs))
        for d in dirs[:1]:
            st, doc = hgrun.report(HG, d)
            ok &= tap.ok(doc and doc['summary']['processes'] == 1,
                            '%s: a rank trace holds its own process only'
                            % name, str(doc and doc['summary']))
        if rep == 0 or not ok:
            p2, doc = merged([os.path.dirname(dirs[0])] if dirs else [tmp],
                             tmp)
            check_merged(name, p2, doc)
        # This job's rendezvous only: other jobs may run on the machine.
        jobs = ['job-' + os.path.basename(os.path.dirname(d))[
            len('hipgrain-trace-job'):] for d in dirs[:1]]
        left = [p for j in jobs for p in
                glob.glob('/tmp/hipgrain-%d/%s' % (os.geteuid(), j))]
        tap.ok(jobs and not left, '%s: rendezvous removed' % name, str(left))


def one_wrap_job(rep, args=(), want_status=0):
    name = 'wrap #%d%s' % (rep, ' ' + ' '.join(args) if args else '')
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        out = os.path.join(tmp, 'trace')
        p = run([HG, 'run', '-q', '--no-report', '-o', out, '--'] +
                mpirun(APP, *args), tmp)
        tap.ok(p.returncode == want_status,
                  '%s: job status %d' % (name, want_status),
                  'got %d\n%s' % (p.returncode, p.stderr[-3000:]))
        tap.ok('Assertion' not in p.stderr and
                  'Forwarding signal' not in p.stderr,
                  '%s: no rank aborted' % name, p.stderr[-2000:])
        p2, doc = merged([out], tmp)
        check_merged(name, p2, doc)


def t_ranks():
    base = baseline()
    tap.ok(base == 0, 'the job exits 0 without hipgrain', str(base))
    for rep in range(REPS):
        one_ranks_job(rep)


def t_wrap():
    for rep in range(REPS):
        one_wrap_job(rep)


def t_fork_helper():
    base = baseline('fork-helper')
    tap.ok(base == 0, 'fork-helper job exits 0 without hipgrain',
              str(base))
    for rep in range(max(1, REPS // 4)):
        one_ranks_job(rep, ('fork-helper',), base)
        one_wrap_job(rep, ('fork-helper',), base)


def t_exit_status():
    args = ('exit-rank', '2', '3')
    base = baseline(*args)
    tap.ok(base == 3, 'a rank exiting 3 makes the job exit 3', str(base))
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(HG, 'run', '--', APP, *args), tmp)
        tap.ok(p.returncode == base, 'ranks under hipgrain: same status',
                  '%d\n%s' % (p.returncode, p.stderr[-2000:]))
        p = run([HG, 'run', '-q', '--no-report', '-o', 'w', '--'] +
                mpirun(APP, *args), tmp)
        tap.ok(p.returncode == base, 'hipgrain around mpirun: same status',
                  '%d\n%s' % (p.returncode, p.stderr[-2000:]))


def t_output():
    host = socket.gethostname()
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(HG, 'run', '-q', '-o', 'out/%j/%h-r%r-p%p', '--',
                       APP), tmp)
        tap.ok(p.returncode == 0, 'placeholders: job runs', p.stderr[-2000:])
        got = sorted(glob.glob(os.path.join(tmp, 'out', '*', '*')))
        pat = re.compile(r'/out/[^/]+/%s-r(\d)-p\d+$' % re.escape(host))
        ranks = sorted(int(pat.search(d).group(1)) for d in got
                       if pat.search(d))
        tap.ok(ranks == list(range(NP)), '%h %r %p %j expand per rank',
                  str(got))
        # Slurm, without Slurm: srun sets these for every task.
        slurm = {'SLURM_PROCID': '5', 'SLURM_JOB_ID': '4242',
                 'SLURM_STEP_ID': '0'}
        p = run([HG, 'run', '--', APP], tmp, slurm)
        d = os.path.join(tmp, 'hipgrain-trace-job4242.0', 'rank5-' + host)
        tap.ok(p.returncode == 0 and os.path.isdir(d),
                  'Slurm: default trace named for job 4242.0 and rank 5',
                  p.stderr[-1500:] + str(os.listdir(tmp)))
        tap.ok(re.search(r'^hipgrain: rank 5 on \S+: 1 finding', p.stdout,
                            re.M) is not None, 'Slurm: one line for rank 5',
                  p.stdout)
        st, doc = hgrun.report(HG, d)
        tap.ok(doc and fp_findings(doc) and
                  fp_findings(doc)[0]['where']['ranks'] == [5],
                  'Slurm: the trace records rank 5', str(doc)[:1500])
        p = run([HG, 'run', '-o', 'x%q', '--', APP], tmp)
        tap.ok(p.returncode == 64 and 'placeholder' in p.stderr,
                  'an unknown placeholder is bad usage (64)',
                  '%d %s' % (p.returncode, p.stderr))


def t_as_user():
    """A user's job: the node's daemon lives in the rendezvous directory
    (its LTTNG_HOME), shared by the ranks, and goes with the last one."""
    if os.geteuid() != 0 or not shutil.which('setpriv'):
        print('1..0 # SKIP needs root and setpriv to become another user')
        sys.exit(77)
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        os.chmod(tmp, 0o755)
        home = os.path.join(tmp, 'home')
        os.mkdir(home)
        os.chown(home, 65534, 65534)
        e = env()
        for k in ('OMPI_ALLOW_RUN_AS_ROOT', 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM'):
            e.pop(k)
        e.update(HOME=home, TMPDIR=home, LTTNG_HOME=home)
        for rep in range(max(1, REPS // 4)):
            p = subprocess.run(
                ['setpriv', '--reuid', '65534', '--regid', '65534',
                 '--clear-groups'] + mpirun(HG, 'run', '--', APP), cwd=home,
                env=e, capture_output=True, text=True, timeout=600)
            name = 'as nobody #%d' % rep
            tap.ok(p.returncode == 0, '%s: job status 0' % name,
                   p.stderr[-2000:])
            lines = re.findall(r'^hipgrain: rank (\d+) on \S+: (\d+) '
                               r'findings?', p.stdout, re.M)
            tap.ok({int(r): int(n) for r, n in lines} ==
                   {r: (1 if r in FIRING else 0) for r in range(NP)},
                   '%s: one line per rank, findings on %s' % (name, FIRING),
                   p.stdout[-1500:])
            ds = daemons(p.stderr)
            tap.ok(len(ds) == 1 and not any(alive(d) for d in ds),
                   '%s: one daemon for the node, gone after' % name,
                   str(ds))
            left = [x for x in os.listdir(home) if x.startswith('hipgrain-')
                    and not x.startswith('hipgrain-trace')]
            tap.ok(not left, '%s: rendezvous and its LTTNG_HOME removed'
                   % name, str(left))


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def t_relay():
    relayd = shutil.which('lttng-relayd')
    if not tap.ok(relayd is not None, 'lttng-relayd is installed'):
        return
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        ctrl, data, live = free_port(), free_port(), free_port()
        outdir = os.path.join(tmp, 'relay')
        rd = subprocess.Popen(
            [relayd, '-C', 'tcp://127.0.0.1:%d' % ctrl,
             '-D', 'tcp://127.0.0.1:%d' % data,
             '-L', 'tcp://127.0.0.1:%d' % live, '-o', outdir],
            env=dict(os.environ, LTTNG_HOME=tmp), stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(200):  # until it listens; not a time limit
                try:
                    socket.create_connection(('127.0.0.1', ctrl), 1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            target = '127.0.0.1:%d:%d' % (ctrl, data)
            p = run(mpirun(HG, 'run', '--relay', target, '--', APP), tmp)
            tap.ok(p.returncode == 0, 'ranks stream to the relay',
                      p.stderr[-2000:] + p.stdout[-1000:])
            lines = re.findall(r'^hipgrain: rank (\d+) on \S+: trace '
                               r'streamed to lttng-relayd at', p.stdout, re.M)
            tap.ok(sorted(int(r) for r in lines) == list(range(NP)),
                      'relay: one line per rank', p.stdout[-1500:])
            p2, doc = merged([outdir], tmp)
            check_merged('relay', p2, doc)
            tap.ok(doc and doc['summary']['traces_read'] == NP,
                      'relay: the relay host holds one trace per rank',
                      str(doc and doc['summary']))
        finally:
            rd.send_signal(signal.SIGTERM)
            rd.wait(timeout=60)


def t_vgpu_node():
    """The job on a whole virtual node (4xMI250X: eight GCDs), on the
    machine's real runtime: each rank is given the GCD of its local rank,
    as site wrappers do, and the merged report names rank and GCD."""
    e = hgrun.vgpu_env()
    e.update({k: v for k, v in env().items() if k.startswith(('OMPI_', 'PRTE_'))})
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        out = os.path.join(tmp, 'trace')
        p = subprocess.run(hgrun.hermetic(
            [HG, 'run', '--virtual-gpu', '4xMI250X', '-q', '--no-report',
             '-o', out, '--'] + mpirun(APP)), cwd=tmp, env=e,
            capture_output=True, text=True, timeout=600)
        tap.ok(p.returncode == 0, 'vgpu-node: job status 0',
               'got %d\n%s' % (p.returncode, p.stderr[-3000:]))
        p2, doc = merged([out], tmp)
        check_merged('vgpu-node', p2, doc)
        procs = [q['process'] for q in (doc or {}).get('processes', [])]
        given = {}
        for name in procs:
            m = re.search(r', rank (\d+), GPU (\S+)$', name)
            if m:
                given[int(m.group(1))] = m.group(2)
        # The local rank is the rank's place on its node in the launcher's
        # mapping, which need not follow the world rank (Open MPI 5 maps
        # by package): each rank a GCD of its own, the first NP of them.
        tap.ok(sorted(given) == list(range(NP)) and
               sorted(given.values()) == [str(g) for g in range(NP)],
               'vgpu-node: each rank on the GCD of its local rank',
               '\n'.join(procs))


{'ranks': t_ranks, 'wrap': t_wrap, 'fork-helper': t_fork_helper,
 'as-user': t_as_user,
 'exit-status': t_exit_status, 'output': t_output,
 'relay': t_relay, 'vgpu-node': t_vgpu_node}[CASE]()
sys.exit(tap.done())
