#!/usr/bin/env python3
"""Every kernels/ program and variant, traced by `hipgrain run` and
reported by `hipgrain report`: the rules kernels/variants.tsv names fire,
and no other (the near-misses stay silent).  Against the test double, or,
with --virtual-gpu NAME, against the machine's real HIP runtime on a
virtual GPU: the same findings either way.  On the virtual GPU the kernels
run, so the program's own verdict is the oracle: its result is wrong
exactly where the report names a hazard that loses work on that product
(on MI210: FP atomics on fine-grained memory, integer min/max to
fine-grained host memory, pageable memory with XNACK off), and right
everywhere else.

usage: test_variants.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR VARIANTS_TSV
                        [--virtual-gpu NAME]
"""
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, fakehip, table = sys.argv[1:5]
vgpu = sys.argv[6] if sys.argv[5:6] == ['--virtual-gpu'] else None


def check(row):
    prog, args, xnack, want, fake, on_vgpu, _ = row
    xn = None if xnack in ('0', '*') else xnack
    if vgpu:
        env, extra, outcome = hgrun.vgpu_env(xn), ('--virtual-gpu', vgpu), on_vgpu
    else:
        env, extra, outcome = hgrun.fake_env(fakehip, xn), (), fake
    try:
        t = hgrun.run(hipgrain, [os.path.join(kdir, prog)] + args, env=env,
                      extra=extra)
    except subprocess.TimeoutExpired as e:
        return row, False, None, None, False, None, f'hung: {e}', None
    try:
        status, rep = hgrun.report(hipgrain, t.trace)
        got = {f['rule'] for f in rep['findings']} if rep else None
        rc = t.proc.returncode
        rc_ok = rc != 0 if outcome == 'fails' else \
            rc == (134 if outcome == 'abort' else 0)
        virtual = rep and rep['summary'].get('virtual_gpu') == vgpu and \
            rep['summary'].get('virtual_gpu_executed') is True
        return (row, rc_ok, got, status, virtual, verdict(t.proc.stdout),
                t.proc.stderr, observed(rep))
    finally:
        t.close()


# Hazards whose work the product loses, by virtual GPU: the program's result
# comes out wrong where the report names one of them.
LOSES = {
    'MI100': {'fp-atomic-fine-grain', 'int-atomic-fine-host',
              'pageable-kernel-arg-no-xnack', 'lds-race', 'group-race'},
    'MI210': {'fp-atomic-fine-grain', 'int-atomic-fine-host',
              'pageable-kernel-arg-no-xnack', 'lds-race', 'group-race'},
    # Its GCDs reach their CPU over xGMI, which carries every integer
    # atomic: only a PCIe link drops them.
    '4xMI250X': {'fp-atomic-fine-grain', 'pageable-kernel-arg-no-xnack',
                 'lds-race', 'group-race'},
    # gfx942 keeps FP atomics on fine-grained memory and integer atomics
    # over PCIe, and pageable memory with XNACK off faults the kernel
    # (no result line): every result it prints must be right, but for a
    # race between waves, which the interpreter's order gets wrong on
    # every product.
    'MI300X': {'lds-race', 'group-race'},
}


def observed(rep):
    """What the run showed against what the report foretold: the lossy
    atomics findings with no dropped atomic behind them, and the atomics
    seen to do nothing that no finding names."""
    if not rep:
        return None
    unseen = [f['rule'] for f in rep['findings']
              if f['rule'] in ('fp-atomic-fine-grain', 'int-atomic-fine-host')
              and f['severity'] == 'error'
              and not f.get('observed', {}).get('dropped')]
    launches = rep['summary'].get('virtual_gpu_launches', {})
    return (unseen, launches.get('unexplained_drops'),
            launches.get('ran', 0) + launches.get('faulted', 0))


# Whole nodes: several GPUs.
NODES = {'4xMI250X', '8xMI300X', '4xMI300A'}
# The MI300 products' target, which ROCm learnt in 5.7.
GFX942 = {'MI300X', 'MI300A', '8xMI300X', '4xMI300A'}
# Products whose GPUs reach their CPU over xGMI: no integer atomic is lost
# on the way to host memory there, and the report says none is.
CPU_XGMI = {'MI250X', '4xMI250X', 'MI300A', '4xMI300A'}


def verdict(out):
    """OK or MISMATCH, as the program's last result line says, else None."""
    words = [line.split()[-1] for line in out.splitlines() if line.split()]
    return next((w for w in reversed(words) if w in ('OK', 'MISMATCH')), None)


