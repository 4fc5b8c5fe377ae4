#!/usr/bin/env python3
"""What cannot work on a virtual GPU is said before it fails.  A profile
whose target the program's ROCm runtime does not know (ROCr makes no agent
of it: "unrecognized id") is named by the virtual GPU when the runtime
opens the device, from the runtime's own table of targets; ROCm 5.2 knows
no gfx942, 5.7 and later do.  A program whose executable has code objects,
none for the profile's target, gets one line from hipgrain run naming the
targets it has; HIP then answers hipErrorNoBinaryForGpu.

usage: test_targets.py HIPGRAIN KERNELS_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
knows_gfx942 = hgrun.rocm_version() >= (5, 7)


def run(profile, prog, *args):
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog), *args],
                  env=hgrun.vgpu_env(), extra=('--virtual-gpu', profile))
    t.close()
    return t.proc


p = run('MI300X', 'vectoradd', 'hipmalloc')
said = 'does not know gfx942' in p.stderr
tap.ok(said != knows_gfx942, 'MI300X: the runtime\'s ignorance of gfx942 is '
       f'named ({"5.7 and later know it" if knows_gfx942 else "5.2"})',
       p.stderr)
p = run('MI210', 'vectoradd', 'hipmalloc')
tap.ok('does not know' not in p.stderr and 'no code object' not in p.stderr,
       'MI210: nothing to say for gfx90a code on a runtime that knows it',
       p.stderr)
p = run('MI100', 'xnack')
line = [x for x in p.stderr.splitlines() if 'no code object for gfx908' in x]
tap.ok(len(line) == 1 and 'only for gfx90a' in line[0],
       'MI100: gfx90a-only code is named in one line, before it fails',
       p.stderr)
tap.ok('hipErrorNoBinaryForGpu' in p.stderr + p.stdout,
       'and HIP does answer hipErrorNoBinaryForGpu', p.stderr)
sys.exit(tap.done())
