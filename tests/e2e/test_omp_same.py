#!/usr/bin/env python3
"""Every OpenMP program variant in kernels/variants.tsv (and one forced to
offload, which aborts without a GPU) prints the same output, on stdout and
stderr, and exits with the same status with and without `hipgrain run`.

usage: test_omp_same.py HIPGRAIN KERNELS_DIR VARIANTS_TSV
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, table = sys.argv[1:4]


def rows():
    seen = set()
    for line in open(table):
        if line.startswith('#') or not line.strip():
            continue
        prog, args, xnack = line.split('\t')[:3]
        if prog.startswith('omp_') and (prog, args, xnack) not in seen:
            seen.add((prog, args, xnack))
            yield prog, [] if args == '-' else args.split(), xnack, {}
    # No GPU and offload mandatory: libomptarget aborts, hipgrain passes it on.
    yield 'omp_arraysum', ['atomic-fine'], '1', {'OMP_TARGET_OFFLOAD': 'MANDATORY'}


tap = hgrun.Tap()
missing = hgrun.not_built()
for prog, args, xnack, more in rows():
    if prog in missing:
        tap.skip(f'{prog} {" ".join(args)} (HSA_XNACK={xnack})',
                 f'{prog} not built: {missing[prog]}')
        continue
    env = dict(os.environ)
    env.pop('LD_PRELOAD', None)
    env.pop('HSA_XNACK', None)
    if xnack == '1':
        env['HSA_XNACK'] = '1'
    env.update(more)
    argv = [os.path.join(kdir, prog)] + args
    plain = subprocess.run(argv, env=env, capture_output=True, text=True,
                           timeout=120)
    # hipgrain run passes a signal on as 128+N, as a shell does.
    status = 128 - plain.returncode if plain.returncode < 0 else plain.returncode
    t = hgrun.run(hipgrain, argv, env=env)
    try:
        name = f'{prog} {" ".join(args)} (HSA_XNACK={xnack}' + \
            ''.join(f', {k}={v}' for k, v in more.items()) + ')'
        tap.ok(status == t.proc.returncode and
               plain.stdout == t.proc.stdout and plain.stderr == t.proc.stderr,
               f'{name}: same output and status ({status})',
               f'plain: {plain.returncode} {plain.stdout!r} {plain.stderr!r}\n'
               f'hipgrain: {t.proc.returncode} {t.proc.stdout!r} '
               f'{t.proc.stderr!r}')
        tap.ok(os.path.isdir(t.trace), f'{name}: a trace was written')
    finally:
        t.close()
sys.exit(tap.done())
