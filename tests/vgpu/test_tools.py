#!/usr/bin/env python3
"""ROCm's own tools see the virtual GPU: rocminfo looks for the driver's
module (through libkmod: /proc/modules, then /sys/module/amdgpu) before it
starts the runtime, then lists the agents.  Under hipgrain run, each
profile the runtime knows is listed with its target and product name.

usage: test_tools.py HIPGRAIN
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain = sys.argv[1]
tap = hgrun.Tap()
rocminfo = shutil.which('rocminfo')
knows_gfx942 = hgrun.rocm_version() >= (5, 7)
for name, gfx in (('MI100', 'gfx908'), ('MI210', 'gfx90a'),
                  ('MI250X', 'gfx90a'), ('MI300X', 'gfx942')):
    if not rocminfo:
        tap.skip(f'{name}: rocminfo', 'rocminfo is not installed')
        continue
    if gfx == 'gfx942' and not knows_gfx942:
        tap.skip(f'{name}: rocminfo', 'this ROCm knows no gfx942')
        continue
    t = hgrun.run(hipgrain, [rocminfo], env=hgrun.vgpu_env(),
                  extra=('--virtual-gpu', name))
    t.close()
    out = t.proc.stdout
    tap.ok(t.proc.returncode == 0 and 'ROCk module is loaded' in out,
           f'{name}: rocminfo finds the driver loaded', t.proc.stderr + out)
    tap.ok(f'amdgcn-amd-amdhsa--{gfx}' in out and
           f'AMD Instinct {name}' in out,
           f'{name}: rocminfo lists the GPU agent, {gfx}, by product name',
           out)
sys.exit(tap.done())
