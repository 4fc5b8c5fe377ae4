#!/usr/bin/env python3
"""Kernels on the virtual GPU's interpreter, as a program sees them
(tests/vgpu/hg_vgpu_exec.hip on a virtual MI210):

- printf from a kernel: the kernel waits on the runtime's hostcall
  listener, which waits on the event the kernel's interrupt sets; every
  line arrives and the program goes on;
- work-groups racing on one counter and one sum give exact results, and
  run with one thread or with several the program prints the same, and the
  trace says the same of the racing dispatch: the wave-instructions it ran
  and the atomics the product's memory made do nothing (one per work-item,
  or per wave where the compiler sums a wave's first, on the fine-grained
  host memory).  The printing dispatch's count is its
  own: its waves spin while the host answers;
- the runtime's waits for the device, which HIP's runtime makes as spins
  in user space, are blocked ones: the program's thread sleeps in the
  driver and leaves the host's cores to the interpreter; with
  HIPGRAIN_VGPU_BLOCK_WAITS=0 (the four-thread run) they are left alone.

usage: test_kernels.py HIPGRAIN HG_VGPU_EXEC
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog = sys.argv[1:3]
GROUPS, ITEMS = 96, 256
tap = hgrun.Tap()


def traced(threads, block_waits=None):
    env = hgrun.vgpu_env()
    env['HIPGRAIN_VGPU_THREADS'] = str(threads)
    env['HIPGRAIN_VGPU_TRACE'] = '1'
    if block_waits is not None:
        env['HIPGRAIN_VGPU_BLOCK_WAITS'] = block_waits
    t = hgrun.run(hipgrain, [prog], env=env, extra=('--virtual-gpu', 'MI210'))
    try:
        ev = hgtrace.hipgrain_events(t.trace)
    finally:
        t.close()
    disp = [(e['kernel'], e['status'], e['insns'], e['drops'], e['drops_lost'])
            for e in ev if e['event'] == 'vgpu_dispatch']
    drops = sorted((e['op'], e['count'], e['kind'], e['mem']) for e in ev
                   if e['event'] == 'vgpu_drop')
    return t.proc, disp, drops


one = traced(1)
proc = one[0]
tap.ok(proc.returncode == 0, 'one thread: the program finds every value as '
       'expected', proc.stdout + proc.stderr)
hello = sorted(line for line in proc.stdout.splitlines() if 'says hello' in line)
want = sorted(f'work-item {i} of group {i // ITEMS} says hello'
              for i in range(GROUPS * ITEMS) if i % 100 == 7)
tap.ok(hello == want, f'printf from the kernel: the {len(want)} lines, each once',
       f'{len(hello)} lines; first missing: '
       f'{sorted(set(want) - set(hello))[:3]}')
tap.ok(f'pinned sum 0.0' in proc.stdout, 'the FP atomics on fine-grained host '
       'memory did nothing, as on an MI210', proc.stdout)
drops = one[2]
# LLVM 21 sums a wave's adds first and has one lane add the sum
lanes = sum(d[1] for d in drops)
tap.ok(lanes in (GROUPS * ITEMS, GROUPS * ITEMS // 64),
       'the trace counts one dropped atomic per work-item (or per wave, as '
       'LLVM 21 compiles it)', drops)
tap.ok(len(one[1]) == 2 and all(d[1] == 0 for d in one[1]),
       'both dispatches ran to their end', one[1])
said = [line for line in proc.stderr.splitlines() if 'made blocked' in line]
tap.ok(len(said) == 1 and ' wait on ' in proc.stderr,
       "the runtime's active waits were made blocked, once said, and the "
       'program waited in the driver', said)

many = traced(4, block_waits='0')
tap.ok(many[0].returncode == 0, 'four threads: the program finds every value '
       'as expected', many[0].stdout + many[0].stderr)
tap.ok(many[0].stdout == proc.stdout or
       sorted(many[0].stdout.splitlines()) == sorted(proc.stdout.splitlines()),
       'four threads: the program prints the same lines',
       many[0].stdout)
tap.ok(many[1][1:] == one[1][1:] and len(many[1]) == 2,
       'four threads: the racing dispatch ran the same wave-instructions and '
       'dropped the same atomics', (one[1], many[1]))
tap.ok(many[2] == drops, 'four threads: the same dropped-atomic rows',
       (drops, many[2]))
tap.ok('made blocked' not in many[0].stderr,
       "HIPGRAIN_VGPU_BLOCK_WAITS=0: the runtime's waits are left as it "
       'made them', [line for line in many[0].stderr.splitlines()
                     if 'made blocked' in line])
sys.exit(tap.done())
