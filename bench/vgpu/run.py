#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/vgpu: the virtual GPU's interpreter on a matrix multiply.

Runs bm-matmul N under `hipgrain run --virtual-gpu MI210`, which prints the
kernel's wall time and the same loop's on the host (the floor, measured in
the same process), and reads the wave-instructions the interpreter
executed from the trace's vgpu_dispatch event and the CPU time it spent on
them (summed over its threads) from HIPGRAIN_VGPU_TRACE's per-kernel line.
Prints the kernel's time, its ratio to the host loop, and lane-operations
(64 lanes per wave-instruction, masked lanes counted: what the hardware
would issue) per second of wall time and per second of one core's CPU.

usage: run.py --hipgrain HIPGRAIN --prog BM_MATMUL [--n N] [--runs R]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile


def one(hipgrain, prog, n):
    with tempfile.TemporaryDirectory(prefix='bm-vgpu-') as tmp:
        trace = os.path.join(tmp, 'trace')
        r = subprocess.run([hipgrain, 'run', '--virtual-gpu', 'MI210',
                            '--no-report', '--output', trace, '--', prog,
                            str(n)], capture_output=True, text=True,
                           env=dict(os.environ, HIPGRAIN_VGPU_TRACE='1'))
        if r.returncode:
            sys.exit('bm-matmul failed: ' + r.stderr)
        gpu, host, err = r.stdout.split()
        cpu = sum(int(us) for us in re.findall(
            r'ran: status 0, \d+ wave-instructions in (\d+) us of CPU', r.stderr))
        dump = subprocess.run([hipgrain, 'dump', '--event', 'vgpu_dispatch',
                               trace], capture_output=True, text=True).stdout
        insns = sum(int(w.split('=')[1]) for line in dump.splitlines()
                    for w in line.split() if w.startswith('insns='))
        return float(gpu), float(host), float(err), insns, cpu / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hipgrain', required=True)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--n', type=int, default=256)
    ap.add_argument('--runs', type=int, default=3)
    a = ap.parse_args()
    rows = [one(a.hipgrain, a.prog, a.n) for _ in range(a.runs)]
    gpu = statistics.median(r[0] for r in rows)
    host = statistics.median(r[1] for r in rows)
    insns = rows[0][3]
    cpu = statistics.median(r[4] for r in rows)
    print(f'matmul {a.n}x{a.n}: interpreter {gpu:.3f} s, host loop '
          f'{host:.4f} s: {gpu / host:.0f}x the host (median of {a.runs})')
    if insns:
        print(f'{insns} wave-instructions: {insns / gpu / 1e6:.2f} M '
              f'wave-instructions/s, {64 * insns / gpu / 1e6:.0f} M '
              'lane-operations/s of wall time')
    if insns and cpu:
        print(f'{cpu:.2f} s of CPU in the interpreter: {insns / cpu / 1e6:.2f} M '
              f'wave-instructions/s, {64 * insns / cpu / 1e6:.0f} M '
              'lane-operations/s per core')
    print(f'largest difference from the host: {rows[0][2]:g}')


if __name__ == '__main__':
    main()
