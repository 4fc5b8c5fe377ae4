#!/usr/bin/env python3
"""The user's line, not the library's (issue 48, 5), on a virtual MI210.
kernels/async_copy's vector variant copies to and from a std::vector: its
allocation is inlined from libstdc++ five calls deep, and must be placed at
the program's line of the vector ("via std::vector::vector"), with the
library's frames kept in JSON, never at new_allocator.h (e6bb077's place);
each async-copy-pageable finding names its copy's line.  kernels/
prefetch_advise advises hipMalloc memory three ways: each advise-unsupported
names the advice as HIP does, at its call's line (e6bb077 said "advice
100" and named no line).

usage: test_user_line.py HIPGRAIN KERNELS_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
tap = hgrun.Tap()
here = os.path.join(os.path.dirname(__file__), '..', '..', 'kernels')


def line_of(src, text):
    return next(i for i, t in enumerate(open(os.path.join(here, src)), 1)
                if text in t)


def reports(t):
    text = subprocess.run([hipgrain, 'report', t.trace], capture_output=True,
                          text=True, env=dict(os.environ, NO_COLOR='1')).stdout
    _, doc = hgrun.report(hipgrain, t.trace)
    sarif = json.loads(subprocess.run(
        [hipgrain, 'report', '--format', 'sarif', t.trace],
        capture_output=True, text=True).stdout)
    return text, doc, sarif


def primary_lines(sarif, rule):
    return sorted(loc['physicalLocation']['region']['startLine']
                  for r in sarif['runs'][0]['results'] if r['ruleId'] == rule
                  for loc in r['locations'][:1] if 'physicalLocation' in loc)


# -- a std::vector's buffer, copied asynchronously -----------------------
VEC = line_of('async_copy.hip', '// async_copy: the vector')
TO = line_of('async_copy.hip', '// async_copy: to the device')
BACK = line_of('async_copy.hip', '// async_copy: back')
t = hgrun.run(hipgrain, [os.path.join(kdir, 'async_copy'), 'vector'],
              env=hgrun.vgpu_env(), extra=('--virtual-gpu', 'MI210'))
try:
    text, doc, sarif = reports(t)
    block = text.split('[async-copy-pageable]', 1)[-1].split('\n\n', 1)[0]
    tap.ok(block.count(f'at async_copy.hip:{VEC} (main, via std::vector::vector)')
           == 2 and 'new_allocator.h' not in text,
           f'text: the vector at the program\'s line {VEC}, via std::vector', text)
    f = [x for x in doc['findings'] if x['rule'] == 'async-copy-pageable']
    sites = [x['allocation']['site'] for x in f]
    frames = [fr for x in f for fr in x['allocation']['callsite']]
    tap.ok(f and all(s['file'].endswith('/async_copy.hip') and s['line'] == VEC
                     for s in sites) and
           any(fr['file'].endswith('/new_allocator.h') and fr['runtime_header']
               for fr in frames),
           'JSON: the site is the program\'s line; libstdc++\'s frames are kept, '
           'marked as a library\'s', f)
    tap.ok(sorted(x['call']['site']['line'] for x in f) == sorted([TO, BACK]) and
           f'call: hipMemcpyAsync at async_copy.hip:{TO} (main)' in block and
           f'call: hipMemcpyAsync at async_copy.hip:{BACK} (main)' in block,
           f'each copy at its own line ({TO}, {BACK}), in text and JSON', block)
    tap.ok(primary_lines(sarif, 'async-copy-pageable') == sorted([TO, BACK]),
           'SARIF: each result at its copy\'s line',
           primary_lines(sarif, 'async-copy-pageable'))
finally:
    t.close()

# -- advice on memory that takes none -------------------------------------
ADV = {'hipMemAdviseSetReadMostly': line_of('prefetch_advise.hip', 'hipMemAdviseSetReadMostly, dev'),
       'hipMemAdviseSetPreferredLocation': line_of('prefetch_advise.hip', 'hipMemAdviseSetPreferredLocation, dev'),
       'hipMemAdviseSetCoarseGrain': line_of('prefetch_advise.hip', 'hipMemAdviseSetCoarseGrain, dev')}
t = hgrun.run(hipgrain, [os.path.join(kdir, 'prefetch_advise'), 'hipmalloc'],
              env=hgrun.vgpu_env(), extra=('--virtual-gpu', 'MI210'))
try:
    text, doc, sarif = reports(t)
    f = [x for x in doc['findings'] if x['rule'] == 'advise-unsupported']
    got = sorted((x['message'].split('(', 1)[1].split(')', 1)[0],
                  ((x.get('call') or {}).get('site') or {}).get('line'))
                 for x in f)
    tap.ok(got == sorted(ADV.items()),
           'each advice named as HIP names it, at its call\'s line', got)
    tap.ok('advice 100' not in text and all(
        f'call: hipMemAdvise at prefetch_advise.hip:{n}' in text
        for n in ADV.values()), 'text: no number, each call\'s line', text)
    tap.ok(primary_lines(sarif, 'advise-unsupported') == sorted(ADV.values()),
           'SARIF: each result at its advise call',
           primary_lines(sarif, 'advise-unsupported'))
finally:
    t.close()
sys.exit(tap.done())
