#!/usr/bin/env python3
"""Issue 40: 32 threads whose first stack captures come at once, through a
frame where libunwind checks addresses with a pipe of its own.  hipgrain
opens that pipe at start-up (registry/reg_unw.c); were it left to the
threads, they would reopen it under each other and the program would die
of SIGPIPE now and then (sid's libunwind 1.8.1).  Checked for the cause,
every run: the program's pipes are the same before and after its threads.

usage: test_unwind.py HIPGRAIN STRESS_DIR FAKEHIP_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

HG, SDIR, FAKE = sys.argv[1:4]
RUNS = int(os.environ.get('HGTEST_STRESS_REPS', '20'))
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
sys.exit(tap.done())
