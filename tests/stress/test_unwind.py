#!/usr/bin/env python3
"""Issue 40: 32 threads whose first stack captures come at once, through a
frame where libunwind checks addresses with a pipe of its own.  hipgrain
opens that pipe at start-up (registry/reg_unw.c); were it left to the
threads, they would reopen it under each other and the program would die
of SIGPIPE now and then (sid's libunwind 1.8.1).  Checked for the cause,
every run: the program's pipes are the same before and after its threads.
Then the same threads in a program that first closed every descriptor, as
daemons do: its close of libunwind's pipe succeeds, the pipe stays open
and unwritten into the program's files, and every HIP allocation and free
of the threads is traced.

usage: test_unwind.py HIPGRAIN STRESS_DIR FAKEHIP_DIR
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

HG, SDIR, FAKE = sys.argv[1:4]
RUNS = int(os.environ.get('HGTEST_STRESS_REPS', '20'))
# Without the guard every run fails (libunwind reopens its pipe): a few
# runs are enough.
CLOSING_RUNS = max(1, RUNS // 4)
HIP_MALLOC = 20
tap = hgrun.Tap()
for n in range(RUNS):
    t = hgrun.run(HG, [os.path.join(SDIR, 'hg_unwind'), '32'],
                  env=hgrun.fake_env(FAKE))
    t.close()
    out = t.proc.stdout
    tap.ok(t.proc.returncode == 0 and 'same=1' in out and 'before=1' in out,
           f'run {n + 1}/{RUNS}: libunwind\'s pipe open before the threads '
           'and never reopened; exit 0',
           f'status {t.proc.returncode} {out} {t.proc.stderr[-600:]}')
for n in range(CLOSING_RUNS):
    with tempfile.TemporaryDirectory(prefix='hgunwind-') as tmp:
        proc, ev, _ = hgrun.run_read(
            HG, [os.path.join(SDIR, 'hg_unwind'), '32', 'closefds',
                 os.path.join(tmp, 'file')], hgrun.fake_env(FAKE))
    out = proc.stdout
    sites = {e['id'] for e in ev if e['event'] == 'callsite'}
    allocs = [e for e in ev if e['event'] == 'alloc' and e['rc'] == 0 and
              e['api'] == HIP_MALLOC and e['callsite'] in sites]
    frees = {e['id'] for e in ev if e['event'] == 'free' and e['rc'] == 0}
    tap.ok(proc.returncode == 0 and 'same=1' in out and 'closed=ok' in out
           and 'file=ok' in out and len(allocs) == 32 and
           {e['id'] for e in allocs} <= frees,
           f'closing run {n + 1}/{CLOSING_RUNS}: every descriptor closed '
           'first: each close succeeds, libunwind\'s pipe stays, the '
           'program\'s file holds only its line, 32 hipMalloc events with '
           'their call sites and frees; exit 0',
           f'status {proc.returncode} {out} {proc.stderr[-600:]}\n'
           f'allocs {len(allocs)} frees {len(frees)} sites {len(sites)}')
sys.exit(tap.done())
