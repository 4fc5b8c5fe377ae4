#!/usr/bin/env python3
"""The real HIP runtime on each virtual GPU: one device, named as the
product (its gfx target, CUs and memory), and every call the audit needs
succeeds: hipMalloc, hipHostMalloc with each flag, hipMallocManaged,
hipMemAdvise, hipMemPrefetchAsync, hipMemcpy both ways, a launch and
hipDeviceSynchronize.  Bytes survive a round trip, a device-to-device
copy and a fill, whether the runtime moves them with SDMA or with its own
blit kernels.  Before 5.7 ROCm does not know gfx942: it finds no device
on a virtual MI300, as it would on the product.  No program runs under
hipgrain here: this is the stand-in alone, below the runtime.

usage: test_vgpu.py VGPU_LIB HG_VGPU_CALLS HIPGRAIN
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

vgpu, prog, hipgrain = sys.argv[1:4]
tap = hgrun.Tap()


def profiles():
    out = subprocess.run([hipgrain, 'run', '--virtual-gpu', 'list'],
                         capture_output=True, text=True, check=True).stdout
    # The table ends at the first blank line; the variants follow.
    table = out.split('\n\n')[0]
    rows = [line.split() for line in table.splitlines()[1:] if line.strip()]
    return [(r[0], r[1], int(r[2]), int(r[3])) for r in rows]


version = hgrun.rocm_version()
# The first release that knows the MI300s' target.
knows_gfx942 = version >= (5, 7)

# It exports what it answers in libc's and libdrm's place, nothing of what
# it absorbs: a program's own names must not meet ours.
mapfile = os.path.join(os.path.dirname(__file__), '..', '..', 'vgpu',
                       'libhipgrain-vgpu.map')
wanted = set(re.findall(r'(\w+);', open(mapfile).read().split('global:')[1]
                        .split('local:')[0]))
nm = subprocess.run(['nm', '-D', '--defined-only', vgpu], check=True,
                    capture_output=True, text=True).stdout
exported = {line.split()[-1] for line in nm.splitlines() if line.strip()}
tap.ok(exported == wanted, f'exports exactly the {len(wanted)} entry points '
       'it answers', sorted(exported ^ wanted))
for name, gfx, cus, gpus in profiles():
    # A machine (4xMI250X) is GPUs of the product its name ends with.
    product = name.split('x', 1)[1] if gpus > 1 else name
    env = hgrun.vgpu_env()
    env.update(LD_PRELOAD=vgpu, HIPGRAIN_VIRTUAL_GPU=name)
    p = subprocess.run([prog], env=env, capture_output=True, text=True,
                       timeout=120)
    got = dict(line.split(' ', 1) for line in p.stdout.splitlines()
               if ' ' in line)
    tap.ok(p.returncode == 0, f'{name}: the program runs', p.stderr)
    if gfx == 'gfx942' and not knows_gfx942:
        tap.ok(got.get('devices') == '0',
               f'{name}: ROCm {version[0]}.{version[1]} knows no gfx942, '
               'no device', p.stdout)
        continue
    tap.ok(got.get('devices') == str(gpus), f'{name}: {gpus} devices', p.stdout)
    tap.ok(got.get('arch', '').startswith(gfx + ':'),
           f'{name}: its target is {gfx}', got.get('arch'))
    tap.ok(got.get('cus') == str(cus), f'{name}: {cus} compute units',
           got.get('cus'))
    tap.ok(product in got.get('name', ''), f'{name}: named as the product',
           got.get('name'))
    calls = {k: v for k, v in got.items() if k.startswith('hip')}
    bad = {k: v for k, v in calls.items() if v != 'hipSuccess'}
    tap.ok(len(calls) >= 20 and not bad,
           f'{name}: {len(calls)} calls succeed', bad or p.stdout)
    tap.ok(got.get('roundtrip') == '42', f'{name}: hipMemcpy round trip',
           got.get('roundtrip'))
    tap.ok(got.get('memset') == 'same', f'{name}: hipMemset fills',
           got.get('memset'))
    tap.ok(got.get('odd-copy') == 'same', f'{name}: 4099 bytes there, across '
           'and back', got.get('odd-copy'))
sys.exit(tap.done())
