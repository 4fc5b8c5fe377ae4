#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rule cases: a script (or, later, a program) in, expected findings out.

usage: run_cases.py HIPGRAIN TRACEGEN CASE...

Each CASE is a tracegen script whose `#!` lines say what the report must
hold:
  #! expect RULE [severity=S] [count=N]   RULE is reported (as S, N times)
  #! absent RULE                          RULE is not reported
  #! says RULE TEXT...                    RULE's message holds TEXT
  #! fix RULE TEXT...                     RULE's fix holds TEXT (JSON, text)
  #! nofix RULE TEXT...                   no fix of RULE holds TEXT
  #! at RULE TEXT...                      the call RULE's finding is about
                                          (the wrong free, the prefetch)
                                          holds TEXT: JSON's `call`, the
                                          text's `call:` line and SARIF's
                                          primary location
  #! related RULE TEXT...                 a related location holds TEXT:
                                          SARIF's relatedLocations, and
                                          JSON's `allocation` or `freed_by`
  #! atomics RULE OP@LINE...              RULE's atomics at risk are these,
                                          each at its own line, and no
                                          other: JSON's `atomics` and
                                          SARIF's related locations
  #! driver RULE [gpu=N] TEXT...          the text's `driver:` line of RULE
                                          holds TEXT, and JSON's allocation
                                          driver has gpu N (or none: -)
  #! ended - exit=N | signal=N core=0|1   the traced process ended so, as
                                          `hipgrain run` records it
  #! failon - sev=S status=N              `--fail-on S` exits N (3: a
                                          verdict was withheld)
  #! header - TEXT...                     the text report's first lines
                                          (before the first rule) hold TEXT
  #! noheader - TEXT...                   and do not hold TEXT
  #! process - KEY=VALUE...               the JSON's processes[0] has them
  #! observed RULE dropped=N | TEXT...     RULE's finding was seen on the
                                          virtual GPU: N lanes dropped, or
                                          its observed text holds TEXT
  #! launches - KEY=VALUE...              the JSON's virtual_gpu_launches
  #! note - TEXT...                       a note on the trace holds TEXT
                                          (JSON's warnings, and the text)
  #! traffic SYMBOL api=API|- read=N written=M [beyond=1]
                                          `--inventory` says kernel SYMBOL
                                          read N and wrote M bytes in the
                                          block from API (-: memory no
                                          allocation holds), in JSON and
                                          the text; the JSON has no row
                                          the case does not list
  #! traffic - read=N written=M           and that much it kept in no row
The script is traced in a real LTTng session, then `hipgrain report
--format json` is checked against them; fire cases also check the text
report and `--fail-on`.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from lttng_session import Tracing  # noqa: E402


def expectations(path):
    out = []
    with open(path) as f:
        for line in f:
            if not line.startswith('#!'):
                continue
            words = line[2:].split()
            if words[0] == 'observed' and '=' not in words[-1]:
                out.append(('observed', words[1], {'text': ' '.join(words[2:])}))
                continue
            if words[0] == 'driver':
                gpu = words[2].split('=', 1)[1] if words[2].startswith(
                    'gpu=') else None
                out.append(('driver', words[1], {
                    'gpu': gpu, 'text': ' '.join(words[3 if gpu else 2:])}))
                continue
            if words[0] in ('says', 'fix', 'nofix', 'header', 'noheader',
                            'note', 'at', 'related', 'atomics'):
                out.append((words[0], words[1], {'text': ' '.join(words[2:])}))
                continue
            opts = dict(w.split('=', 1) for w in words[2:])
            out.append((words[0], words[1], opts))
    return out


def trace(tracegen, script, outdir):
    """False when the script needs what this machine lacks (a second CPU)."""
    with Tracing(outdir) as t:
        r = t.run([tracegen, script])
    if r.returncode == 77:
        return False
    if r.returncode != 0:
        raise AssertionError('tracegen failed on %s: %s' % (script, r.stderr))
    return True


def record_end(hipgrain, tdir, case):
    """Writes what `hipgrain run` would have, for the trace's process."""
    for verb, _, opts in expectations(case):
        if verb != 'ended':
            continue
        doc = json.loads(report(hipgrain, tdir, '--format', 'json').stdout)
        pid = doc['processes'][0]['vpid']
        how = ('exit=%s' % opts['exit'] if 'exit' in opts else
               'signal=%s core=%s' % (opts['signal'], opts.get('core', 0)))
        with open(os.path.join(tdir, 'hipgrain-run.status'), 'w') as f:
            f.write('pid=%d %s\n' % (pid, how))


def report(hipgrain, tdir, *extra):
    return subprocess.run([hipgrain, 'report'] + list(extra) + [tdir],
                          capture_output=True, text=True,
                          env=dict(os.environ, NO_COLOR='1'))


def fixes(f):
    return [x for x in (f.get('fix'), f.get('fix_at')) if x]


def check_fix(hipgrain, tdir, verb, rule, text, found):
    """The fix a user reads, in JSON and in the text report's block of
    RULE, holds TEXT (fix) or does not (nofix)."""
    out = report(hipgrain, tdir).stdout
    block = out.split('[%s]' % rule, 1)[1].split('\n\n', 1)[0] \
        if '[%s]' % rule in out else ''
    text_fixes = [ln for ln in block.splitlines()
                  if ln.strip().startswith('fix')]
    in_json = any(text in x for f in found for x in fixes(f))
    in_text = any(text in ln for ln in text_fixes)
    if verb == 'fix' and not (found and in_json and in_text):
        return ['%s: no fix says "%s" (json %s, text %s)' % (
            rule, text, [fixes(f) for f in found], text_fixes)]
    if verb == 'nofix' and (in_json or in_text):
        return ['%s: a fix says "%s" (json %s, text %s)' % (
            rule, text, [fixes(f) for f in found], text_fixes)]
    return []


def frame_text(fr):
    """A JSON frame as the text report writes a site: file:line (function)."""
    if not fr:
        return ''
    return '%s:%s (%s)' % (os.path.basename(fr.get('file') or ''),
                           fr.get('line'), fr.get('function'))


def sarif_place(loc):
    phys = loc.get('physicalLocation', {})
    names = [x.get('name', '') for x in loc.get('logicalLocations', [])]
    return '%s:%s (%s) %s' % (phys.get('artifactLocation', {}).get('uri', ''),
                            phys.get('region', {}).get('startLine', ''),
                            ' '.join(names),
                            loc.get('message', {}).get('text', ''))


def check_place(hipgrain, tdir, verb, rule, text, found):
    """Where a finding is: its call (at) or its related places (related),
    in JSON, the text report (at) and SARIF."""
    sarif = json.loads(report(hipgrain, tdir, '--format', 'sarif').stdout)
    results = [r for run in sarif['runs'] for r in run['results']
               if r['ruleId'] == rule]
    out = report(hipgrain, tdir).stdout
    block = out.split('[%s]' % rule, 1)[1] if '[%s]' % rule in out else ''
    lines = [ln.strip() for ln in block.split('\n\n', 1)[0].splitlines()]
    if verb == 'at':
        # The call, else (a launch has no call site) the free before it.
        in_json = [frame_text(((f.get('call') or {}).get('site')) or
                              (f.get('freed_by') or {}).get('site'))
                   for f in found]
        in_text = [ln for ln in lines
                   if ln.startswith(('call:', 'freed:'))][:1]
        in_sarif = [sarif_place(r['locations'][0]) for r in results
                    if r.get('locations')]
    else:
        in_json = [frame_text((f.get(k) or {}).get('site'))
                   for f in found for k in ('allocation', 'freed_by')]
        in_text = [ln for ln in lines
                   if ln.startswith(('allocation:', 'freed:'))]
        in_sarif = [sarif_place(x) for r in results
                    for x in r.get('relatedLocations', [])]
    places = {'json': in_json, 'text': in_text, 'sarif': in_sarif}
    return ['%s: %s %s does not hold "%s": %s' % (rule, verb, k, text, v)
            for k, v in places.items() if not any(text in x for x in v)]


def check_atomics(hipgrain, tdir, rule, text, found):
    """RULE's atomics at risk, each "op@file:line", in JSON and SARIF: the
    ones the case lists, in its order, and never a safe one's line."""
    want = text.split()
    in_json = [[(a['op'] or '') + '@' + a['at'] for a in f.get('atomics', [])]
               for f in found]
    sarif = json.loads(report(hipgrain, tdir, '--format', 'sarif').stdout)
    in_sarif = []
    for r in sarif['runs'][0]['results']:
        if r['ruleId'] != rule:
            continue
        got = []
        for x in r.get('relatedLocations', []):
            what = x.get('message', {}).get('text', '')
            if not what.startswith('the atomic'):
                continue
            phys = x['physicalLocation']
            op = what[len('the atomic ('):-1] if '(' in what else ''
            got.append('%s@%s:%d' % (op, phys['artifactLocation']['uri'],
                                     phys['region']['startLine']))
        in_sarif.append(got)
    return ['%s: %s atomics %s, expected %s' % (rule, k, v, want)
            for k, v in (('json', in_json), ('sarif', in_sarif))
            if not v or any(x != want for x in v)]


def check_observed(hipgrain, tdir, rule, opts, found):
    """RULE's finding carries what the virtual GPU saw, in JSON, SARIF
    and the text report's block of RULE alike."""
    seen = [f.get('observed') for f in found if f.get('observed')]
    errors = []
    if 'dropped' in opts:
        if sum(o['dropped'] for o in seen) != int(opts['dropped']):
            errors.append('%s: observed %s, expected dropped=%s' % (
                rule, seen, opts['dropped']))
    elif not any(opts['text'] in o['text'] for o in seen):
        errors.append('%s: observed %s does not say "%s"' % (
            rule, seen, opts['text']))
    sarif = json.loads(report(hipgrain, tdir, '--format', 'sarif').stdout)
    props = [r['properties'] for r in sarif['runs'][0]['results']
             if r['ruleId'] == rule]
    if seen and not any(p.get('observed') == seen[0]['text'] for p in props):
        errors.append('%s: SARIF does not carry "%s"' % (rule, seen[0]['text']))
    out = report(hipgrain, tdir).stdout
    block = out.split('[%s]' % rule, 1)[1].split('\n\n', 1)[0] \
        if '[%s]' % rule in out else ''
    if seen and 'observed: ' + seen[0]['text'] not in block:
        errors.append('%s: the text report does not say "%s"' % (
            rule, seen[0]['text']))
    return errors


def traffic_rows(inv):
    """The inventory's traffic as (symbol, api or '-', read, written,
    beyond) rows."""
    rows = []
    for place in inv.get('traffic', []):
        api = (place.get('allocation') or {}).get('api', '-')
        rows += [(k['symbol'], api, k['read'], k['written'], k['beyond'])
                 for k in place['kernels']]
    return rows


def check_traffic(hipgrain, tdir, case):
    """Every `traffic` row of the case, and no other, in the inventory."""
    want, unlisted = [], None
    for verb, sym, opts in expectations(case):
        if verb != 'traffic':
            continue
        if sym == '-':
            unlisted = {'read': int(opts['read']), 'written': int(opts['written'])}
            continue
        want.append((sym, opts['api'], int(opts['read']), int(opts['written']),
                     opts.get('beyond') == '1'))
    if not want and unlisted is None:
        return []
    inv = json.loads(report(hipgrain, tdir, '--inventory', '--format',
                            'json').stdout).get('inventory', {})
    got, errors = traffic_rows(inv), []
    if sorted(got) != sorted(want):
        errors.append('inventory traffic %s, expected %s' % (got, want))
    if unlisted is not None and inv.get('traffic_unlisted') != unlisted:
        errors.append('traffic_unlisted %s, expected %s' % (
            inv.get('traffic_unlisted'), unlisted))
    text = report(hipgrain, tdir, '--inventory').stdout
    for _, _, rd, wr, _ in want:
        if '(%d and %d bytes)' % (rd, wr) not in text:
            errors.append('the text inventory does not say (%d and %d bytes)'
                          % (rd, wr))
    return errors


def check_driver(hipgrain, tdir, rule, opts, found):
    """What RULE's allocation says of the driver: its GPU, as the user
    counts them, in the text; the index in JSON."""
    out = report(hipgrain, tdir).stdout
    block = out.split('[%s]' % rule, 1)[1].split('\n\n', 1)[0] \
        if '[%s]' % rule in out else ''
    lines = [ln.strip() for ln in block.splitlines()
             if ln.strip().startswith('driver:')]
    errors = []
    if not any(opts['text'] in ln for ln in lines):
        errors.append('%s: no driver line says "%s": %s' % (
            rule, opts['text'], lines))
    gpus = [((f.get('allocation') or {}).get('driver') or {}).get('gpu')
            for f in found]
    want = None if opts['gpu'] in (None, '-') else int(opts['gpu'])
    if opts['gpu'] is not None and want not in gpus:
        errors.append('%s: JSON driver gpu %s, not %s' % (rule, gpus, want))
    return errors


def check_case(hipgrain, tracegen, case):
    errors = []
    with tempfile.TemporaryDirectory(prefix='hgcase-') as tmp:
        tdir = os.path.join(tmp, 'trace')
        if not trace(tracegen, case, tdir):
            return None
        record_end(hipgrain, tdir, case)
        r = report(hipgrain, tdir, '--format', 'json')
        if r.returncode != 0:
            return ['report failed (%d): %s' % (r.returncode, r.stderr)]
        doc = json.loads(r.stdout)
        by_rule = {}
        for f in doc['findings']:
            by_rule.setdefault(f['rule'], []).append(f)
        errors += check_traffic(hipgrain, tdir, case)
        for verb, rule, opts in expectations(case):
            found = by_rule.get(rule, [])
            if verb == 'absent' and found:
                errors.append('%s reported: %s' % (rule, found[0]['message']))
            if verb == 'says' and not any(opts['text'] in (f['message'] or '')
                                          for f in found):
                errors.append('%s does not say "%s": %s' % (
                    rule, opts['text'], [f['message'] for f in found]))
            if verb == 'failon':
                rc = report(hipgrain, tdir, '--fail-on', opts['sev']).returncode
                if rc != int(opts['status']):
                    errors.append('--fail-on %s exited %d, not %s' % (
                        opts['sev'], rc, opts['status']))
            if verb in ('header', 'noheader'):
                head = report(hipgrain, tdir).stdout.split('\n\n', 1)[0]
                if (opts['text'] in head) != (verb == 'header'):
                    errors.append('the header %s "%s": %s' % (
                        'does not say' if verb == 'header' else 'says',
                        opts['text'], head))
            if verb == 'process':
                got = doc.get('processes', [{}])[0]
                for k, v in opts.items():
                    if json.dumps(got.get(k)).strip('"') != v:
                        errors.append('processes[0].%s is %s, not %s' % (
                            k, json.dumps(got.get(k)), v))
            if verb == 'observed':
                errors += check_observed(hipgrain, tdir, rule, opts, found)
            if verb == 'driver':
                errors += check_driver(hipgrain, tdir, rule, opts, found)
            if verb == 'atomics':
                errors += check_atomics(hipgrain, tdir, rule, opts['text'],
                                        found)
            if verb in ('at', 'related'):
                errors += check_place(hipgrain, tdir, verb, rule,
                                      opts['text'], found)
            if verb == 'note':
                tail = report(hipgrain, tdir).stdout.split(
                    'notes on the trace:', 1)[-1]
                if not any(opts['text'] in w for w in doc['warnings']) or \
                        opts['text'] not in tail:
                    errors.append('no note says "%s": %s' % (
                        opts['text'], doc['warnings']))
            if verb == 'launches':
                got = doc['summary'].get('virtual_gpu_launches', {})
                for k, v in opts.items():
                    if str(got.get(k)) != v:
                        errors.append('virtual_gpu_launches.%s is %s, not %s'
                                      % (k, got.get(k), v))
            if verb in ('fix', 'nofix'):
                errors += check_fix(hipgrain, tdir, verb, rule, opts['text'],
                                    found)
            if verb != 'expect':
                continue
            if not found:
                errors.append('%s not reported (got %s)' %
                              (rule, sorted(by_rule) or 'nothing'))
                continue
            count = sum(f['count'] for f in found)
            if 'count' in opts and count != int(opts['count']):
                errors.append('%s: count %d, expected %s' %
                              (rule, count, opts['count']))
            sev = opts.get('severity')
            if sev and any(f['severity'] != sev for f in found):
                errors.append('%s: severity %s, expected %s' %
                              (rule, found[0]['severity'], sev))
            if not found[0]['message'] or not found[0]['fix']:
                errors.append('%s: no message or fix' % rule)
            text = report(hipgrain, tdir)
            if '[%s]' % rule not in text.stdout:
                errors.append('%s missing from the text report' % rule)
            if sev:
                rc = report(hipgrain, tdir, '--fail-on', sev).returncode
                if rc != 2:
                    errors.append('--fail-on %s exited %d, not 2' % (sev, rc))
    return errors


def main():
    hipgrain, tracegen, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    print('1..%d' % len(cases))
    for i, case in enumerate(cases, 1):
        errs = check_case(hipgrain, tracegen, case)
        name = os.path.basename(case)
        if errs is None:
            print('ok %d - %s # SKIP this machine has one CPU' % (i, name))
            continue
        print('%s %d - %s' % ('not ok' if errs else 'ok', i, name))
        for e in errs:
            print('#   ' + e)
        failed += bool(errs)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
