#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages say what the tree does: every page, rendered, keeps every
word of its source (scdoc reads some characters as markup: "C++" at a line's
end is a line break); every repository file a page names exists; every
field `hipgrain report --format json` writes is in hipgrain-report(1); the
schema number hipgrain-events(7) gives is the one traces carry.

usage: test_pages.py HIPGRAIN TRACEGEN SRCDIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from lttng_session import Tracing  # noqa: E402

HG, TRACEGEN, SRC = sys.argv[1:4]
MAN = os.path.join(SRC, 'man')
failures = []


def check(cond, what, detail=''):
    print(('ok    ' if cond else 'FAIL  ') + what)
    if not cond:
        failures.append(what)
        for line in str(detail).splitlines()[:20]:
            print('      ' + line)


def render(path):
    roff = subprocess.run(['scdoc'], stdin=open(path), capture_output=True,
                          text=True, check=True).stdout
    # No hyphenation, lines wide enough that no word is cut.
    return subprocess.run(['groff', '-man', '-Tutf8', '-rHY=0', '-rLL=2000n',
                           '-P-cbou'], input=roff, capture_output=True,
                          text=True, check=True).stdout


def source_words(text):
    """Words of the page as a reader sees them: scdoc's markup and escapes
    taken out, code blocks and tables' bars left aside."""
    text = re.sub(r'^```.*?^```', '', text, flags=re.M | re.S)
    text = text.replace('\\', '')
    return set(re.findall(r'[A-Za-z][A-Za-z0-9]*(?:\+\+(?![ \t]*$))?', text,
                          re.M))


pages = sorted(p for p in os.listdir(MAN) if p.endswith('.scd'))
for page in pages:
    src = open(os.path.join(MAN, page)).read()
    out = render(os.path.join(MAN, page))
    flat = out.replace('\u2010', '-').replace('\u2212', '-')
    lost = sorted(w for w in source_words(src) if w not in flat)
    check(not lost, f'{page}: every word of the source is in the page', lost)

# Repository files a page names: a path with a folder of the tree.
tops = {d for d in os.listdir(SRC) if os.path.isdir(os.path.join(SRC, d))
        and not d.startswith(('.', 'build'))}
for page in pages:
    src = open(os.path.join(MAN, page)).read().replace('\\', '')
    named = set(re.findall(r'(?<![\w/.$~-])((?:%s)/[\w./-]*\w)' %
                           '|'.join(map(re.escape, sorted(tops))), src))
    named |= set(re.findall(r'\b((?:DESIGN|README|STYLE)(?:\.md)?)\b', src))
    missing = sorted(n for n in named
                     if not os.path.exists(os.path.join(SRC, n)))
    check(not missing, f'{page}: every file of the tree it names exists',
          missing)

# Every key of the JSON report, and of scan's, is in its page.
report_page = open(os.path.join(MAN, 'hipgrain-report.1.scd')).read()


def keys(doc, out):
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.add(k)
            keys(v, out)
    elif isinstance(doc, list):
        for v in doc:
            keys(v, out)
    return out


with tempfile.TemporaryDirectory(prefix='hgpages-') as tmp:
    seen = set()
    for case in ('fp_atomic_driver_fine.fire', 'leak.fire',
                 'observed_traffic.fire'):
        tdir = os.path.join(tmp, case)
        with Tracing(tdir) as t:
            t.run([TRACEGEN, os.path.join(SRC, 'tests', 'analyzer', 'cases',
                                          case + '.tg')])
        p = subprocess.run([HG, 'report', '--format', 'json', '--inventory',
                            tdir], capture_output=True, text=True)
        keys(json.loads(p.stdout), seen)
    # SARIF carries hipgrain-hazards(7)'s words: whole sentences, and
    # sources by their public names.
    p = subprocess.run([HG, 'report', '--format', 'sarif', tdir],
                       capture_output=True, text=True)
    rules = json.loads(p.stdout)['runs'][0]['tool']['driver']['rules']
    texts = [(r['id'], k, r[k]['text']) for r in rules
             for k in ('fullDescription', 'help') if k in r]
    bad = [(i, k, t[-60:]) for i, k, t in texts
           if re.search(r'seed \d', t) or
           t.rstrip().rstrip(')').endswith((':', ','))]
    check(texts and not bad, 'SARIF rule texts are whole sentences and '
          'name no seed', bad)
    undocumented = sorted(k for k in seen if f'"{k}"' not in report_page)
    check(seen and not undocumented,
          'every field of the JSON report is in hipgrain-report(1)',
          undocumented)

# The schema the events page gives is the one traces carry.
events = open(os.path.join(MAN, 'hipgrain-events.7.scd')).read()
said = re.findall(r'this hipgrain writes schema (\d+)', events)
want = re.search(r'#define HG_TRACE_SCHEMA (\d+)',
                 open(os.path.join(SRC, 'common', 'hg_events.h')).read())
check(said and want and set(said) == {want.group(1)},
      f'hipgrain-events(7) gives the schema traces carry ({want and want.group(1)})',
      said)

if failures:
    sys.exit(1)
