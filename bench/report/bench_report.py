#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report` against `babeltrace2 TRACE -o dummy` on the same trace.

usage: bench_report.py HIPGRAIN TRACEGEN [EVENTS] [--runs N]
                       [--anchor-tracegen OLD_TRACEGEN]
                       [--churn BM_LAUNCH FAKEHIP_DIR [ROUNDS]]

Makes a trace of about EVENTS (default 1,050,000) hipgrain events with
hg_tracegen in a real LTTng session, then times both readers, one run of
each in turn, N times (default 3: on a shared host load comes and goes,
and taking turns exposes both readers to the same spells of it), and
prints the ratio of their best and of their median CPU times (user +
system; target: at most 1.0) and each one's peak RSS.  A trace a quarter the size is read too:
memory should not grow with events.

With --anchor-tracegen, the same script is also written by an older
release's hg_tracegen (an older trace encoding), and babeltrace2's time
reading that trace is timed in the same turns: the report on today's
trace against what babeltrace2 spent reading the older encoding of the
same events, the anchor issue 52 names.

With --churn, also a trace that a real `hipgrain run --lossless` records
of bench/launch's allocation churn against the test double (each of
ROUNDS, default 350,000, a hipMalloc of 4 KiB, a launch and a hipFree:
three events a round), whose events are the small ones real programs
write; both readers are timed on it the same way, and both ratios printed.
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'tests', 'lib'))
from hgrun import hermetic  # noqa: E402
from lttng_session import Tracing  # noqa: E402

# 7 events per round; a handful of live blocks, two kernels.
ROUND = """alloc id=%i api=20 addr=0x7f0000000000 size=1048576 mem=1 gran=1 callsite=7
alloc id=1%i api=22 addr=0x7f1000000000 size=4096 mem=4 gran=2 callsite=7
memcpy api=50 dst=0x7f0000000000 src=0x7f1000000000 size=4096 kind=1 dst_id=%i src_id=1%i dst_mem=1 src_mem=4
launch handle=0x1000 arg_index=0,1 arg_value=0x7f0000000000,0x7f1000000000 arg_id=%i,1%i arg_mem=1,4 arg_gran=1,2
launch handle=0x2000 arg_index=0 arg_value=0x7f0000000000 arg_id=%i arg_mem=1 arg_gran=1
free id=%i api=40 addr=0x7f0000000000 alloc_api=20
free id=1%i api=41 addr=0x7f1000000000 alloc_api=22
"""
HEAD = """process ppid=1 exe=/bin/bench version=0.1.0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
callsite id=7 frames=self
function handle=0x1000 name=_Z3sumPfS_i
function handle=0x2000 name=_Z4copyPf
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2,2
kernel handle=0x2000 name=_Z4copyPf target=gfx90a xnack=1 arg_kind=2
"""


def make_trace(tracegen, tmp, events):
    rounds = events // 7 + 1
    script = os.path.join(tmp, 'bench-%d.tg' % events)
    with open(script, 'w') as f:
        f.write(HEAD + 'repeat %d\n%send\n' % (rounds, ROUND))
    out = os.path.join(tmp, 'trace-%d' % events)
    with Tracing(out, statedump=True) as t:
        r = t.run([tracegen, script])
        assert r.returncode == 0, r.stderr
    return out, rounds * 7


def make_churn(hipgrain, bm_launch, fakehip, tmp, rounds):
    out = os.path.join(tmp, 'churn')
    env = dict(os.environ, LD_LIBRARY_PATH=fakehip, HGFAKE_REUSE='1')
    env.pop('LD_PRELOAD', None)
    cmd = hermetic([hipgrain, 'run', '--no-report', '-q', '--lossless',
                    '-o', out, '--', bm_launch, str(rounds), 'a'])
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return out


def timed(argv, runs=3):
    """Best CPU time (user + system) of `runs` runs, and the peak RSS (KiB)
    of the last.  CPU time, not wall time: on a host shared with other work
    a reader's wall time also counts the time it waited for a core."""
    best = None
    for _ in range(runs):
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        _, status, ru = os.wait4(p.pid, 0)
        dt = ru.ru_utime + ru.ru_stime
        if os.waitstatus_to_exitcode(status) not in (0, 2):
            sys.exit('%s failed: %s' % (argv[0], p.stderr.read().decode()))
        best = dt if best is None else min(best, dt)
    return best, ru.ru_maxrss


