#!/usr/bin/env python3
"""kernels/attrib under `hipgrain run` against the test double: a finding
names the user's line of a typed-pointer allocation (not HIP's header), the
argument its atomic reaches, the page the pointer points into, and the
kernel line of the atomic.

usage: test_attrib.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR KERNELS_SRC
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, fakehip, ksrc = sys.argv[1:5]
SRC = os.path.join(ksrc, 'attrib.hip')


def marker(name):
    """The 1-based line of attrib.hip carrying `// name`."""
    for n, line in enumerate(open(SRC), 1):
        if '// ' + name in line:
            return n
    raise SystemExit(f'attrib.hip has no {name} marker')


def formatted(env, trace, fmt):
    """The report of trace in fmt (html, sarif), as text."""
    out = os.path.join(trace, 'report.' + fmt)
    subprocess.run([hipgrain, 'report', '--format', fmt, '-o', out, trace],
                   env=env, capture_output=True, check=True)
    with open(out) as f:
        return f.read()


def traced(variant):
    """(json report, text report, inventory, {html, sarif}) of one
    variant."""
    env = hgrun.fake_env(fakehip)
    t = hgrun.run(hipgrain, [os.path.join(kdir, 'attrib'), variant], env=env)
    try:
        _, rep = hgrun.report(hipgrain, t.trace)
        text = subprocess.run([hipgrain, 'report', t.trace], env=env,
                              capture_output=True, text=True).stdout
        inv = subprocess.run([hipgrain, 'report', '--inventory', t.trace],
                             env=env, capture_output=True, text=True).stdout
        fmts = {f: formatted(env, t.trace, f) for f in ('html', 'sarif')}
        return rep or {'findings': []}, text, inv, fmts
    finally:
        t.close()


def user_frame(frames):
    """The first frame outside HIP's and the C library's headers."""
    for f in frames:
        if f['file'] and not f['file'].startswith('/usr/'):
            return f
    return None


tap = hgrun.Tap()
acc_line, atomic_line = marker('ATTRIB_ACC_LINE'), marker('ATTRIB_ATOMIC_LINE')

rep, text, inv, fmts = traced('atomic-fine')
fs = [f for f in rep['findings'] if f['rule'] == 'fp-atomic-fine-grain']
tap.ok(len(fs) == 1, 'atomic-fine: one fp-atomic-fine-grain finding', rep)
site = f'attrib.hip:{acc_line} (main)'
tap.ok(f'allocation: hipHostMalloc, 8 bytes, fine-grained host-pinned memory, '
       f'at {site}' in text,
       'typed hipHostMalloc(&p, n): the text report names the user line', text)
tap.ok(site in inv, '--inventory names the user line too', inv)
if fs:
    frames = fs[0]['allocation']['callsite']
    u = user_frame(frames)
    tap.ok(u and u['file'].endswith('/attrib.hip') and u['line'] == acc_line
           and u['function'] == 'main',
           'JSON: the first frame outside the headers is the user line',
           frames[:3])
    tap.ok(frames[0]['inlined'] and 'hip_runtime_api.h' in frames[0]['file'],
           'JSON: the template inlined from hip_runtime_api.h comes first',
           frames[:2])

    msg = fs[0]['message']
    tap.ok(f'on argument 0, which points' in msg and
           f'at attrib.hip:{atomic_line}' in msg,
           'atomic-fine: the finding names the argument the atomic reaches '
           'and the kernel line of the atomic', msg)
    tap.ok(f'attrib.hip:{atomic_line}' in (fs[0].get('fix_at') or '') and
           f'attrib.hip:{acc_line}' in (fs[0].get('fix_at') or ''),
           'atomic-fine: the fix names the call to change and the atomic line',
           fs[0].get('fix_at'))

sarif = json.loads(fmts['sarif'])
regions = [loc['physicalLocation']['region']['startLine']
           for r in sarif['runs'][0]['results'] for loc in r['locations']
           if 'physicalLocation' in loc]
tap.ok(regions == [acc_line],
       'SARIF: the result is located at the user line, not the header',
       regions)
tap.ok(re.search(r'<span class="hit">\s*%d  ' % acc_line, fmts['html'])
       and f'attrib.hip:{atomic_line}' in fmts['html'],
       'HTML: the source excerpt is around the user line; the fix names '
       'the atomic line', re.findall(r'<span class="hit">[^<]*', fmts['html']))

rep, text, _, _ = traced('atomic-coarse')
tap.ok(not rep['findings'],
       'atomic-coarse: atomics on the coarse argument, plain stores to the '
       'fine one: quiet', text)

rep, text, _, _ = traced('split-coarse')
tap.ok(not rep['findings'],
       'split-coarse: a pointer into the coarse page of a split range is quiet',
       text)
rep, text, _, _ = traced('split-fine')
fs = [f for f in rep['findings'] if f['rule'] == 'fp-atomic-fine-grain']
tap.ok(len(fs) == 1 and 'points into fine-grained managed memory (offset 4224 '
       'of a split range: coarse at [0, 4096), fine at [4096, 8192))'
       in fs[0]['message'],
       'split-fine: fires, saying where the range changes', text)
sys.exit(tap.done())
