#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every kernels/ program and variant (kernels/variants.tsv), traced by
`hipgrain run` against the test double, reported as html, perfetto and
sarif, each validated: SARIF against its schema with the variant's rules as
results, the trace-event JSON against its schema with the same rules as
instants, and every page in headless Chromium with the same findings and the
same series as the Perfetto counters.  Then `hipgrain scan --format sarif`
on each program.

usage: test_kernels.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR VARIANTS_TSV SRCDIR
"""
import concurrent.futures
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, HERE)
import hgrun  # noqa: E402
import hgformats  # noqa: E402

HIPGRAIN, KDIR, FAKEHIP, TABLE, SRC = sys.argv[1:6]
TMP = tempfile.mkdtemp(prefix='hgfmtk-')
atexit.register(shutil.rmtree, TMP, True)  # on every way out
IDS = hgformats.hazard_ids(SRC)
tap = hgrun.Tap()


def rows():
    for prog, args, xnack, rules, *_ in hgrun.variants(TABLE):
        yield prog, args, xnack, rules


def formats(i, row):
    """Traces one variant and writes its three reports; returns their paths."""
    prog, args, xnack, _ = row
    env = hgrun.fake_env(FAKEHIP, None if xnack in ('0', '*') else xnack)
    t = hgrun.run(HIPGRAIN, [os.path.join(KDIR, prog)] + args, env=env)
    out, errs = {}, []
    try:
        for fmt in ('html', 'perfetto', 'sarif'):
            out[fmt] = os.path.join(TMP, '%02d-%s.%s' % (i, prog, fmt))
            r = subprocess.run([HIPGRAIN, 'report', '--format', fmt, '-o',
                                out[fmt], t.trace], capture_output=True, text=True)
            if r.returncode:
                errs.append('%s: %s' % (fmt, r.stderr))
    finally:
        t.close()
    return row, out, errs


def counter_series(doc):
    return {k for e in doc['traceEvents'] if e['ph'] == 'C' for k in e['args']}


def check_variant(name, want, out):
    sarif = json.load(open(out['sarif']))
    errs = hgformats.check_sarif(sarif, IDS)
    res = sarif['runs'][0]['results']
    got = {r['ruleId'] for r in res}
    tap.ok(not errs and got == want, '%s: SARIF valid, results %s' %
           (name, sorted(want) or 'none'), '\n'.join(errs) + ' got %s' % sorted(got))
    bad, on_disk = [], False
    for r in res:
        for loc in r['locations']:
            pl = loc.get('physicalLocation')
            if not pl:
                continue
            uri = pl['artifactLocation']['uri']
            if not uri or pl['region']['startLine'] < 1:
                bad.append(pl)
            on_disk |= uri.startswith('file://') and os.path.isfile(
                urllib.parse.unquote(uri[7:]))
    tap.ok(not bad, '%s: SARIF locations name a file and a line' % name, bad)
    doc = json.load(open(out['perfetto']))
    errs, pf = hgformats.check_perfetto(doc)
    tap.ok(not errs and set(pf['findings']) == want,
           '%s: Perfetto valid, findings %s' % (name, sorted(want) or 'none'),
           '\n'.join(errs) + ' got %s' % pf.get('findings'))
    return counter_series(doc), on_disk


def check_pages(pages):
    got = hgformats.browse([(p, None) for _, _, p, _ in pages])
    for (name, want, _, (series, on_disk)), f in zip(pages, got):
        rules = {x['rule'] for x in f['findings']}
        shown = {s['name'] for svg in f['svgs'] for s in svg['series']}
        tap.ok(rules == want and not f['errors'] and f['scripts'] == 1 and
               (f['sources'] > 0) == on_disk,
               '%s: Chromium shows the findings%s' %
               (name, ', with their source lines' if on_disk else ''),
               'got %s, errors %s, sources %d' % (sorted(rules), f['errors'],
                                                  f['sources']))
        tap.ok(shown == series and f['allocRows'] >= (1 if series else 0),
               '%s: the placement SVG draws the series Perfetto counts' % name,
               'svg %s, perfetto %s' % (sorted(shown), sorted(series)))


def check_scan():
    for prog in sorted({r[0] for r in rows()} - set(hgrun.not_built())):
        out = os.path.join(TMP, prog + '.scan.sarif')
        r = subprocess.run([HIPGRAIN, 'scan', '--format', 'sarif', '-o', out,
                            os.path.join(KDIR, prog)], capture_output=True, text=True)
        doc = json.load(open(out)) if r.returncode == 0 else {}
        errs = hgformats.check_sarif(doc, IDS) if doc else [r.stderr]
        fp = any(x['ruleId'] == 'fp-atomic-fine-grain' and x['level'] == 'warning'
                 for x in doc['runs'][0]['results']) if doc else None
        # The JSON scan lists each kernel's atomics: a gfx908/gfx90a kernel
        # with hardware FP atomics must be a SARIF warning, and only then.
        js = json.loads(subprocess.run(
            [HIPGRAIN, 'scan', '--format', 'json', os.path.join(KDIR, prog)],
            capture_output=True, text=True).stdout or '{"files":[]}')
        want = any(k['hw_fp_atomics'] and k['target'].split(':')[0] in
                   ('gfx908', 'gfx90a') for f in js['files']
                   for co in f['code_objects'] for k in co['kernels'])
        tap.ok(not errs and fp == want, 'scan %s: SARIF valid, %s' %
               (prog, 'hardware FP atomics reported' if want else 'no FP atomics'),
               '\n'.join(errs))


why = hgformats.missing_tools()
if why:
    print('1..0 # SKIP ' + why)
    sys.exit(0)
# What this build could not make, or this release cannot run without a
# GPU, is skipped with the reason; what the compiler decides is followed.
table = list(rows())
missing = hgrun.not_built()
todo = []
for prog, args, xnack, want in table:
    name = '%s %s (HSA_XNACK=%s)' % (prog, ' '.join(args) or '-', xnack)
    why = ('%s not built: %s' % (prog, missing[prog]) if prog in missing
           else hgrun.omp_no_gpu(KDIR, FAKEHIP, prog, args, xnack))
    if why:
        tap.skip(name, why)
        continue
    todo.append((prog, args, xnack, hgrun.omp_expected(
        HIPGRAIN, KDIR, table, prog, args, xnack, want)))
try:
    pages = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for row, out, errs in pool.map(lambda a: formats(*a), enumerate(todo)):
            prog, args, xnack, want = row
            name = '%s %s (HSA_XNACK=%s)' % (prog, ' '.join(args) or '-', xnack)
            if not tap.ok(not errs, name + ': three formats written', '\n'.join(errs)):
                continue
            series = check_variant(name, want, out)
            pages.append((name, want, out['html'], series))
    check_pages(pages)
    check_scan()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
sys.exit(tap.done())
