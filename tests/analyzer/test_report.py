#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a user of `hipgrain report` notices beyond single rules: failed
calls without a GPU, many processes in one report, bad input, partial
traces, call-site symbols, the inventory, colour and exit codes.

usage: test_report.py HIPGRAIN TRACEGEN
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from lttng_session import Tracing  # noqa: E402

HIPGRAIN, TRACEGEN = sys.argv[1], sys.argv[2]
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases')
TMP = tempfile.mkdtemp(prefix='hgreport-')
results = []

NO_GPU = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=100 arch= name=
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
repeat 3
alloc id=0 api=20 addr=0 size=4096 mem=1 gran=1 rc=101
end
launch handle=0x1000 rc=100
launch handle=0x1000 rc=100 repeat=4
"""

BIG = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
repeat 20000
alloc id=%i api=22 addr=0x7f0000000000 size=4096 mem=4 gran=2
launch handle=0x1000 arg_index=0 arg_value=0x7f0000000000 arg_id=%i arg_mem=4 arg_gran=2
free id=%i api=41 addr=0x7f0000000000 alloc_api=22
end
"""


def check(name, cond, detail=''):
    results.append((name, bool(cond), detail))


def script(name, text):
    path = os.path.join(TMP, name + '.tg')
    with open(path, 'w') as f:
        f.write(text)
    return path


def trace(name, *scripts):
    out = os.path.join(TMP, name)
    with Tracing(out) as t:
        for s in scripts:
            r = t.run([TRACEGEN, s])
            assert r.returncode == 0, r.stderr
    return out


def report(*args, env=None):
    e = dict(os.environ, NO_COLOR='1')
    e.update(env or {})
    return subprocess.run([HIPGRAIN, 'report'] + list(args),
                          capture_output=True, text=True, env=e)


def test_no_gpu():
    t = trace('nogpu', script('nogpu', NO_GPU))
    r = report(t)
    check('no GPU: report made', r.returncode == 0, r.stderr)
    check('no GPU: failed hipMalloc summarised',
          'hipMalloc failed 3× with hipErrorInvalidDevice: no usable GPU'
          in r.stdout, r.stdout)
    check('no GPU: kernel static facts', 'sum(float*, float*, int)' in
          r.stdout and 'never ran' in r.stdout, r.stdout)
    doc = json.loads(report('--format', 'json', t).stdout)
    fails = {f['api']: f for f in doc['summary']['failed_calls']}
    check('no GPU: JSON failed calls', fails.get('hipMalloc', {}).get(
        'count') == 3 and fails['hipMalloc']['error'] ==
        'hipErrorInvalidDevice', fails)
    check('no GPU: counted failed launches weigh what they stand for',
          fails.get('hipLaunchKernel', {}).get('count') == 5, fails)


def test_many_processes():
    case = os.path.join(CASES, 'fp_atomic_host.fire.tg')
    t = trace('multi', case, case)
    doc = json.loads(report('--format', 'json', t).stdout)
    fp = [f for f in doc['findings'] if f['rule'] == 'fp-atomic-fine-grain']
    check('two processes: one merged finding', len(fp) == 1, fp)
    check('two processes: counts add up', fp and fp[0]['count'] == 4, fp)
    check('two processes: both named', fp and
          fp[0]['where']['processes'] == 2, fp)
    check('two processes: summary', doc['summary']['processes'] == 2)
    return t


def test_symbols_inventory_colour(t):
    doc = json.loads(report('--format', 'json', '--inventory', t).stdout)
    f = doc['findings'][0]
    cs = f['allocation']['callsite']
    check('call site symbolised', cs and cs[0]['file'].endswith('tg_emit.c')
          and cs[0]['function'] == 'tg_callsite' and cs[0]['line'] > 0, cs)
    check('kernel demangled', f['kernel'] == {
        'name': '_Z3sumPfS_i', 'demangled': 'sum(float*, float*, int)'})
    inv = doc['inventory']['by_allocator']
    check('inventory by allocator', any(
        b['api'] == 'hipHostMalloc' and b['granularity'] == 'fine' and
        b['bytes'] == 8192 for b in inv), inv)
    text = report('--inventory', t).stdout
    check('inventory in text', 'allocation inventory' in text and
          'largest allocations' in text, text)
    check('no colour when piped', '\033[' not in text)
    check('colour when asked', '\033[' in report('--color', 'always', t).stdout)
    check('--fail-on error exits 2', report('--fail-on', 'error', t).returncode == 2)
    clean = trace('clean', os.path.join(CASES, 'leak_freed.miss.tg'))
    check('--fail-on with nothing to report exits 0',
          report('--fail-on', 'note', clean).returncode == 0)


