#!/usr/bin/env python3
"""Launch forms and hipModuleUnload (hg_modules.c) under `hipgrain run`
against the .so.6 test double, with a real gfx90a code object whose kernel
adds doubles with a hardware FP atomic:

- hipExtLaunchMultiKernelMultiDevice: one launch per entry, on its stream,
  its pointer arguments resolved like hipLaunchKernel's;
- hipHccModuleLaunchKernel: one launch, its grid in blocks;
- hipModuleUnload: recorded, and the registry forgets the module's kernels
  (a launch of its function afterwards resolves nothing);
- NULL calls: forwarded, their errors recorded;
- the report flags the FP atomic on the fine-grained accumulator.

usage: test_modules.py HIPGRAIN PROGRAM FAKEHIP6_DIR CODE_OBJECT FAT_BINARY
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402

hipgrain, prog, fakehip6, co, fatbin = sys.argv[1:6]
# common/hg_events.h
MODULE_LAUNCH, HCC, MULTI, UNLOAD, HOST_MALLOC = 92, 103, 104, 117, 22
FINE = 2
tap = hgrun.Tap()
t = hgrun.run(hipgrain, [prog, co, fatbin], env=hgrun.fake_env(fakehip6))
try:
    ev = hgtrace.hipgrain_events(t.trace)
    _, rep = hgrun.report(hipgrain, t.trace)
finally:
    t.close()
out = t.proc.stdout
v = {k: int(x) for k, x in re.findall(r'(\w+)=(-?\d+)', out)}
rc = dict((n, int(r)) for n, r in re.findall(r'^(\S+(?: \w+)?) rc=(-?\d+)', out, re.M))
tap.ok(t.proc.returncode == 0 and 'setup' in out and
       rc.get('hipExtLaunchMultiKernelMultiDevice') == 0 and
       rc.get('hipHccModuleLaunchKernel') == 0 and
       rc.get('hipModuleUnload') == 0,
       'the program launches and unloads under hipgrain', out + t.proc.stderr)


def of(kind, **match):
    return [e for e in ev if e['event'] == kind and
            all(e.get(k) == x for k, x in match.items())]


acc = of('alloc', api=HOST_MALLOC, rc=0)
acc_id = acc[0]['id'] if acc else -1


def fine_acc(launch):
    return acc_id in launch['arg_id'] and \
        launch['arg_gran'][launch['arg_id'].index(acc_id)] == FINE


multi = of('launch', api=MULTI)
tap.ok([(m['handle'], m['stream'], m['grid'], m['block'], m['shmem'], m['rc'])
        for m in multi] ==
       [(v.get('fn'), v.get('s1'), [4, 1, 1], [64, 1, 1], 0, 0),
        (v.get('fn'), v.get('s2'), [2, 1, 1], [128, 1, 1], 16, 0)],
       'hipExtLaunchMultiKernelMultiDevice: one launch per entry, on its '
       'stream', multi)
tap.ok(len(multi) == 2 and all(fine_acc(m) for m in multi),
       'each entry\'s accumulator resolves to the fine-grained hipHostMalloc',
       multi)
none = of('call', api=MULTI)
tap.ok(len(none) == 1 and none[0]['rc'] != 0 and
       none[0]['rc'] == rc.get('hipExtLaunchMultiKernelMultiDevice NULL'),
       'hipExtLaunchMultiKernelMultiDevice(NULL): its error recorded', none)
hcc = of('launch', api=HCC)
tap.ok(len(hcc) == 1 and hcc[0]['handle'] == v.get('function') and
       hcc[0]['grid'] == [4, 1, 1] and hcc[0]['block'] == [64, 1, 1] and
       hcc[0]['stream'] == v.get('s1') and hcc[0]['rc'] == 0 and
       fine_acc(hcc[0]),
       'hipHccModuleLaunchKernel: one launch, grid 256/64 blocks, the '
       'accumulator resolved', hcc)
unload = of('call', api=UNLOAD)
tap.ok([(u['arg'], u['rc']) for u in unload] ==
       [(v.get('module'), 0), (0, rc.get('hipModuleUnload NULL'))] and
       unload[1]['rc'] != 0,
       'hipModuleUnload: recorded, NULL with its error', unload)
late = of('launch', api=MODULE_LAUNCH)
tap.ok(len(late) == 1 and late[0]['rc'] != 0 and not late[0]['arg_id'],
       'after the unload, its function resolves no argument (the registry '
       'forgot its kernels)', late)
kinds = {f.get('rule') for f in (rep or {}).get('findings', [])}
tap.ok('fp-atomic-fine-grain' in kinds,
       'the report flags the FP atomic on fine-grained memory', kinds)
sys.exit(tap.done())
