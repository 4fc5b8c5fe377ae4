#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hipgrain in MPI jobs: Debian's Open MPI, 8 ranks of tests/jobs/hg_ranks
(4 where only the job's mechanics are tested) on a whole virtual node
(4xMI250X: eight GCDs) under the machine's real ROCm runtime, both ways
round.  Each rank is given the GCD of its local rank, its kernel runs on
the virtual GPU's interpreter, and it prints what its sum came to.

usage: test_jobs.py CASE HIPGRAIN HG_RANKS FAKEHIP_DIR MPIRUN

CASE:
  ranks        mpirun -np 8 hipgrain run -- app, REPS times: every rank
               prints one line, the job's status is as without hipgrain,
               one session daemon per job (none left after), rank-named
               traces holding their rank's process only, and the merged
               report holds one finding on the even ranks, names each
               rank's node and GCD, and agrees with the ranks' own sums.
  wrap         hipgrain run -- mpirun -np 8 app, REPS times: no rank
               aborts, the job's status is as without hipgrain, findings
               are named by the rank's image (not mpirun), even ranks.
  fork-helper  both ways, rank 1 forks a helper that closes every
               descriptor and execs: the job still ends well.
  exit-status  a rank that exits 3: the job's status as without hipgrain.
  output       --output placeholders, a bad placeholder, Slurm's variables
               (the GPU from SLURM_LOCALID).
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
# 10 jobs of 8 ranks start as many ranks as the 20 jobs of 4 did before
# the suite moved to the node; the cases of 4 ranks run half as many jobs,
# as they did.
REPS = int(os.environ.get('HIPGRAIN_JOBS_REPS', '10'))
NODE = '4xMI250X'
# A rank on each of the node's eight GCDs where the node is what is tested
# (the GCD each rank is given, the report naming it, both ways round and
# through a relay); four where the job's own mechanics are (a helper
# closing descriptors, exit statuses, output names, a user's daemon),
# which ranks on every GCD would only make slower: eight ranks each
# loading ROCm cost about twice four on this suite's two cores.
NP = 8 if CASE in ('ranks', 'wrap', 'relay') else 4
N = 1024  # hg_ranks' element count: the sum a rank gets when none is lost
FIRING = list(range(0, NP, 2))  # even ranks sum into fine-grained memory

tap = hgrun.Tap()


def env(double=False):
    e = hgrun.fake_env(FAKEHIP) if double else hgrun.vgpu_env()
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


def hg_run(*argv):
    """hipgrain run on the virtual node, with argv's options."""
    return [HG, 'run', '--virtual-gpu', NODE] + list(argv)


def run(cmd, cwd, extra_env=None, timeout=600, double=False):
    e = env(double)
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
    """The job's status with no hipgrain at all.  The virtual GPU exists
    only under hipgrain run, so this one job runs on the libamdhip64 test
    double: the program's status is its own choice (exit-rank), whatever
    its kernels computed."""
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(APP, *args), tmp, double=True)
    return p.returncode


# "hg_ranks[pid] on HOST, rank R, GPU G (MI250X, card C's first GCD)"
RANK_PROC = re.compile(r"hg_ranks\[\d+\] on (\S+), rank (\d+), GPU (\d+) "
                       r"\(MI250X, card (\d+)'s (first|second) GCD\)$")
# hg_ranks' own line: what its runtime showed it and what its sum came to.
RANK_LINE = re.compile(r'^rank (\d+): local rank (\S+), (\d+) devices?, '
                       r'bus (\S+), sum (\S+) of (\d+)$', re.M)


def programs(name, out):
    """{rank: (local rank, devices, bus, sum)} from the ranks' own lines;
    checks that each rank's result is what its memory gives on the node:
    the even ranks' atomics on fine-grained memory did nothing."""
    got = {int(r): (loc, int(nd), bus, float(s))
           for r, loc, nd, bus, s, n in RANK_LINE.findall(out)
           if int(n) == N}
    tap.ok(sorted(got) == list(range(NP)),
           '%s: every rank printed its result' % name, out[-2000:])
    sums = {r: v[3] for r, v in got.items()}
    tap.ok(got and sums == {r: 0.0 if r in FIRING else float(N)
                            for r in got},
           '%s: the sum is lost on the even ranks only (kernels ran)' % name,
           str(sums))
    return got