def test_bad_input():
    r = report(os.path.join(TMP, 'does-not-exist'))
    check('missing input: exit 1 and a message', r.returncode == 1 and
          'does-not-exist' in r.stderr, r.stderr)
    empty = os.path.join(TMP, 'emptydir')
    os.mkdir(empty)
    r = report(empty)
    check('empty dir: no CTF trace', r.returncode == 1 and
          'no CTF trace' in r.stderr, r.stderr)
    junk = os.path.join(TMP, 'junk')
    os.mkdir(junk)
    with open(os.path.join(junk, 'metadata'), 'w') as f:
        f.write('this is not TSDL\n')
    r = report(junk)
    check('corrupt metadata: clear message', r.returncode == 1 and
          'not a readable CTF trace' in r.stderr, r.stderr)
    foreign = trace('foreign', script('empty', '# nothing\n'))
    r = report(foreign)
    check('not a hipgrain trace', r.returncode == 1 and
          'no hipgrain event' in r.stderr, r.stderr)
    r = report(empty, '--format', 'xml')
    check('bad option: usage exit 64', r.returncode == 64)


def test_truncated():
    t = trace('big', script('big', BIG))
    full = json.loads(report('--format', 'json', t).stdout)
    cut = shutil.copytree(t, os.path.join(TMP, 'cut'))
    streams = []
    for root, _, files in os.walk(cut):
        streams += [os.path.join(root, f) for f in files
                    if f.startswith('ch_') and 'index' not in root]
    biggest = max(streams, key=os.path.getsize)
    with open(biggest, 'r+b') as f:
        f.truncate(os.path.getsize(biggest) * 2 // 3 + 7)
    shutil.rmtree(os.path.join(os.path.dirname(biggest), 'index'),
                  ignore_errors=True)
    r = report('--format', 'json', cut)
    check('truncated: still a report', r.returncode == 0, r.stderr)
    if r.returncode == 0:
        doc = json.loads(r.stdout)
        check('truncated: marked partial', doc['summary']['partial'], doc)
        check('truncated: fewer events', doc['summary']['events'] <
              full['summary']['events'])
        check('truncated: says why on stderr', 'hipgrain report:' in r.stderr)


SCHEMA = '''process ppid=1 exe=/opt/cfd/bin/solver version=9.9.9 schema=%d
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1
'''


def current_schema():
    """HG_TRACE_SCHEMA, from the header the preload and report share."""
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'common', 'hg_events.h')
    return int(re.search(r'#define HG_TRACE_SCHEMA (\d+)',
                         open(h).read()).group(1))


def test_schema():
    cur = current_schema()
    newer = trace('newer', script('newer', SCHEMA % (cur + 1)))
    r = report(newer)
    check('newer schema: refused', r.returncode == 1 and
          f'trace schema {cur + 1} is newer than this hipgrain reads ({cur}); '
          'upgrade hipgrain' in r.stderr, (r.returncode, r.stderr))
    check('newer schema: no report made', 'finding' not in r.stdout,
          r.stdout)
    same = trace('same', script('same', SCHEMA % cur))
    r = report('--format', 'json', same)
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    leak = [f for f in doc.get('findings', []) if f['rule'] == 'gpu-leak']
    check('this schema: read', r.returncode == 0 and leak, r.stderr)
    check('a process is named by its image, not a context field',
          leak and leak[0]['where']['process'].startswith('solver['), leak)


def main():
    try:
        test_no_gpu()
        test_schema()
        test_symbols_inventory_colour(test_many_processes())
        test_bad_input()
        test_truncated()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    bad = 0
    for name, ok, detail in results:
        print('%s: %s' % ('ok' if ok else 'FAIL', name))
        if not ok:
            bad += 1
            print('    ' + str(detail)[:2000])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
