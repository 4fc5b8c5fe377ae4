#!/usr/bin/env python3
"""Runs on different GPUs reported together say what was observed on each
(issue 48, 3): arraysum_unsafe on hipHostMalloc memory, traced on a
virtual MI100, MI250X and MI210, then read in one report.  Each
fp-atomic-fine-grain finding's observed count must be its own product's,
as that run alone reports it: on e6bb077 the three runs' findings merged
into one, whose "on the virtual MI210, N atomics" added the other GPUs'
drops.

usage: test_merged_gpus.py HIPGRAIN KERNELS_DIR
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
GPUS = ('MI100', 'MI250X', 'MI210')
RULE = 'fp-atomic-fine-grain'


def observed(rep):
    """{product: dropped} of RULE's findings, from their observed text."""
    out = {}
    for f in rep['findings']:
        obs = f.get('observed')
        if f['rule'] != RULE or not obs:
            continue
        m = re.match(r'on the virtual (\S+)(?: \([^)]*\))?,', obs['text'])
        if m:
            out[m.group(1)] = out.get(m.group(1), 0) + obs['dropped']
    return out


traces, alone = [], {}
try:
    for gpu in GPUS:
        t = hgrun.run(hipgrain, [os.path.join(kdir, 'arraysum_unsafe'), 'hostmalloc'],
                      env=hgrun.vgpu_env(), extra=('--virtual-gpu', gpu))
        traces.append(t)
        _, rep = hgrun.report(hipgrain, t.trace)
        alone.update(observed(rep) if rep else {})
    # gfx908 has no FP64 atomic add: the MI100's run is a CAS loop, no
    # finding, and only adds a third GPU to the report.
    tap.ok(sorted(alone) == ['MI210', 'MI250X'] and all(alone.values()),
           'the MI250X and the MI210 alone each observe dropped atomics', str(alone))
    p = subprocess.run([hipgrain, 'report', '--format', 'json'] + [t.trace for t in traces],
                       capture_output=True, text=True)
    merged = observed(json.loads(p.stdout)) if p.stdout else {}
    tap.ok(merged == alone, 'merged, each product observes what it alone observed',
           f'merged {merged}, alone {alone}')
finally:
    for t in traces:
        t.close()
sys.exit(tap.done())
