#!/usr/bin/env python3
"""Every kernels/ program and variant, traced by `hipgrain run` against the
test double, reported by `hipgrain report`: the rules kernels/variants.tsv
names fire, and no other (the near-misses stay silent).

usage: test_variants.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR VARIANTS_TSV
"""
import concurrent.futures
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, fakehip, table = sys.argv[1:5]


def rows():
    for line in open(table):
        if not line.strip() or line.startswith('#'):
            continue
        prog, args, xnack, rules, outcome = line.rstrip('\n').split('\t')
        yield (prog, [] if args == '-' else args.split(), xnack,
               set() if rules == 'none' else set(rules.split(',')), outcome)


def check(row):
    prog, args, xnack, want, outcome = row
    env = hgrun.fake_env(fakehip, None if xnack in ('0', '*') else xnack)
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog)] + args, env=env)
    try:
        status, rep = hgrun.report(hipgrain, t.trace)
        got = {f['rule'] for f in rep['findings']} if rep else None
        expect_rc = 134 if outcome == 'abort' else 0
        return row, t.proc.returncode == expect_rc, got, status, t.proc.stderr
    finally:
        t.close()


def safe_is_fast(prog):
    """Whether the compiler made atomic_safe()'s `omp atomic` a hardware FP
    atomic after all (clang 21 does under `requires unified_shared_memory`;
    clang 15 a CAS loop, as the table says)."""
    r = subprocess.run([hipgrain, 'scan', '--format', 'json',
                        os.path.join(kdir, prog)], capture_output=True, text=True)
    doc = json.loads(r.stdout) if r.returncode in (0, 2) and r.stdout else {}
    return any(k['hw_fp_atomics'] for f in doc.get('files', [])
               for co in f['code_objects'] for k in co['kernels']
               if ' in atomic_safe()' in k['demangled'])


def no_gpu_abort(prog, args, xnack):
    """libomptarget's refusal when the program itself cannot run here
    without a GPU (clang 21's aborts omp_alloc with the pinned trait: "device
    number '0' out of range, only 0 devices available"), or None."""
    env = hgrun.fake_env(fakehip, None if xnack in ('0', '*') else xnack)
    env.pop('LD_PRELOAD', None)
    p = subprocess.run([os.path.join(kdir, prog)] + args, env=env,
                       capture_output=True, text=True, timeout=120)
    if p.returncode and 'omptarget fatal error' in p.stderr and \
            'only 0 devices available' in p.stderr:
        return p.stderr.strip().splitlines()[-1]
    return None


tap = hgrun.Tap()
missing = hgrun.not_built()
table = list(rows())
todo = []
for prog, args, xnack, want, outcome in table:
    name = f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'
    if prog in missing:
        tap.skip(name, f'{prog} not built: {missing[prog]}')
        continue
    if prog.startswith('omp_') and outcome == '0':
        why = no_gpu_abort(prog, args, xnack)
        if why:
            tap.skip(name, f'this release\'s libomptarget cannot run it '
                     f'without a GPU, hipgrain or not: {why}')
            continue
    if prog.startswith('omp_') and args == ['atomic-safe'] and safe_is_fast(prog):
        # Then it is atomic-fine's situation, and must report what that does.
        want = next(r[3] for r in table if r[0] == prog and
                    r[1] == ['atomic-fine'] and r[2] == xnack)
    todo.append((prog, args, xnack, want, outcome))
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for row, rc_ok, got, status, err in pool.map(check, todo):
        prog, args, xnack, want, _ = row
        name = f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'
        tap.ok(rc_ok, f'{name}: program status passed through', err)
        tap.ok(status == 0 and got == want,
               f'{name}: fires {sorted(want) or "nothing"}',
               f'report status {status}, got {sorted(got) if got else got}')
sys.exit(tap.done())
