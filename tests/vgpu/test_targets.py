#!/usr/bin/env python3
"""What cannot work on a virtual GPU is said before it fails.  A profile
whose target the program's ROCm runtime does not know (ROCr makes no agent
of it: "unrecognized id", or "Agent creation failed" and a crash) is
refused by hipgrain run in one line naming the release that knows it,
read from the runtime's own table of targets; ROCm 5.2 knows no gfx942,
5.7 and later do.  With --force-gpu it runs after that line, and the
report's first line keeps the reason.  The virtual GPU itself names it when
the runtime opens the device (for a program started without hipgrain run).
A program whose executable has code objects, none for the profile's
target, gets one line from hipgrain run naming the targets it has and the
build it needs; HIP then answers hipErrorNoBinaryForGpu.

usage: test_targets.py HIPGRAIN KERNELS_DIR VGPU_LIB
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, vgpu = sys.argv[1:4]
tap = hgrun.Tap()
knows_gfx942 = hgrun.rocm_version() >= (5, 7)


def run(profile, prog, *args, extra=()):
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog), *args],
                  env=hgrun.vgpu_env(),
                  extra=('--virtual-gpu', profile, *extra))
    head = ''
    if os.path.isdir(t.trace):
        head = subprocess.run([hipgrain, 'report', t.trace],
                              capture_output=True, text=True).stdout
    t.close()
    return t.proc, head


p, _ = run('MI300X', 'vectoradd', 'hipmalloc')
if knows_gfx942:
    tap.ok('does not know' not in p.stderr and 'not run' not in p.stderr,
           'MI300X: a runtime that knows gfx942 runs it', p.stderr)
    for i in range(3):
        tap.skip('MI300X refused', 'this ROCm knows gfx942')
else:
    lines = p.stderr.splitlines()
    tap.ok(p.returncode == 126 and len(lines) == 1 and
           'virtual MI300X (gfx942) not run' in lines[0] and
           'ROCm 5.7 and later do' in lines[0] and p.stdout == '',
           'MI300X on 5.2: refused in one line naming ROCm 5.7, before the '
           'program runs', (p.returncode, p.stderr))
    p, head = run('MI300X', 'vectoradd', 'hipmalloc', extra=('--force-gpu',))
    lines = p.stderr.splitlines()
    tap.ok(lines and 'does not know gfx942' in lines[0] and
           'run anyway (--force-gpu)' in lines[0] and
           sum('does not know' in x for x in lines) == 1,
           'MI300X on 5.2 with --force-gpu: the reason said first, once',
           p.stderr)
    first = head.splitlines()[0] if head else ''
    tap.ok(first.startswith('virtual MI300X: no kernel ran: the ROCm') and
           'does not know gfx942' in first and
           'no kernel was launched' not in head,
           'and the saved report keeps the reason in its first line', head)
    tap.ok('--offload-arch=gfx942, which hipcc knows from ROCm 5.7' in
           p.stderr, 'the missing gfx942 build names the release whose '
           'hipcc makes it', p.stderr)
# Without hipgrain run the virtual GPU says it as the runtime starts.
env = hgrun.vgpu_env()
env.update(LD_PRELOAD=vgpu, HIPGRAIN_VIRTUAL_GPU='MI300X')
p = subprocess.run([os.path.join(kdir, 'vectoradd'), 'hipmalloc'], env=env,
                   capture_output=True, text=True, timeout=120)
said = 'does not know gfx942' in p.stderr
tap.ok(said != knows_gfx942, 'MI300X under the preload alone: the '
       'runtime\'s ignorance of gfx942 is named '
       f'({"5.7 and later know it" if knows_gfx942 else "5.2"})', p.stderr)
p, _ = run('MI210', 'vectoradd', 'hipmalloc')
tap.ok('does not know' not in p.stderr and 'no code object' not in p.stderr,
       'MI210: nothing to say for gfx90a code on a runtime that knows it',
       p.stderr)
p, _ = run('MI100', 'xnack')
line = [x for x in p.stderr.splitlines() if 'no code object for gfx908' in x]
tap.ok(len(line) == 1 and 'only for gfx90a' in line[0] and
       'build with --offload-arch=gfx908' in line[0] and 'ROCm' not in line[0],
       'MI100: gfx90a-only code is named in one line, before it fails',
       p.stderr)
tap.ok('hipErrorNoBinaryForGpu' in p.stderr + p.stdout,
       'and HIP does answer hipErrorNoBinaryForGpu', p.stderr)
sys.exit(tap.done())
