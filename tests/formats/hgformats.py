# SPDX-License-Identifier: MIT
"""Checks of what `hipgrain report --format html|perfetto|sarif` and
`hipgrain scan --format sarif` write, shared by tests/formats and bench/html.

SARIF is validated against the SARIF 2.1.0 schema (the copy @microsoft/
jest-sarif ships, installed by scripts/bootstrap.sh from package-lock.json);
the Perfetto trace against trace_event.schema.json plus what a schema cannot
say (every async begin has its end, names its process); HTML in Debian's
Chromium through browser_check.js.
"""
import json
import os
import shutil
import subprocess

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
MODULES = os.path.join(HERE, 'node_modules')
SARIF_SCHEMA = os.path.join(MODULES, '@microsoft', 'jest-sarif', 'lib',
                            'schemas', 'sarif-2.1.0-rtm.5.json')
CHROMIUM = os.environ.get('HIPGRAIN_CHROMIUM', '/usr/bin/chromium')


def missing_tools():
    """Why the browser and schema checks cannot run here, or None."""
    if not shutil.which('node'):
        return 'node is not installed (scripts/bootstrap.sh installs nodejs)'
    if not os.path.exists(CHROMIUM):
        return CHROMIUM + ' is not installed (scripts/bootstrap.sh installs chromium)'
    if not os.path.exists(SARIF_SCHEMA) or \
            not os.path.isdir(os.path.join(MODULES, 'playwright-core')):
        return 'tests/formats/node_modules is missing (run scripts/bootstrap.sh: npm ci)'
    return None


_validators = {}


def _validator(path, cls):
    if path not in _validators:
        _validators[path] = cls(json.load(open(path)))
    return _validators[path]


def check_sarif(doc, hazard_ids):
    """Errors in a SARIF log: schema, then rules and results agreeing."""
    v = _validator(SARIF_SCHEMA, jsonschema.Draft4Validator)
    errs = ['schema: %s at %s' % (e.message[:200], list(e.absolute_path))
            for e in v.iter_errors(doc)]
    if errs:
        return errs[:10]
    run = doc['runs'][0]
    rules = run['tool']['driver']['rules']
    ids = [r['id'] for r in rules]
    errs += ['rule %s is not a hazard id' % i for i in ids if i not in hazard_ids]
    for r in rules:
        if 'Fix:' not in r['help']['text']:
            errs.append('rule %s: help has no fix' % r['id'])
    for res in run['results']:
        if ids[res['ruleIndex']] != res['ruleId']:
            errs.append('result %s: ruleIndex points elsewhere' % res['ruleId'])
    return errs


def check_perfetto(doc):
    """Errors in a trace-event document, and a summary of what it holds."""
    v = _validator(os.path.join(HERE, 'trace_event.schema.json'),
                   jsonschema.Draft7Validator)
    errs = ['schema: %s at %s' % (e.message[:200], list(e.absolute_path))
            for e in v.iter_errors(doc)][:10]
    if errs:
        return errs, {}
    ev = doc['traceEvents']
    named = {e['pid'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
    used = {e['pid'] for e in ev if e['ph'] != 'M'}
    errs += ['pid %d has no process_name' % p for p in used - named]
    open_ = {}
    for e in ev:
        key = (e['pid'], e.get('cat'), e.get('id2', {}).get('local'), e.get('name'))
        if e['ph'] == 'b':
            open_[key] = open_.get(key, 0) + 1
        elif e['ph'] == 'e':
            if not open_.get(key):
                errs.append('end without begin: %s' % (key,))
            else:
                open_[key] -= 1
    errs += ['begin without end: %s' % (k,) for k, n in open_.items() if n]
    summary = {
        'processes': {e['args']['name'] for e in ev
                      if e['ph'] == 'M' and e['name'] == 'process_name'},
        'findings': [e['name'] for e in ev if e['ph'] == 'i'],
        'launches': [e for e in ev if e['ph'] == 'X' and e['cat'] == 'launch'],
        'allocs': sum(1 for e in ev if e['ph'] == 'b'),
        'counters': sum(1 for e in ev if e['ph'] == 'C'),
    }
    return errs, summary


def browse(pages):
    """browser_check.js over [(html, screenshot or None)]: a dict per page."""
    args = [p + ('=' + s if s else '') for p, s in pages]
    r = subprocess.run(['node', os.path.join(HERE, 'browser_check.js')] + args,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError('browser_check.js failed: ' + r.stderr[-2000:])
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def hazard_ids(hipgrain_src):
    """The rule ids hipgrain-hazards(7) documents."""
    page = open(os.path.join(hipgrain_src, 'man', 'hipgrain-hazards.7.scd')).read()
    return {line[3:].split(' ')[0] for line in page.splitlines()
            if line.startswith('## ')}