def name_of(prog, args, xnack):
    return f'{prog} {" ".join(args) or "-"} (HSA_XNACK={xnack})'


tap = hgrun.Tap()
missing = hgrun.not_built()
table = list(hgrun.variants(table))
todo = []
version = hgrun.rocm_version() if vgpu else (0, 0)
target = 'gfx942' if vgpu in GFX942 else 'gfx90a' if vgpu else None
if target == 'gfx942' and version < (5, 7):
    # Its agent is never made: hipgrain says so at start (vgpu-targets).
    for row in table:
        tap.skip(name_of(*row[:3]), f'ROCm {version[0]}.{version[1]} does not know gfx942')
    sys.exit(tap.done())
for row in table:
    prog, args, xnack, want, fake, _, by_rel = row
    name = name_of(prog, args, xnack)
    if prog in missing:
        tap.skip(name, f'{prog} not built: {missing[prog]}')
        continue
    why = hgrun.omp_no_gpu(kdir, fakehip, prog, args, xnack) \
        if fake == '0' and not vgpu else None
    if why:
        tap.skip(name, why)
        continue
    want = hgrun.omp_expected(hipgrain, kdir, table, prog, args, xnack, want)
    add, drop = hgrun.changes_for(by_rel, version, target) if vgpu else (set(), set())
    on_vgpu = hgrun.outcome_for(by_rel, version, row[5])
    if vgpu in CPU_XGMI:
        drop = drop | {'int-atomic-fine-host'}
    todo.append(row[:3] + ((want | add) - drop, row[4], on_vgpu) + row[6:])
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for row, rc_ok, got, status, virtual, said, err, obs in pool.map(check, todo):
        prog, args, xnack, want = row[:4]
        name = name_of(prog, args, xnack)
        lacks = next((ln for ln in (err or '').splitlines() if 'has no code object for' in ln), None)
        if lacks and target == 'gfx942' and (prog == 'xnack' or prog.startswith('omp_')):
            # Built without gfx942 code (kernels/meson.build): xnack for
            # gfx90a:xnack+, the OpenMP programs for gfx90a.  hipgrain
            # names the missing code object at start; for any other
            # program that line is a failure, not a skip.
            for what in ('program status passed through', 'fires', 'the report'):
                tap.skip(f'{name}: {what}', lacks.split(': ', 1)[-1])
            continue
        if not rc_ok and vgpu in NODES and prog.startswith('omp_'):
            tap.skip(f'{name}: program status passed through',
                     'on a multi-GPU node the program faults at exit, in '
                     'ROCm\'s runtime called by libomptarget as it '
                     'unregisters its image (doc/testing.md)')
        else:
            tap.ok(rc_ok, f'{name}: program status passed through', err)
        if row[5] == 'fails' and got and 'died-in-call' not in want:
            # A program whose code cannot load fails either by an error
            # HIP returns or by ROCr aborting inside the call that waits,
            # as the runtime's threads fall: the row's rules say why it
            # failed, died-in-call only where it stopped.
            got = got - {'died-in-call'}
        tap.ok(status == 0 and got == want,
               f'{name}: fires {sorted(want) or "nothing"}',
               f'report status {status}, got {sorted(got) if got else got}')
        if vgpu:
            tap.ok(virtual, f'{name}: the report says the GPU was virtual and ran the kernels')
        unrun = err and 'not executed: the interpreter lacks' in err
        if vgpu in LOSES and unrun:
            tap.skip(f'{name}: the program\'s verdict',
                     'a kernel was not executed: ' + next(
                         ln for ln in err.splitlines() if 'not executed' in ln))
        elif vgpu in LOSES and said and got is not None:
            lost = sorted(got & LOSES[vgpu])
            tap.ok(said == ('MISMATCH' if lost else 'OK'),
                   f'{name}: the program says {said}, as '
                   + (f'{", ".join(lost)} foretold' if lost else 'no lossy hazard foretold'),
                   err)
            unseen, unexplained, ran = obs
            tap.ok(ran > 0 and not unseen and unexplained == 0,
                   f'{name}: every atomics verdict has dropped atomics behind it, '
                   'and every dropped atomic a verdict',
                   f'{ran} launches ran or faulted; no drop seen behind {unseen}; '
                   f'{unexplained} lanes dropped that no finding names')
sys.exit(tap.done())
