#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hipGetProcAddress hands back hipgrain's wrapper: a program that fetches
hipMalloc through it (against the libamdhip64.so.6 test double) gets the
function the dynamic linker binds hipMalloc to, and its allocation is in
the trace.  Against a ROCm 5 runtime, which has no hipGetProcAddress, the
call fails cleanly.

usage: test_procaddr.py HIPGRAIN PRELOAD_SO PROG FAKEHIP5_DIR FAKEHIP6_DIR
                        SYMS_6_4_3
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, preload, prog, fake5, fake6, syms = sys.argv[1:7]
tap = hgrun.Tap()


SO = {fake5: 'libamdhip64.so.5', fake6: 'libamdhip64.so.6'}


def run(libdir, pre):
    env = hgrun.fake_env(libdir)
    if pre:
        env['LD_PRELOAD'] = preload
    return subprocess.run([prog, SO[libdir]], env=env, capture_output=True,
                          text=True)


plain = run(fake6, False)
tap.ok(plain.returncode == 0 and 'hipMalloc: the bound one' in plain.stdout,
       'without hipgrain, the double hands back its own hipMalloc', plain.stdout)
pre = run(fake6, True)
tap.ok(pre.returncode == 0 and 'hipMalloc: the bound one' in pre.stdout and
       'hipMalloc: rc 0' in pre.stdout,
       'under the preload, hipGetProcAddress hands back hipgrain\'s wrapper',
       pre.stdout + pre.stderr)
tap.ok('hipNoSuchFunction): rc 500 status 1' in pre.stdout,
       'an unknown name: the runtime\'s answer, forwarded (hipErrorNotFound)',
       pre.stdout)
old = run(fake5, True)
tap.ok(old.returncode == 2 and 'hipGetProcAddress(hipMalloc): rc 801' in
       old.stdout, 'a ROCm 5 runtime has none: hipErrorNotSupported, no crash',
       old.stdout + old.stderr)

t = hgrun.run(hipgrain, [prog, SO[fake6]], env=hgrun.fake_env(fake6))
try:
    inv = subprocess.run([hipgrain, 'report', '--inventory', t.trace],
                         capture_output=True, text=True).stdout
    tap.ok(t.proc.returncode == 0 and
           any('hipMalloc' in line and '4.0 KiB' in line and
               'hg_procaddr.c' in line for line in inv.splitlines()),
           'the allocation made through the fetched pointer is in the trace, '
           'at the program\'s line', inv)
finally:
    t.close()

# The double's versions are 6.4.3's.
want = dict(line.split() for line in open(syms))
dyn = subprocess.run(['nm', '-D', '--defined-only',
                      os.path.join(fake6, 'libamdhip64.so.6')],
                     capture_output=True, text=True, check=True).stdout
mine = {}
for line in dyn.splitlines():
    name = line.split()[-1]
    if '@' in name:
        n, v = name.split('@@') if '@@' in name else name.split('@')
        mine[n] = v
bad = sorted(f'{n}@{v} (6.4.3: {want.get(n, "absent")})'
             for n, v in mine.items() if want.get(n) != v)
tap.ok(len(mine) > 70 and not bad, f'each of the .so.6 double\'s {len(mine)} '
       'symbols has the version ROCm 6.4.3 gives it', '\n'.join(bad))
sys.exit(tap.done())
