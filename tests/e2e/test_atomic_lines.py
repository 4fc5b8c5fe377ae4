#!/usr/bin/env python3
"""Each atomic at its own line (issue 48, 4).  kernels/histogram's maxor
kernel has an atomicAdd, an atomicMax and an atomicOr on three adjacent
lines: over PCIe the add lands and the max and the or do nothing.  `hipgrain
scan` must give each at its own line in text and JSON, and its SARIF one
location per line at risk, never the add's; the report of a run on a
virtual MI210 must name the max and the or each at its own line, in text,
JSON and SARIF, and the add's line nowhere, as must HIPGRAIN_WARN=1's
warning.  On e6bb077 the report said
"(max, or) at histogram.hip:N" and the SARIF sat at the add's line.

usage: test_atomic_lines.py HIPGRAIN KERNELS_DIR
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
prog = os.path.join(kdir, 'histogram')
src = os.path.join(os.path.dirname(__file__), '..', '..', 'kernels', 'histogram.hip')
lines = open(src).read().splitlines()
ADD = next(i for i, t in enumerate(lines, 1) if 'atomicAdd(&bins[0]' in t)
MAX = next(i for i, t in enumerate(lines, 1) if 'atomicMax(&bins[1]' in t)
OR = next(i for i, t in enumerate(lines, 1) if 'atomicOr(&bins[2' in t)
tap.ok(MAX == ADD + 1 and OR == ADD + 2, 'the three atomics are on adjacent lines')


def scan(*args):
    p = subprocess.run([hipgrain, 'scan', *args, prog], capture_output=True,
                       text=True)
    return p.returncode, p.stdout


# -- hipgrain scan ---------------------------------------------------------
rc, out = scan('--target', 'gfx90a')
kernel = re.search(r'histo_maxor\([^\n]*\n([^\n]*)', out)
text = kernel.group(1) if kernel else ''
tap.ok(rc == 0 and f'1 by add (histogram.hip:{ADD})' in text and
       f'1 by max (histogram.hip:{MAX})' in text and
       f'1 by or (histogram.hip:{OR})' in text,
       'scan text: each integer atomic with its own line', out)

rc, out = scan('--format', 'json', '--target', 'gfx90a')
got = set()
for co in json.loads(out)['files'][0]['code_objects']:
    for k in co['kernels']:
        if k['demangled'].startswith('histo_maxor('):
            got |= {(a['mnemonic'], a['line']) for a in k['int_atomics']}
tap.ok({('global_atomic_add', ADD), ('global_atomic_umax', MAX),
        ('global_atomic_or', OR)} <= got,
       'scan JSON: each integer atomic with its own line', sorted(got))

rc, out = scan('--format', 'sarif')
# The integer rule's results: a kernel that also synchronizes at system
# scope has a coarse-sync note of its own, at its own lines.
results = [r for r in json.loads(out)['runs'][0]['results']
           if r['message']['text'].startswith('histo_maxor(')
           and r['ruleId'] == 'int-atomic-fine-host']
at = [[l['physicalLocation'].get('region', {}).get('startLine')
       for l in r['locations']] for r in results]
tap.ok(rc == 0 and len(results) >= 2 and
       all(sorted(a) == [MAX, OR] for a in at),
       f'scan SARIF: one location at line {MAX} and one at {OR} per target, '
       f'none at the add ({ADD})', at)
tap.ok(all(f'histogram.hip:{ADD}' not in r['message']['text'] and
           f'global_atomic_umax at histogram.hip:{MAX}' in r['message']['text']
           and f'global_atomic_or at histogram.hip:{OR}' in r['message']['text']
           for r in results),
       'scan SARIF: the message names the max and the or at their lines',
       [r['message']['text'] for r in results])

# -- the report of a run on a virtual MI210 ---------------------------------
env = hgrun.vgpu_env()
env['HIPGRAIN_WARN'] = '1'
t = hgrun.run(hipgrain, [prog, 'maxor', 'hostmalloc'], env=env,
              extra=('--virtual-gpu', 'MI210'))
try:
    tap.ok('MISMATCH' in t.proc.stdout,
           'the max and the or do nothing over PCIe: the result is wrong',
           t.proc.stdout + t.proc.stderr)
    warn = [ln for ln in t.proc.stderr.splitlines() if '[int-atomic-fine-host]' in ln]
    tap.ok(len(warn) == 1 and
           f'(max at histogram.hip:{MAX}, or at histogram.hip:{OR})' in warn[0]
           and f'histogram.hip:{ADD}' not in warn[0],
           'HIPGRAIN_WARN=1: the max and the or at their lines, not the add\'s',
           t.proc.stderr)
    p = subprocess.run([hipgrain, 'report', t.trace], capture_output=True,
                       text=True, env=dict(os.environ, NO_COLOR='1'))
    block = p.stdout.split('[int-atomic-fine-host]', 1)[-1].split('\n\n', 1)[0]
    tap.ok(f'(max at histogram.hip:{MAX}, or at histogram.hip:{OR})' in block
           and f'histogram.hip:{ADD}' not in block,
           'text: the max and the or each at its own line, the add nowhere',
           p.stdout)
    _, rep = hgrun.report(hipgrain, t.trace)
    f = [x for x in rep['findings'] if x['rule'] == 'int-atomic-fine-host']
    tap.ok(len(f) == 1 and f[0].get('atomics') == [
        {'op': 'max', 'at': f'histogram.hip:{MAX}'},
        {'op': 'or', 'at': f'histogram.hip:{OR}'}] and
        f[0].get('atomic_at') == f'histogram.hip:{MAX}',
        'JSON: atomics lists the max and the or, each at its line', f)
    obs = (f[0].get('observed') or {}).get('text', '') if f else ''
    # Both operations named, in the order the code holds them (LLVM 21
    # lays the or first), and the add's line nowhere.
    named = re.search(r'atomics \(([^)]*)\)', obs)
    tap.ok(named is not None and
           sorted(named.group(1).split(', ')) == ['global_atomic_or',
                                                   'global_atomic_umax'] and
           f'histogram.hip:{MAX} and histogram.hip:{OR}' in obs and
           f'histogram.hip:{ADD}' not in obs,
           'observed: the drops of both, not all under the max', obs)
    p = subprocess.run([hipgrain, 'report', '--format', 'sarif', t.trace],
                       capture_output=True, text=True)
    res = [r for r in json.loads(p.stdout)['runs'][0]['results']
           if r['ruleId'] == 'int-atomic-fine-host']
    rel = [(x['message']['text'], x['physicalLocation']['region']['startLine'])
           for r in res for x in r.get('relatedLocations', [])
           if x['message']['text'].startswith('the atomic')]
    every = [x['physicalLocation'].get('region', {}).get('startLine')
             for r in res for x in r.get('locations', []) +
             r.get('relatedLocations', [])
             if x['physicalLocation']['artifactLocation']['uri'].endswith(
                 'histogram.hip')]
    tap.ok(rel == [('the atomic (max)', MAX), ('the atomic (or)', OR)] and
           ADD not in every,
           'SARIF: a related location for each atomic at risk, none at the add',
           (rel, every))
finally:
    t.close()
sys.exit(tap.done())