def check_node(name, doc, ranks):
    """The merged report names each rank's node and GCD, as the analyzer
    names GPUs, and each rank ran on the GCD of its local rank: the one
    its runtime showed it, by PCI bus."""
    host = socket.gethostname()
    procs = [q['process'] for q in (doc or {}).get('processes', [])]
    named = {}
    for proc in procs:
        m = RANK_PROC.match(proc)
        if m and m.group(1) == host and int(m.group(4)) == \
                int(m.group(3)) // 2 and m.group(5) == \
                ('second' if int(m.group(3)) % 2 else 'first'):
            named[int(m.group(2))] = int(m.group(3))
    tap.ok(sorted(named) == list(range(NP)),
           "%s: each rank named with its node %s and its GCD, e.g. 'GPU 3 "
           "(MI250X, card 1's second GCD)'" % (name, host), '\n'.join(procs))
    # The local rank is the rank's place on its node in the launcher's
    # mapping, which need not follow the world rank (Open MPI 5 maps by
    # package).
    tap.ok(named and all(str(g) == ranks.get(r, ('-',))[0]
                         for r, g in named.items()) and
           sorted(named.values()) == list(range(NP)),
           '%s: each rank on the GCD of its local rank' % name,
           '%s\n%s' % (named, ranks))
    bus = {r: int(v[2].split(':')[1], 16) for r, v in ranks.items()
           if v[1] == 1 and v[2].count(':') == 2}
    low = min(bus.values()) if bus else 0
    tap.ok(named and sorted(bus) == list(range(NP)) and
           all(bus[r] - low == named.get(r) for r in bus),
           '%s: each rank saw one GPU, on the bus of the GCD the report '
           'names' % name, '%s\n%s' % (named, ranks))


