#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/vgpu: the virtual GPU's interpreter on a matrix multiply.

Runs bm-matmul N under `hipgrain run --virtual-gpu MI210`, which prints the
kernel's wall time and the same loop's on the host (the floor, measured in
the same process), and reads the wave-instructions the interpreter
executed from the trace's vgpu_dispatch event and the processor time of the
interpreter's threads from the virtual GPU's log (HIPGRAIN_VGPU_TRACE).
Prints the kernel's time, its ratio to the host loop, and wave- and
lane-operations per second of that processor time, which is the issue's
per-core measure and moves little with the machine's load (64 lanes per
wave-instruction, masked lanes counted: what the hardware would issue).

usage: run.py --hipgrain HIPGRAIN --prog BM_MATMUL [--n N] [--runs R]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def one(hipgrain, prog, n):
    with tempfile.TemporaryDirectory(prefix='bm-vgpu-') as tmp:
        trace = os.path.join(tmp, 'trace')
        env = dict(os.environ, HIPGRAIN_VGPU_TRACE='1')
        r = subprocess.run([hipgrain, 'run', '--virtual-gpu', 'MI210',
                            '--no-report', '--output', trace, '--', prog,
                            str(n)], capture_output=True, text=True, env=env)
        if r.returncode:
            sys.exit('bm-matmul failed: ' + r.stderr[-2000:])
        gpu, host, err = r.stdout.split()
        # "kernel 0x... ran: status 0, N wave-instructions in U us of CPU"
        cpu = sum(int(line.split(' in ')[1].split()[0]) for line in
                  r.stderr.splitlines() if ' ran: status ' in line) / 1e6
        dump = subprocess.run([hipgrain, 'dump', '--event', 'vgpu_dispatch',
                               trace], capture_output=True, text=True).stdout
        insns = sum(int(w.split('=')[1]) for line in dump.splitlines()
                    for w in line.split() if w.startswith('insns='))
        return float(gpu), float(host), float(err), insns, cpu


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
    if insns and cpu:
        print(f'{insns} wave-instructions in {cpu:.3f} s of the interpreter\'s '
              f'processor time: {insns / cpu / 1e6:.2f} M wave-instructions/s, '
              f'{64 * insns / cpu / 1e6:.0f} M lane-operations/s per core')
    print(f'largest difference from the host: {rows[0][2]:g}')


if __name__ == '__main__':
    main()
