#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report --format html|perfetto|sarif|json` on traces made with
hg_tracegen: each output validated (SARIF schema, trace-event schema, the
HTML in headless Chromium with a screenshot, JSON read as strict UTF-8),
a hostile trace that tries to
inject markup, a 4-rank job, 100,000 allocations, and bad options.

usage: test_formats.py HIPGRAIN TRACEGEN SRCDIR
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, HERE)
from lttng_session import Tracing  # noqa: E402
import hgrun  # noqa: E402
import hgformats  # noqa: E402

HIPGRAIN, TRACEGEN, SRC = sys.argv[1:4]
TMP = tempfile.mkdtemp(prefix='hgformats-')
atexit.register(shutil.rmtree, TMP, True)  # on every way out
tap = hgrun.Tap()

HEAD = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
callsite id=7 frames=self
"""
KERNEL = """function handle=0x1000 name={name}
kernel handle=0x1000 name={name} target=gfx90a xnack=1 fp_ops=0x10000 fp_count=1 fp_mnemonics=global_atomic_add_f32 arg_kind=2,2,1 arg_offset=0,8,16 arg_size=8,8,4
"""
FIRE = """alloc id=1 api=22 addr=0x7f0000000000 size=4096 mem=4 gran=2 callsite=7
alloc id=2 api=20 addr=0x7e0000000000 size=1048576 mem=1 gran=1 callsite=7
launch handle=0x1000 arg_index=0,1 arg_value=0x7f0000000000,0x7e0000000000 arg_id=1,2 arg_offset=0,0 arg_mem=4,1 arg_gran=2,1
free id=1 api=41 addr=0x7f0000000000 alloc_api=22
free id=2 api=40 addr=0x7e0000000000 alloc_api=20
"""
# Markup in a kernel name: none of it may become an element or run.  The
# bytes \xff and \xc3( are not UTF-8: every format must still be valid.
EVIL = ('"<script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>'
        '<svg onload=window.__pwned=3></svg>&amp;\'</td></table>\udcff\udcc3("')
EVIL_SHOWN = EVIL.strip('"').replace('\udcff', '\ufffd').replace('\udcc3', '\ufffd')


def trace(name, *scripts):
    out = os.path.join(TMP, name)
    with Tracing(out) as t:
        for i, text in enumerate(scripts):
            path = os.path.join(TMP, '%s-%d.tg' % (name, i))
            with open(path, 'w', errors='surrogateescape') as f:
                f.write(text)
            r = t.run([TRACEGEN, path])
            if r.returncode != 0:
                raise AssertionError('tracegen: ' + r.stderr)
    return out


def report(tdir, fmt, *extra):
    out = os.path.join(TMP, '%s.%s' % (os.path.basename(tdir), fmt))
    r = subprocess.run([HIPGRAIN, 'report', '--format', fmt, '-o', out, *extra,
                        tdir], capture_output=True, text=True)
    return r, out


def json_of(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def strict_json(path):
    """The document, or the reason a strict reader refuses it."""
    try:
        with open(path, encoding='utf-8', errors='strict') as f:
            return json.load(f), ''
    except (UnicodeDecodeError, ValueError) as e:
        return None, str(e)


def all_formats(name, tdir):
    """Writes the three formats; checks SARIF and Perfetto; returns them."""
    outs = {}
    for fmt in ('html', 'perfetto', 'sarif', 'json'):
        r, out = report(tdir, fmt)
        tap.ok(r.returncode == 0 and os.path.getsize(out) > 0,
               '%s: --format %s -o FILE writes it' % (name, fmt), r.stderr)
        outs[fmt] = out
    doc, why = strict_json(outs['json'])
    tap.ok(doc is not None and 'findings' in doc,
           '%s: the JSON report parses as strict UTF-8 JSON' % name, why)
    errs = hgformats.check_sarif(json_of(outs['sarif']), IDS)
    tap.ok(not errs, '%s: SARIF validates against the 2.1.0 schema' % name,
           '\n'.join(errs))
    errs, summary = hgformats.check_perfetto(json_of(outs['perfetto']))
    tap.ok(not errs, '%s: trace-event JSON validates, every async slice '
           'ends' % name, '\n'.join(errs))
    return outs, summary


def case_fire():
    tdir = trace('fire', HEAD + KERNEL.format(name='_Z3sumPfS_i') + FIRE)
    outs, pf = all_formats('fire', tdir)
    want = hgrun.report(HIPGRAIN, tdir)[1]['findings'][0]
    frame = next(f for f in want['allocation']['callsite'] if f['file'])
    res = json_of(outs['sarif'])['runs'][0]['results']
    loc = res[0]['locations'][0]['physicalLocation'] if res else {}
    tap.ok(len(res) == 1 and res[0]['ruleId'] == 'fp-atomic-fine-grain' and
           res[0]['level'] == 'error' and
           loc['region']['startLine'] == frame['line'] and
           loc['artifactLocation']['uri'].endswith(os.path.basename(frame['file'])),
           'fire: SARIF result at the call site %s:%d' % (frame['file'], frame['line']),
           json.dumps(res)[:1500])
    launch = pf['launches'][0]['args'] if pf.get('launches') else {}
    tap.ok(pf.get('findings') == ['fp-atomic-fine-grain'] and pf['allocs'] == 2 and
           pf['counters'] >= 4 and
           [a['granularity'] for a in launch.get('arguments', [])] == ['fine', 'coarse'] and
           'hipHostMalloc' in launch['arguments'][0].get('allocation', ''),
           'fire: Perfetto has the finding, both blocks, live-byte counters and '
           'the launch with its resolved arguments', json.dumps(pf, default=str)[:1500])
    sites = {e['args'].get('site') for e in json_of(outs['perfetto'])['traceEvents']
             if e['ph'] == 'b' and e.get('cat') == 'allocation'}
    want_site = '%s:%d' % (os.path.basename(frame['file']), frame['line'])
    tap.ok(sites and all(s and s.startswith(want_site) for s in sites),
           'fire: Perfetto allocations carry their call site as file:line',
           sites)
    files = [f['file'] for f in want['allocation']['callsite'] if f['file']]
    tap.ok(files and not [f for f in files if '/./' in f or '/../' in f],
           'fire: JSON call-site paths are normalised', files)
    return outs['html']


def case_hostile():
    tdir = trace('hostile', HEAD + KERNEL.format(name=EVIL) + FIRE)
    outs, _ = all_formats('hostile', tdir)
    doc = json_of(outs['perfetto'])
    names = {e['name'] for e in doc['traceEvents'] if e['ph'] == 'X'}
    tap.ok(EVIL_SHOWN in names, 'hostile: Perfetto keeps the name as text, '
           'bytes that are not UTF-8 replaced', names)
    doc, _ = strict_json(outs['json'])
    kernels = {f.get('kernel', {}).get('name') for f in
               (doc or {}).get('findings', [])}
    tap.ok(EVIL_SHOWN in kernels, 'hostile: the JSON report keeps the name '
           'as text, bytes that are not UTF-8 replaced', kernels)
    return outs['html']


RANK = """process ppid=1 exe=/bin/solver version=0.1.0
env name=OMPI_COMM_WORLD_RANK value={rank}
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
callsite id=7 frames=self
""" + KERNEL.format(name='_Z3sumPfS_i') + """repeat {n}
alloc id=%i api=20 addr=0x7e0000000000 size=1048576 mem=1 gran=1 callsite=7
alloc id=1%i api=22 addr=0x7f0000000000 size=65536 mem=4 gran=2 callsite=7
launch handle=0x1000 arg_index=0,1 arg_value=0x7e0000000000,0x7f0000000000 arg_id=%i,1%i arg_offset=0,0 arg_mem=1,4 arg_gran=1,2
free id=1%i api=41 addr=0x7f0000000000 alloc_api=22
end
"""


def case_ranks():
    tdir = trace('ranks', *[RANK.format(rank=r, n=10 + 5 * r) for r in range(4)])
    outs, pf = all_formats('ranks', tdir)
    ranks = sorted(p.split('rank ')[-1] for p in pf.get('processes', ()))
    tap.ok(ranks == ['0', '1', '2', '3'],
           'ranks: Perfetto names the 4 processes by rank', pf.get('processes'))
    res = json_of(outs['sarif'])['runs'][0]['results']
    fp = [r for r in res if r['ruleId'] == 'fp-atomic-fine-grain']
    tap.ok(len(fp) == 1 and fp[0]['properties']['ranks'] == [0, 1, 2, 3],
           'ranks: one SARIF result for the 4 ranks, naming them', res)
    return outs['html']


BIG = HEAD + """repeat 100000
alloc id=%i api=20 addr=0x7e0000000000 size=4096 mem=1 gran=1 callsite=7
end
"""


def case_big():
    tdir = trace('big', BIG)
    r, out = report(tdir, 'html')
    size = os.path.getsize(out) if r.returncode == 0 else -1
    tap.ok(0 < size < 1 << 20, '100,000 allocations: the page stays small '
           '(%d bytes)' % size, r.stderr)
    return out


# The driver front end: a managed block its driver made coarse, a prefetch
# the driver timed, and one migration whose end never came.
MIGRATE = HEAD + """kfd_smi_open gpu_id=14972 rc=0
kfd_svm start=0x7f0000000000 size=1048576 op=0 attrs=2,14972
alloc id=1 api=21 addr=0x7f0000000000 size=1048576 mem=3 gran=2 callsite=7
kfd_svm start=0x7f0000000000 size=1048576 op=0 attrs=6,2
kfd_smi kind=5 trigger=0 addr=0x7f0000000000 size=1048576 from=0 to=14972 node=14972 ns=1000000
kfd_smi kind=6 trigger=0 addr=0x7f0000000000 size=1048576 from=0 to=14972 node=14972 ns=1250000
kfd_smi kind=5 trigger=2 addr=0x7f0000000000 size=4096 from=14972 to=0 node=14972 ns=2000000
free id=1 api=40 addr=0x7f0000000000 alloc_api=21
"""


def case_migrate():
    tdir = trace('migrate', MIGRATE)
    outs, _ = all_formats('migrate', tdir)
    sl = [e for e in json_of(outs['perfetto'])['traceEvents']
          if e.get('cat') == 'migration']
    tap.ok([(e['ph'], e['name'], e['dur']) for e in sl] ==
           [('X', 'migrate prefetch 1.0 MiB system→GPU', 250.0),
            ('X', 'migrate cpu_fault 4.0 KiB GPU→system', 0.0)],
           'migrate: Perfetto slices as long as the driver timed them', sl)
    res = json_of(outs['sarif'])['runs'][0]['results']
    tap.ok([r['ruleId'] for r in res] == ['runtime-granularity-differs'],
           'migrate: SARIF has the driver\'s disagreement', res)


def check_pages(fire, hostile, ranks, big):
    shot = os.path.join(TMP, 'ranks.png')
    got = {os.path.basename(f['page']): f for f in hgformats.browse(
        [(fire, None), (hostile, None), (ranks, shot), (big, None)])}
    f = got['fire.html']
    tap.ok([x['rule'] for x in f['findings']] == ['fp-atomic-fine-grain'] and
           'fix: allocate with hipMalloc' in f['findings'][0]['text'] and
           not f['errors'],
           'fire: Chromium shows the one finding', json.dumps(f)[:1500])
    series = [s['name'] for s in f['svgs'][0]['series']] if f['svgs'] else []
    tap.ok(series == ['hipHostMalloc fine', 'hipMalloc coarse'] and
           all(s['points'] > 100 for s in f['svgs'][0]['series']),
           'fire: the placement SVG has one series per allocator and '
           'granularity', json.dumps(f['svgs'])[:800])
    tap.ok(f['allocRows'] == 2 and f['sortDesc'] and f['sortAsc'] and
           f['kernels'] == ['sum(float*, float*, int)'],
           'fire: the tables are there and sort by bytes', json.dumps(f)[:1500])
    h = got['hostile.html']
    tap.ok(h['pwned'] is None and h['scripts'] == 1 and h['foreign'] == 0 and
           not h['errors'] and h['title'] == 'hipgrain report' and
           h['kernels'] == [EVIL_SHOWN] and h['allocRows'] == 2,
           'hostile: markup in a kernel name stays text (no element, no '
           'script ran)', json.dumps(h)[:2000])
    r = got['ranks.html']
    tap.ok(len(r['svgs']) == 4 and all(len(s['series']) == 2 for s in r['svgs'])
           and len({s['pid'] for s in r['svgs']}) == 4 and
           any('ranks: ×4 (0-3)' in x['text'] for x in r['findings']),
           'ranks: one placement SVG per rank, each with its two series; the '
           'finding says ×4 ranks',
           json.dumps(r['svgs'])[:1500])
    tap.ok(os.path.getsize(shot) > 20000, 'ranks: a screenshot was taken')
    b = got['big.html']
    tap.ok(b['allocRows'] == 1 and len(b['svgs']) == 1 and not b['errors'],
           '100,000 allocations: one aggregated row, one SVG, in Chromium',
           json.dumps(b)[:1000])


def case_bad_options():
    tdir = os.path.join(TMP, 'fire')
    r = subprocess.run([HIPGRAIN, 'report', '--format', 'pdf', tdir],
                       capture_output=True, text=True)
    tap.ok(r.returncode == 64 and r.stderr ==
           "hipgrain report: --format 'pdf': unknown value\n"
           "try 'hipgrain report --help'\n",
           'an unknown --format is a usage error, said in one line', r.stderr)
    for fmt in ('html', 'perfetto', 'sarif'):
        r = subprocess.run([HIPGRAIN, 'report', '--format', fmt,
                            '--inventory', tdir], capture_output=True,
                           text=True)
        tap.ok(r.returncode == 64 and '--inventory: only the text and json'
               in r.stderr and not r.stdout,
               f'--inventory with {fmt} is refused, not ignored', r.stderr)
    target = os.path.join(TMP, 'a-directory')
    os.mkdir(target)
    r = subprocess.run([HIPGRAIN, 'report', '--format', 'html', '-o', target, tdir],
                       capture_output=True, text=True)
    left = os.listdir(TMP)
    tap.ok(r.returncode == 1 and 'cannot write ' + target in r.stderr and
           not [n for n in left if n.startswith('a-directory.')],
           'an -o that cannot be written fails, leaving no temporary file',
           r.stderr + ' ' + str(left))
    out = os.path.join(TMP, 'none.html')
    r = subprocess.run([HIPGRAIN, 'report', '--format', 'html', '-o', out,
                        os.path.join(TMP, 'no-such-trace')],
                       capture_output=True, text=True)
    tap.ok(r.returncode == 1 and not os.path.exists(out),
           'a failed report leaves no file behind', r.stderr)
    r = subprocess.run([HIPGRAIN, 'scan', '--format', 'yaml', HIPGRAIN],
                       capture_output=True, text=True)
    tap.ok(r.returncode == 64, 'scan: an unknown --format is a usage error')
    junk, out = os.path.join(TMP, 'junk.co'), os.path.join(TMP, 'scan.sarif')
    with open(junk, 'w') as f:
        f.write('not a code object\n')
    r = subprocess.run([HIPGRAIN, 'scan', '--format', 'sarif', '-o', out, junk,
                        HIPGRAIN], capture_output=True, text=True)
    doc = json_of(out) if os.path.exists(out) else None
    errs = hgformats.check_sarif(doc, IDS) if doc else ['no file']
    tap.ok(r.returncode == 1 and not errs and not doc['runs'][0]['results'] and
           doc['runs'][0]['invocations'][0]['executionSuccessful'] is False,
           'scan: an unreadable input still gives a valid SARIF log, marked '
           'unsuccessful, and exit 1', r.stderr + '\n'.join(errs))


IDS = hgformats.hazard_ids(SRC)
why = hgformats.missing_tools()
if why:
    print('1..0 # SKIP ' + why)
    sys.exit(0)
try:
    pages = [case_fire(), case_hostile(), case_ranks(), case_big()]
    check_pages(*pages)
    case_bad_options()
    case_migrate()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(tap.done())
