#!/usr/bin/env python3
"""Device memory from outside the process (hg_ipc.c) under `hipgrain run`
against the test double: an opened IPC handle is a coarse device
allocation of the exported range, which hipIpcCloseMemHandle frees; each
buffer of imported external memory is one, which hipDestroyExternalMemory
frees; copies into them resolve to them; NULL calls are recorded with the
runtime's error; a handle opened and never closed is a gpu-leak finding,
one closed is not.

usage: test_ipc.py HIPGRAIN PROGRAM FAKEHIP_DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog, fakehip = sys.argv[1:4]
# common/hg_events.h
OPEN, BUFFER, IMPORT, CLOSE, DESTROY = 37, 38, 39, 46, 47
MEM_DEVICE, COARSE = 1, 1
tap = hgrun.Tap()

plain = subprocess.run([prog], env=hgrun.fake_env(fakehip),
                       capture_output=True, text=True, timeout=60)
proc, ev, rep = hgrun.run_read(hipgrain, [prog], hgrun.fake_env(fakehip))
out = proc.stdout
lines = re.findall(r'^(\S+(?: NULL)?) rc=(-?\d+)(?: ptr=(\d+))?(?: ext=(\d+))?$',
                   out, re.M)
rcs = [(n, int(rc)) for n, rc, _, _ in lines]
tap.ok(proc.returncode == 0 and len(lines) == 13,
       'the program runs under hipgrain', out + proc.stderr)
tap.ok([(n, int(rc)) for n, rc, _, _ in re.findall(
    r'^(\S+(?: NULL)?) rc=(-?\d+)(?: ptr=(\d+))?(?: ext=(\d+))?$',
    plain.stdout, re.M)] == rcs,
       'every return code is the one the program gets without hipgrain',
       (plain.stdout, out))
ptr = {}
for n, rc, p, x in lines:
    ptr.setdefault(n, []).append(int(p or x or 0))


def of(kind, **match):
    return [e for e in ev if e['event'] == kind and
            all(e.get(k) == v for k, v in match.items())]


opened = of('alloc', api=OPEN, rc=0)
tap.ok(len(opened) == 1 and opened[0]['addr'] == ptr['hipIpcOpenMemHandle'][0]
       and opened[0]['size'] == 8192 and opened[0]['mem'] == MEM_DEVICE and
       opened[0]['gran'] == COARSE,
       'hipIpcOpenMemHandle: a coarse device allocation of the range, '
       'its size the runtime\'s', opened)
cp = of('memcpy', dst=ptr['hipMemcpy'][0])
tap.ok(opened and len(cp) == 1 and cp[0]['dst_id'] == opened[0]['id'],
       'a copy into it resolves to it', cp)
closed = of('free', api=CLOSE, rc=0)
tap.ok(opened and len(closed) == 1 and closed[0]['id'] == opened[0]['id'] and
       closed[0]['alloc_api'] == OPEN,
       'hipIpcCloseMemHandle frees it', closed)
bad_open = of('alloc', api=OPEN)
bad_close = of('free', api=CLOSE)
tap.ok(len(bad_open) == 2 and bad_open[1]['rc'] != 0 and
       bad_open[1]['addr'] == 0 and len(bad_close) == 2 and
       bad_close[1]['rc'] != 0 and bad_close[1]['id'] == 0,
       'NULL open and close: forwarded, their errors recorded',
       (bad_open, bad_close))

imp = of('call', api=IMPORT)
tap.ok(len(imp) == 1 and imp[0]['rc'] == 0 and
       imp[0]['arg'] == ptr['hipImportExternalMemory'][0],
       'hipImportExternalMemory: a call naming the external memory', imp)
bufs = of('alloc', api=BUFFER)
want = ptr['hipExternalMemoryGetMappedBuffer']
tap.ok(len(bufs) == 3 and [(b['addr'], b['size'], b['extra'], b['rc'])
                           for b in bufs[:2]] ==
       [(want[0], 4096, 0, 0), (want[1], 8192, 8192, 0)] and
       all(b['mem'] == MEM_DEVICE and b['gran'] == COARSE for b in bufs[:2]),
       'each mapped buffer: a coarse device allocation, its offset in extra',
       bufs)
tap.ok(len(bufs) == 3 and bufs[2]['rc'] != 0 and bufs[2]['addr'] == 0,
       'a buffer without a descriptor: forwarded, its error recorded', bufs)
st = of('memset', dst=ptr['hipMemset'][0])
tap.ok(len(bufs) == 3 and len(st) == 1 and st[0]['dst_id'] == bufs[1]['id'],
       'a set in a buffer resolves to it', st)
gone = of('free', api=DESTROY)
tap.ok(len(bufs) == 3 and sorted(f['id'] for f in gone) ==
       sorted(b['id'] for b in bufs[:2]) and
       all(f['rc'] == 0 and f['alloc_api'] == BUFFER for f in gone),
       'hipDestroyExternalMemory frees both buffers', gone)
tap.ok(any(c['rc'] != 0 and c['arg'] == 0 for c in of('call', api=DESTROY)),
       'hipDestroyExternalMemory(NULL): forwarded, its error recorded',
       of('call', api=DESTROY))

def leaks(report):
    return [f for f in (report or {}).get('findings', [])
            if f['rule'] == 'gpu-leak']


tap.ok(rep is not None and not leaks(rep),
       'a handle opened and closed is no leak', leaks(rep))
proc, ev, rep = hgrun.run_read(hipgrain, [prog, 'leak'],
                               hgrun.fake_env(fakehip))
left = leaks(rep)
tap.ok(proc.returncode == 0 and len(left) == 1 and
       left[0]['allocation']['api'] == 'hipIpcOpenMemHandle' and
       'never unmapped with hipIpcCloseMemHandle' in left[0]['message'] and
       '4096 bytes' in left[0]['message'],
       'a handle opened and never closed: one gpu-leak finding that says so',
       (proc.stderr, left))
sys.exit(tap.done())
