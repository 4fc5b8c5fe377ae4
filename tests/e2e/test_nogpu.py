#!/usr/bin/env python3
"""What a run on a machine without a GPU tells its user, on the real
runtime: a line at the top that says no kernel ran and what to do; a HIP
program's kernels' own facts (the FP atomic and its source line) as an
OpenMP program's are; the launch the program saw fail among the failed
calls; OpenMP's host fallback said as such, under the same heading; and for
a program that never touched a GPU runtime, that there was nothing to watch.

usage: test_nogpu.py HIPGRAIN KERNELS_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
if os.path.exists('/dev/kfd'):
    tap.skip('all', 'this machine has a GPU')
    sys.exit(tap.done())


def text_report(argv, env_more=None):
    env = dict(os.environ)
    env.pop('LD_LIBRARY_PATH', None)
    env.pop('HSA_XNACK', None)
    env.update(env_more or {})
    t = hgrun.run(hipgrain, argv, env=env)
    try:
        p = subprocess.run([hipgrain, 'report', t.trace], capture_output=True,
                           text=True, env=env)
        return p.stdout + p.stderr
    finally:
        t.close()


out = text_report([os.path.join(kdir, 'arraysum_unsafe'), 'hostmalloc'])
tap.ok(out.startswith('no usable GPU: no kernel ran') and
       '--virtual-gpu' in out.splitlines()[0] and
       'hipgrain scan' in out.splitlines()[0],
       'HIP, no GPU: the first line says no kernel ran, and what to do', out)
tap.ok('flat_atomic_add_f64 at arraysum.hip:65' in out or
       'global_atomic_add_f64 at arraysum.hip:65' in out,
       "HIP, no GPU: the kernel's FP atomic is named with its source line", out)
tap.ok('failed runtime calls:' in out and 'failed HIP calls' not in out,
       'failed calls are under one heading', out)

out = text_report([os.path.join(kdir, 'vectoradd'), 'malloc'])
tap.ok('hipLaunchKernel failed 1×' in out,
       'the <<<>>> launch the program saw fail is a failed call', out)

omp = os.path.join(kdir, 'omp_arraysum_usm')
out = text_report([omp, 'atomic-fine'], {'HSA_XNACK': '1'}) \
    if os.path.exists(omp) else None
if out is None:
    tap.skip('OpenMP', 'this release builds no omp_arraysum_usm')
else:
    notes = out.split('notes on the trace')[-1]
    tap.ok('so it ran on the host' in out and
           'target region at line 111' not in notes,
           'OpenMP host fallback: said as such, and the region a finding '
           'names is not also one no launch of ran', out)
    tap.ok(out.count('fix:') == 1 and 'hipMalloc' not in out,
           'OpenMP: one fix, with no HIP advice', out)

# On the virtual GPU, OpenMP target regions reach it as HIP kernels do:
# libomptarget finds its offload plugin through its own RUNPATH, which the
# preloaded dlopen wrappers must leave it.
if not os.path.exists(omp):
    tap.skip('OpenMP on the virtual GPU', 'no omp_arraysum_usm')
else:
    t = hgrun.run(hipgrain, [omp, 'atomic-fine'], env=hgrun.vgpu_env('1'),
                  extra=('--virtual-gpu', 'MI210'))
    try:
        st, doc = hgrun.report(hipgrain, t.trace)
    finally:
        t.close()
    doc = doc or {}
    failed = [f['api'] for f in doc.get('summary', {}).get('failed_calls', [])]
    rules = [f['rule'] for f in doc.get('findings', [])]
    why = hgrun.omp_fatal(t.proc)
    if why:
        tap.skip('OpenMP on the virtual GPU', why)
    else:
        tap.ok(not any(a.startswith('__tgt') for a in failed) and
               'fp-atomic-fine-grain' in rules,
               'OpenMP on the virtual GPU: the region ran there, not on the '
               'host, and its atomic on fine-grained memory is found',
               (failed, rules, t.proc.stderr[-2000:]))

out = text_report(['/bin/true'])
tap.ok(out.startswith('nothing to watch:'),
       'a program without a GPU runtime: nothing to watch, said first', out)
sys.exit(tap.done())