def check_merged(name, p, doc, ranks):
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
    dropped = fp and (fp[0].get('observed') or {}).get('dropped')
    # LLVM 21 sums a wave's adds first and has one lane add the sum: one
    # dropped atomic a wave rather than a work-item.
    tap.ok(dropped in (N * len(FIRING), N // 64 * len(FIRING)),
           '%s: the report saw every atomic of the even ranks do nothing '
           '(one a work-item, or a wave as LLVM 21 compiles it)'
           % name, str(dropped))
    check_node(name, doc, ranks)


def one_ranks_job(rep, args=(), want_status=0):
    name = 'ranks #%d%s' % (rep, ' ' + ' '.join(args) if args else '')
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(*hg_run('--', APP, *args)), tmp)
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
        ranks = programs(name, p.stdout)
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
            check_merged(name, p2, doc, ranks)
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
        p = run(hg_run('-q', '--no-report', '-o', out, '--') +
                mpirun(APP, *args), tmp)
        tap.ok(p.returncode == want_status,
                  '%s: job status %d' % (name, want_status),
                  'got %d\n%s' % (p.returncode, p.stderr[-3000:]))
        tap.ok('Assertion' not in p.stderr and
                  'Forwarding signal' not in p.stderr,
                  '%s: no rank aborted' % name, p.stderr[-2000:])
        p2, doc = merged([out], tmp)
        check_merged(name, p2, doc, programs(name, p.stdout))


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
    for rep in range(max(1, REPS // 2)):
        one_ranks_job(rep, ('fork-helper',), base)
        one_wrap_job(rep, ('fork-helper',), base)


def t_exit_status():
    args = ('exit-rank', '2', '3')
    base = baseline(*args)
    tap.ok(base == 3, 'a rank exiting 3 makes the job exit 3', str(base))
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(*hg_run('--', APP, *args)), tmp)
        tap.ok(p.returncode == base, 'ranks under hipgrain: same status',
                  '%d\n%s' % (p.returncode, p.stderr[-2000:]))
        p = run(hg_run('-q', '--no-report', '-o', 'w', '--') +
                mpirun(APP, *args), tmp)
        tap.ok(p.returncode == base, 'hipgrain around mpirun: same status',
                  '%d\n%s' % (p.returncode, p.stderr[-2000:]))


def t_output():
    host = socket.gethostname()
    with tempfile.TemporaryDirectory(prefix='hgjobs-') as tmp:
        p = run(mpirun(*hg_run('-q', '-o', 'out/%j/%h-r%r-p%p', '--',
                              APP)), tmp)
        tap.ok(p.returncode == 0, 'placeholders: job runs', p.stderr[-2000:])
        got = sorted(glob.glob(os.path.join(tmp, 'out', '*', '*')))
        pat = re.compile(r'/out/[^/]+/%s-r(\d)-p\d+$' % re.escape(host))
        ranks = sorted(int(pat.search(d).group(1)) for d in got
                       if pat.search(d))
        tap.ok(ranks == list(range(NP)), '%h %r %p %j expand per rank',
                  str(got))
        # Slurm, without Slurm: srun sets these for every task, and the
        # task's place on its node gives it its GPU.
        slurm = {'SLURM_PROCID': '5', 'SLURM_JOB_ID': '4242',
                 'SLURM_STEP_ID': '0', 'SLURM_LOCALID': '3'}
        p = run(hg_run('--', APP), tmp, slurm)
        d = os.path.join(tmp, 'hipgrain-trace-job4242.0', 'rank5-' + host)
        tap.ok(p.returncode == 0 and os.path.isdir(d),
                  'Slurm: default trace named for job 4242.0 and rank 5',
                  p.stderr[-1500:] + str(os.listdir(tmp)))
        tap.ok(re.search(r'^hipgrain: rank 5 on \S+: \d+ findings? ', p.stdout,
                            re.M) is not None, 'Slurm: one line for rank 5',
                  p.stdout)
        st, doc = hgrun.report(HG, d)
        tap.ok(doc and fp_findings(doc) and
                  fp_findings(doc)[0]['where']['ranks'] == [5],
                  'Slurm: the trace records rank 5', str(doc)[:1500])
        procs = [q['process'] for q in (doc or {}).get('processes', [])]
        tap.ok(any(q.endswith(", rank 5, GPU 3 (MI250X, card 1's second "
                              "GCD)") for q in procs),
               'Slurm: the task is given the GCD of SLURM_LOCALID',
               '\n'.join(procs))
        p = run(hg_run('-o', 'x%q', '--', APP), tmp)
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
        for rep in range(max(1, REPS // 2)):
            p = subprocess.run(
                ['setpriv', '--reuid', '65534', '--regid', '65534',
                 '--clear-groups'] + mpirun(*hg_run('--', APP)), cwd=home,
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
            p = run(mpirun(*hg_run('--relay', target, '--', APP)), tmp)
            tap.ok(p.returncode == 0, 'ranks stream to the relay',
                      p.stderr[-2000:] + p.stdout[-1000:])
            lines = re.findall(r'^hipgrain: rank (\d+) on \S+: trace '
                               r'streamed to lttng-relayd at', p.stdout, re.M)
            tap.ok(sorted(int(r) for r in lines) == list(range(NP)),
                      'relay: one line per rank', p.stdout[-1500:])
            p2, doc = merged([outdir], tmp)
            check_merged('relay', p2, doc, programs('relay', p.stdout))
            tap.ok(doc and doc['summary']['traces_read'] == NP,
                      'relay: the relay host holds one trace per rank',
                      str(doc and doc['summary']))
        finally:
            rd.send_signal(signal.SIGTERM)
            rd.wait(timeout=60)


{'ranks': t_ranks, 'wrap': t_wrap, 'fork-helper': t_fork_helper,
 'as-user': t_as_user,
 'exit-status': t_exit_status, 'output': t_output,
 'relay': t_relay}[CASE]()
sys.exit(tap.done())
