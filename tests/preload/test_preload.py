#!/usr/bin/env python3
"""The preload on its own: what it exports, that it forwards untouched, and
that HIPGRAIN_DISABLE makes it a pure pass-through.

usage: test_preload.py PRELOAD NULLARGS FAKEHIP_DIR MAPFILE
"""
import fnmatch
import os
import re
import subprocess
import sys

preload, nullargs, fakehip, mapfile = sys.argv[1:5]
n = 0
failed = 0


def ok(cond, name, detail=''):
    global n, failed
    n += 1
    print(f'{"" if cond else "not "}ok {n} - {name}')
    if not cond:
        failed += 1
        for line in str(detail).splitlines():
            print(f'#   {line}')


def run(prog, env):
    return subprocess.run([prog], env=env, capture_output=True, text=True)


# Exports: exactly what the version script lets out, nothing else.
patterns = re.findall(r'([\w*]+);',
                      open(mapfile).read().split('global:')[1].split('local:')[0])
out = subprocess.run(['nm', '-D', '--defined-only', preload], check=True,
                     capture_output=True, text=True).stdout
exported = [line.split()[-1] for line in out.splitlines() if line.strip()]
stray = [s for s in exported
         if not any(fnmatch.fnmatchcase(s, p) for p in patterns)]
ok(not stray, 'exports only the functions it replaces', stray)
for must in ('malloc', 'free', 'posix_memalign', '_Znwm', '_ZdaPv',
             '_ZnwmSt11align_val_t', 'hipMalloc', 'hipHostMalloc',
             'hipLaunchKernel', '__hipRegisterFatBinary', 'hipMemAdvise_v2',
             'hipExtHostAlloc', 'hipFreeHost', 'closefrom', 'close_range',
             'hipgrain_observe_dispatch', 'hipgrain_observe_block'):
    ok(must in exported, f'exports {must}')
# The OpenMP front end's table: every entry a libomptarget symbol, so the
# preload never offers a name the real runtime lacks (issue 10).
for must in ('__tgt_register_requires', '__tgt_register_lib',
             '__tgt_target_kernel', '__tgt_target_teams_mapper',
             '__tgt_target_data_begin_mapper',
             '__tgt_target_data_end_nowait_mapper', 'omp_target_alloc',
             'omp_target_free', 'omp_target_associate_ptr',
             'llvm_omp_target_alloc_shared'):
    ok(must in exported, f'exports {must}')


def all_exported_by(lib, ours, what, must):
    """Each of ours is a function lib exports (when lib is installed)."""
    if not os.path.exists(lib):
        return
    real = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                          capture_output=True, text=True).stdout
    real = {line.split()[-1].split('@')[0] for line in real.splitlines()
            if line.strip()}
    missing = [s for s in ours if s not in real]
    ok(must <= set(ours) and not missing,
       f'every {what} ({len(ours)}) is one {os.path.basename(lib)} exports',
       missing)


all_exported_by('/usr/lib/llvm-15/lib/libomptarget.so.15',
                [s for s in exported
                 if s.startswith(('__tgt_', 'omp_target', 'llvm_omp_target'))],
                'OpenMP entry point', {'__tgt_target_kernel'})
# libomp's allocator entry points (the pinned trait).
all_exported_by('/usr/lib/llvm-15/lib/libomp.so.5',
                [s for s in exported
                 if s.startswith('omp_') and not s.startswith('omp_target')],
                'libomp allocator entry point', {'omp_init_allocator', 'omp_free'})
internal = [s for s in exported if s.startswith(('reg_', 'pl_', 'co_', 'hg_'))]
ok(not internal, 'no internal symbol leaks', internal)

# Forwarding: same output, same status, with the fake and the real runtime.
base = dict(os.environ)
base.pop('LD_PRELOAD', None)
for label, libdir in (('test double', fakehip), ('real libamdhip64', None)):
    env = dict(base)
    if libdir:
        env['LD_LIBRARY_PATH'] = libdir
    plain = run(nullargs, env)
    wrapped = run(nullargs, dict(env, LD_PRELOAD=preload))
    off = run(nullargs, dict(env, LD_PRELOAD=preload, HIPGRAIN_DISABLE='1'))
    ok(plain.returncode == wrapped.returncode == 0,
       f'{label}: NULL/zero-size calls do not crash', wrapped.stderr)
    ok(plain.stdout == wrapped.stdout and plain.stdout,
       f'{label}: every return code forwarded untouched',
       f'plain:\n{plain.stdout}\nwrapped:\n{wrapped.stdout}')
    ok(plain.stdout == off.stdout, f'{label}: HIPGRAIN_DISABLE=1 passes through')
rcs = dict(line.rsplit(None, 1) for line in plain.stdout.splitlines()
           if line.startswith('hip'))
ok(rcs.get('hipMalloc(NULL, 16)', '0') != '0',
   'the real runtime refuses hipMalloc(NULL) without a GPU (sanity)', rcs)

# A plain C program and a shell still work.
r = subprocess.run(['sh', '-c', 'echo hello | tr a-z A-Z'], capture_output=True,
                   text=True, env=dict(base, LD_PRELOAD=preload))
ok(r.stdout == 'HELLO\n' and r.returncode == 0, 'sh and tr run unharmed',
   r.stderr)

print(f'1..{n}')
sys.exit(1 if failed else 0)
