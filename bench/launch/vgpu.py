#!/usr/bin/env python3
"""A launch and hipDeviceSynchronize on a virtual GPU, round after round:
the machine's real HIP runtime submitting to queues the stand-in serves.
Anchor in the same run: the same loop on the virtual GPU without the
hipgrain preload.  Informational: the virtual GPU is for audits, and its
queue service (a polling thread, woken when the runtime waits) is not a
device's; prints microseconds per round trip and the ratio.  A benchmark,
not a test: it never fails on a number.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tests',
                                'lib'))
from benchlib import median, timing  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--prog', required=True)
    ap.add_argument('--preload', required=True)
    ap.add_argument('--vgpu', required=True)
    ap.add_argument('--gpu', default='MI210')
    ap.add_argument('--rounds', type=int, default=2000)
    ap.add_argument('--runs', type=int, default=5)
    a = ap.parse_args()
    env = dict(os.environ, HIPGRAIN_VIRTUAL_GPU=a.gpu)
    env.pop('LD_LIBRARY_PATH', None)
    cmd = [a.prog, str(a.rounds), 'ysync']

    def run(preload):
        out = subprocess.run(cmd, env=dict(env, LD_PRELOAD=preload),
                             capture_output=True, text=True, check=True)
        return timing(out.stdout) / 1000

    alone = median(lambda: run(a.vgpu), a.runs)
    hg = median(lambda: run(f'{a.preload} {a.vgpu}'), a.runs)
    print(f'launch + synchronize on a virtual {a.gpu}: {alone:.1f} us without '
          f'hipgrain, {hg:.1f} us with its preload ({hg / alone:.2f}x); '
          f'median of {a.runs} runs of {a.rounds} rounds')
    return 0


if __name__ == '__main__':
    sys.exit(main())