def taking_turns(argvs, runs):
    """Per argv: the sorted CPU times of `runs` runs, one run of each argv
    in turn, and the peak RSS (KiB) of its last."""
    times, rss = [[] for _ in argvs], [0] * len(argvs)
    for _ in range(runs):
        for i, argv in enumerate(argvs):
            t, rss[i] = timed(argv, 1)
            times[i].append(t)
    return [sorted(t) for t in times], rss


def compare(hipgrain, trace, what, n, runs=3, anchor=None):
    """Times both readers on trace, taking turns (and babeltrace2 on the
    anchor trace, when given, in the same turns); prints and returns the
    ratio of the best times."""
    argvs = [['babeltrace2', trace, '-o', 'dummy'], [hipgrain, 'report', trace]]
    if anchor:
        argvs.append(['babeltrace2', anchor, '-o', 'dummy'])
    times, rss = taking_turns(argvs, runs)
    (bts, hgs), (bt_rss, hg_rss) = times[:2], rss[:2]
    bt, hg = bts[0], hgs[0]
    bt_med, hg_med = bts[len(bts) // 2], hgs[len(hgs) // 2]
    print('%s: %d hipgrain events (+ statedump), %d runs each'
          % (what, n, runs))
    print('  babeltrace2 -o dummy: %.3f s cpu (median %.3f)  %.2f M events/s'
          '  rss %d KiB' % (bt, bt_med, n / bt / 1e6, bt_rss))
    print('  hipgrain report:      %.3f s cpu (median %.3f)  %.2f M events/s'
          '  rss %d KiB' % (hg, hg_med, n / hg / 1e6, hg_rss))
    print('  ratio report/dummy:   %.2f best, %.2f median (target <= 1.0)'
          % (hg / bt, hg_med / bt_med))
    if anchor:
        old = times[2]
        old_med = old[len(old) // 2]
        print('  babeltrace2 -o dummy on the older encoding: %.3f s cpu '
              '(median %.3f)  rss %d KiB' % (old[0], old_med, rss[2]))
        print('  ratio report/dummy on the older encoding: %.2f best, '
              '%.2f median (target <= 1.0)' % (hg / old[0], hg_med / old_med))
    return hg / bt, hg_rss


def main():
    args = sys.argv[1:]
    churn, runs = None, 3
    if '--runs' in args:
        i = args.index('--runs')
        runs = int(args[i + 1])
        args = args[:i] + args[i + 2:]
    anchor_gen = None
    if '--anchor-tracegen' in args:
        i = args.index('--anchor-tracegen')
        anchor_gen = args[i + 1]
        args = args[:i] + args[i + 2:]
    if '--churn' in args:
        i = args.index('--churn')
        churn, args = args[i + 1:], args[:i]
    hipgrain, tracegen = args[0], args[1]
    events = int(args[2]) if len(args) > 2 else 1050000
    tmp = tempfile.mkdtemp(prefix='hgbench-')
    try:
        small, n_small = make_trace(tracegen, tmp, events // 4)
        big, n_big = make_trace(tracegen, tmp, events)
        anchor = None
        if anchor_gen:
            os.mkdir(os.path.join(tmp, 'anchor'))
            anchor, _ = make_trace(anchor_gen, os.path.join(tmp, 'anchor'),
                                   events)
        r_gen, hg_rss = compare(hipgrain, big, 'tracegen trace', n_big, runs,
                                anchor)
        _, hg_rss_small = timed([hipgrain, 'report', small])
        print('report rss, %d vs %d events: %d vs %d KiB'
              % (n_small, n_big, hg_rss_small, hg_rss))
        if churn:
            rounds = int(churn[2]) if len(churn) > 2 else 350000
            trace = make_churn(hipgrain, churn[0], churn[1], tmp, rounds)
            r_churn, _ = compare(hipgrain, trace, 'churn trace (hipgrain run)',
                                 3 * rounds, runs)
            print('ratios report/dummy: tracegen %.2f, churn %.2f '
                  '(target <= 1.0)' % (r_gen, r_churn))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
