#!/usr/bin/env python3
"""A program with one host thread per GPU, on a virtual 4xMI250X node
under the real runtime: each launch is judged on the GPU its own thread
was on, not the process's last hipSetDevice.  `peer`: the worker on GPU 1
acquires, at system scope, a flag in GPU 0's hipMalloc memory after main's
hipSetDevice(0), and coarse-sync names the flag as a peer's memory and
both GPUs (by the last hipSetDevice it would be GPU 0's own).  `own`: the
worker on GPU 0 acquires its own GPU's flag after main's hipSetDevice(1):
judged as its own memory, never a peer's.  `stream`: main makes a stream
on GPU 1, sets GPU 0 again and launches on that stream: the kernel runs
on GPU 1 and the flag is judged a peer's, though the thread's device is
GPU 0.

usage: test_thread_gpus.py HIPGRAIN PROGRAM
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, prog = sys.argv[1:3]
tap = hgrun.Tap()


def run(mode):
    t = hgrun.run(hipgrain, [prog, mode], env=hgrun.vgpu_env(),
                  extra=('--virtual-gpu', '4xMI250X'))
    _, rep = hgrun.report(hipgrain, t.trace)
    rep = rep or {'findings': []}
    # The flag is argument 0; in one GPU's memory with the output, the two
    # are folded into one finding ("arguments 0 and 1").
    found = [f for f in rep['findings'] if f['rule'] == 'coarse-sync' and
             re.search(r'through arguments? 0\b', f['message'])]
    return t.proc.stdout + t.proc.stderr, found


out, found = run('peer')
tap.ok('read 7, OK' in out, 'peer: the kernel on GPU 1 reads GPU 0\'s flag', out)
tap.ok(len(found) == 1 and
       'memory of GPU 0, which GPU 1 reaches as a peer' in found[0]['message'],
       'peer: the flag is judged as GPU 0\'s memory read from GPU 1', repr(found))
out, found = run('own')
tap.ok('read 7, OK' in out, 'own: the kernel on GPU 0 reads its flag', out)
tap.ok(len(found) == 1 and 'peer' not in found[0]['message'] and
       'coarse-grained device memory:' in found[0]['message'],
       'own: the flag is judged as the GPU\'s own memory, not a peer\'s',
       repr(found))
out, found = run('stream')
tap.ok('read 7, OK' in out, 'stream: the kernel on GPU 1\'s stream reads '
       'GPU 0\'s flag', out)
tap.ok(len(found) == 1 and
       'memory of GPU 0, which GPU 1 reaches as a peer' in found[0]['message'],
       'stream: judged on the stream\'s GPU, not the thread\'s',
       repr(found))
sys.exit(tap.done())
