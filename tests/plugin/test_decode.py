#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""filter.hipgrain.decode, read through the real `babeltrace2` CLI.

usage: test_decode.py TRACEGEN PLUGIN_DIR EVENTS_PAGE SCRIPT FIXTURES
                      [HIPGRAIN KERNELS_DIR FAKEHIP_DIR]

- every event of hipgrain-events(7) that tracegen writes (SCRIPT), each
  documented field by name and value;
- the traces of every schema the analyzer reads (FIXTURES: schema 1 to 8,
  the hand-made forms of tests/hostile/ctfgen.py, schema 6's sizes,
  schema 7's 32-bit elements and schema 9's text too,
  and a kernels/ program traced by `hipgrain run` when given), every field
  equal to what tests/lib/hgtrace.py, the tests' own decoder, reads;
- names: api, memory class, granularity and status as enumerations whose
  labels are the man page's;
- damaged packed bytes, and text that is no record's: a
  `hipgrain:damaged` event each, and the CLI ends well.
"""
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'hostile'))
import bt2text  # noqa: E402
import ctfgen  # noqa: E402
import hgrun  # noqa: E402
import hgtrace  # noqa: E402
from lttng_session import Tracing  # noqa: E402

tracegen, plugin, page_path, script, fixtures = sys.argv[1:6]
page = open(page_path).read()
DECODE = ['filter.hipgrain.decode']
tap = hgrun.Tap()
ok = tap.ok


def decoded(trace):
    return bt2text.parse(bt2text.run(trace, plugin, DECODE)[1])


# ---- the documented fields of each event --------------------------------
LAUNCH = ['head', 'head_lost', 'api', 'handle', 'stream', 'grid', 'block', 'shmem', 'rc',
          'repeat', 'callsite', 'device', 'args']
ARG = ['index', 'value', 'arg_id', 'offset', 'arg_mem', 'arg_gran']
doc = {}
for m in re.finditer(r'^\|\s+(\w+(?:, \w+)*)\n:\s+(.*?)\n:', page, re.S | re.M):
    text = m.group(2)
    if text.startswith('text:'):
        fields = re.findall(r'\w+', text[5:].split('(')[0])
    elif text.startswith('reftext:'):
        fields = LAUNCH
    else:
        fields = re.findall(r'\w+', text)
    for ev in m.group(1).split(', '):
        doc[ev] = fields
ok(len(doc) > 30 and doc['alloc'][:3] == ['id', 'api', 'addr'],
   'hipgrain-events(7) read: %d events' % len(doc), doc)


def expected(line):
    """The event and its fields as a tracegen line gives them (strings;
    lists of numbers for the arrays)."""
    ev, *kv = line.split()
    d = {}
    for item in kv:
        k, v = item.split('=', 1)
        nums = re.fullmatch(r'-?\w+(,-?\w+)+', v) and k not in (
            'targets', 'fp_mnemonics', 'int_mnemonics')
        d[k] = [int(x, 0) for x in v.split(',')] if nums or k in (
            'frames', 'attrs') or k.startswith('arg_') else v
    return ev, d


def args_of(exp):
    keys = ['arg_index', 'arg_value', 'arg_id', 'arg_offset', 'arg_mem',
            'arg_gran']
    return [dict(zip(ARG, vals)) for vals in zip(*(exp[k] for k in keys))]


def same(got, want):
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(map(same, got, want))
    if isinstance(want, dict) and isinstance(got, dict):
        return all(same(got.get(k), v) for k, v in want.items())
    if isinstance(got, str):
        return got == str(want)
    if isinstance(want, str):
        try:
            want = int(want, 0)
        except ValueError:
            return False
    return isinstance(got, int) and isinstance(want, int) and (
        got == want or got == want & ((1 << 64) - 1))


with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, 'every')
    with Tracing(trace, statedump=False) as t:
        r = t.run([tracegen, script])
        ok(r.returncode == 0, 'tracegen wrote the script', r.stderr)
    events = [e for e in decoded(trace) if e['event'].startswith('hipgrain:')]
    seen = {}
    pos = 0
    for line in open(script):
        if not line.strip() or line.startswith('#'):
            continue
        ev, exp = expected(line)
        while pos < len(events) and events[pos]['event'] != 'hipgrain:' + ev:
            pos += 1
        got = events[pos] if pos < len(events) else {}
        pos += 1
        seen.setdefault(ev, got)
        fields = doc.get(ev) or []
        missing = [f for f in fields if f not in got]
        ok(got and not missing, '%s: every documented field, by name' % ev,
           missing or line)
        want = dict(exp)
        if ev == 'launch':
            want = {k: v for k, v in exp.items() if not k.startswith('arg_')}
            want['args'] = args_of(exp)
        if ev == 'free' and int(exp['id'], 0):
            want.update(addr=exp['addr'], size=exp['size'])
        wrong = {k: (got.get(k), v) for k, v in want.items()
                 if k in fields and not same(got.get(k), v)}
        ok(got and not wrong, '%s: every documented field the script set, by '
           'value' % ev, wrong)
    heads = [e for e in events if e['event'] == 'hipgrain:head']
    ok(heads and all(f in heads[0] for f in doc['head']) and
       heads[0]['handle'] == 0x3333 and heads[0]['shmem'] == 256,
       'head: every documented field', heads[:1])
    absent = [ev for ev, f in doc.items()
              if f is not None and ev not in seen and ev != 'head']
    ok(not absent, 'every event the page documents was checked', absent)
    launch = seen.get('launch', {})
    ok(launch.get('args') and launch['args'][0]['value'] == 0x7f0000000010,
       'launch: a resolved pointer\'s value is its block\'s address plus '
       'the offset', launch.get('args'))

    # ---- names -----------------------------------------------------------
    def section(title):
        body = page.split('# ' + title, 1)[1].split('\n# ', 1)[0]
        return {int(v): name for v, name in
                re.findall(r'(\d+) ([\w-]+)', body.split('\n\n')[1])}
    mems, grans = section('MEMORY CLASSES (mem)'), section('GRANULARITY (gran)')
    a = seen.get('alloc', {})
    lab = lambda v: getattr(v, 'labels', [None])[0]  # noqa: E731
    ok(lab(a.get('mem')) == mems.get(1) and lab(a.get('gran')) == grans.get(1),
       'alloc: mem and gran named as the man page names them',
       (lab(a.get('mem')), lab(a.get('gran')), mems, grans))
    ok(lab(a.get('api')) == 'hipMalloc' and lab(a.get('rc')) == 'hipSuccess',
       'alloc: api and rc named', a)
    c = seen.get('call', {})
    ok(lab(c.get('api')) == 'hipDeviceSynchronize',
       'call: a numeric api gets its name', c)
    ms = seen.get('memcpy', {})
    ok(lab(ms.get('dst_mem')) == mems.get(1) and
       lab(ms.get('src_mem')) == mems.get(4), 'memcpy: memory classes named',
       ms)
    ka = seen.get('kfd_alloc', {})
    ok('rc' in ka and lab(ka['rc']) is None,
       'kfd_alloc: a negative errno is not named as a HIP status', ka)

    # ---- every schema, against the tests' own decoder --------------------
    def compare(name, path):
        ref = [e for e in hgtrace.events(path, 'hipgrain:')]
        got = [e for e in decoded(path) if e['event'].startswith('hipgrain:')]
        bad = []
        if len(ref) != len(got):
            bad.append(('count', len(ref), len(got)))
        for r, g in zip(ref, got):
            if r['event'] != g['event']:
                bad.append((r['event'], g['event']))
                continue
            if r['event'] == 'hipgrain:launch' and 'arg_value' in r:
                r = dict(r)
                r['args'] = [dict(zip(ARG, v)) for v in zip(
                    r.pop('arg_index'), r.pop('arg_value'), r.pop('arg_id'),
                    r.pop('arg_offset'), r.pop('arg_mem'), r.pop('arg_gran'))]
                for x in r['args']:  # unknown to both: hgtrace's None, 0
                    x['value'] = x['value'] or 0
                if 'repeat' not in r:  # schema 1 had none
                    r['repeat'] = 0
            for k, v in r.items():
                # schema 1's launch callsite was always 0, and is no field
                # of a decoded launch
                if k.startswith('_') or k.endswith('_length') or \
                        k in ('event', 'pairs') or \
                        (r['event'] == 'hipgrain:launch' and k == 'callsite'):
                    continue
                if v is None:
                    v = 0
                if k not in g or not same(g[k], v):
                    bad.append((r['event'], k, v, g.get(k)))
        ok(ref and not bad, '%s: %d events, each field as hgtrace reads it'
           % (name, len(ref)), bad[:5])
        return got

    for s in sorted(os.listdir(fixtures)):
        for d, _, files in sorted(os.walk(os.path.join(fixtures, s))):
            if 'metadata' in files:
                compare('%s/%s' % (s, os.path.basename(os.path.dirname(
                    os.path.dirname(os.path.dirname(os.path.dirname(d)))))),
                    d)
    seeds = ctfgen.write(os.path.join(tmp, 'forms'), ctfgen.seed_events())
    raw = bt2text.parse(bt2text.run(seeds)[1])
    sized = {e['event'] for e in raw if re.search(r'\d$', e['event'])}
    got = compare('every form, schemas 1 to 10', seeds)
    ok(len(sized) == 3 and not any(re.search(r'\d$', e['event']) for e in got),
       'the sizes (%s) come out as the events they are' % ', '.join(
           sorted(sized)), [e['event'] for e in got])
    ok(len([e for e in got if e['event'] == 'hipgrain:launch']) == 11,
       'every launch form decoded', [e['event'] for e in got])
    ok([lab(e.get('kind')) for e in got
        if e['event'] == 'hipgrain:memcpy'] == ['hipMemcpyHostToDevice'] and
       [e.get('value') for e in got if e['event'] == 'hipgrain:memset'] ==
       [255], 'schema 10: a memcpy and a memset decoded from their text, '
       'codes named', [e for e in got if 'mem' in e['event']])

    # ---- a kernels/ program ----------------------------------------------
    if len(sys.argv) > 8:
        hipgrain, kdir, fakehip = sys.argv[6:9]
        t = hgrun.run(hipgrain, [os.path.join(kdir, 'arraysum_unsafe'),
                                 'hostmalloc'],
                      env=hgrun.fake_env(fakehip, None))
        got = compare('kernels/arraysum_unsafe under hipgrain run', t.trace)
        raw = bt2text.parse(bt2text.run(t.trace)[1])
        packed = [e for e in raw if re.fullmatch(
            r'hipgrain:(alloc|free|launch|memcpy)\d*', e['event'])]
        ok(packed and all(isinstance(e.get('text', e.get('reftext')), str)
                          for e in packed) and
           'hipgrain:memcpy' in {e['event'] for e in packed},
           'the run wrote its allocs, frees, launches and copies as text, '
           'no sized events', sorted({e['event'] for e in packed}))
        t.close()

    # ---- a block freed before its launch was written -----------------------
    # A thread writes its launches' repeat count when the batch ends; another
    # thread may have freed a block an argument points into by then.
    late = ctfgen.write(os.path.join(tmp, 'late'), [
        ctfgen.alloc_pack(3, 0x7f6000000000, 4096),
        ctfgen.head(6),
        ctfgen.free_pack(3, 0x7f6000000000, 4096),
        ctfgen.packed(14, ctfgen.launch_ref(6, [0, 3, 64, 1 << 16 | 1 << 24],
                                            repeat=5))])
    evs = [e for e in decoded(late) if e['event'] == 'hipgrain:launch']
    ok(len(evs) == 1 and evs[0]['repeat'] == 5 and
       [a['value'] for a in evs[0]['args']] == [0x7f6000000040],
       'launch written after its block\'s free: the pointer\'s value is '
       'still the block\'s address plus the offset', evs)

    # ---- a launch whose head was lost --------------------------------------
    lost = ctfgen.write(os.path.join(tmp, 'headless'), [
        ctfgen.alloc_pack(4, 0x7f7000000000, 4096),
        ctfgen.head(2, handle=0x2222, grid=(8, 1, 1)),
        ctfgen.packed(14, ctfgen.launch_ref(2, [0, 4, 0, 1 << 16 | 1 << 24])),
        ctfgen.packed(14, ctfgen.launch_ref(9, [0, 4, 8, 1 << 16 | 1 << 24]))])
    evs = [e for e in decoded(lost) if e['event'] == 'hipgrain:launch']
    ok(len(evs) == 2 and evs[0].get('head_lost') == 0 and
       evs[0]['handle'] == 0x2222 and evs[0]['grid'] == [8, 1, 1] and
       evs[1].get('head_lost') == 1 and evs[1]['head'] == 9 and
       [a['value'] for a in evs[1]['args']] == [0x7f7000000008],
       'a launch whose head was not read says so (head_lost), its '
       'arguments decoded all the same', evs)

    # ---- damage -----------------------------------------------------------
    bad = ctfgen.write(os.path.join(tmp, 'damaged'), [
        ctfgen.alloc_pack(1, 0x7f0000000000, 64),
        ctfgen.packed(9, bytes([0x19, 1, 2])),             # a length of 9
        ctfgen.packed(10, ctfgen.to_bytes(10, [1, 2])),     # ends early
        ctfgen.head(5),
        ctfgen.packed(14, ctfgen.launch_ref(5, [0x7f0000000000, 1, 0,
                                                4 << 16 | 2 << 24])[:-1]),
        ctfgen.free_pack(1, 0x7f0000000000, 64)])
    rc, out, err = bt2text.run(bad, plugin, DECODE, check=False)
    evs = bt2text.parse(out)
    dmg = [e for e in evs if e['event'] == 'hipgrain:damaged']
    ok(rc == 0, 'damaged packed bytes: babeltrace2 ends well', err)
    ok(len(dmg) == 3 and [d['class'] for d in dmg] == [
        'hipgrain:alloc', 'hipgrain:free', 'hipgrain:launch'], 'each damaged event is a hipgrain:damaged naming its class',
       [e['event'] for e in evs])
    ok(all(d.get('error') and d.get('bytes') for d in dmg) and
       dmg[0]['bytes'] == [0x19, 1, 2] and 'short' in dmg[1]['error'],
       'and says why, with its bytes', dmg)
    ok(evs and evs[-1]['event'] == 'hipgrain:free' and
       evs[-1]['addr'] == 0x7f0000000000,
       'events after the damage decode as before', evs[-1:])

    # ---- text that is no record's (schema 9) --------------------------------
    alloc = ctfgen.widen(ctfgen.alloc_pack(1, 0x7f0000000000, 64)[6:], 20)
    good = ctfgen.text_digits(alloc)
    bad = ctfgen.write(os.path.join(tmp, 'damaged-text'), [
        ctfgen.text(20, alloc),
        ctfgen.text(20, chars=good[:3] + '!' + good[4:]),  # not a digit
        ctfgen.text(21, chars=good[:6]),                   # no text's length
        ctfgen.text(22, chars='~~~~~'),                    # over 2^32
        ctfgen.text(21, ctfgen.widen(ctfgen.free_pack(
            1, 0x7f0000000000, 64)[6:], 8))])
    rc, out, err = bt2text.run(bad, plugin, DECODE, check=False)
    evs = bt2text.parse(out)
    dmg = [e for e in evs if e['event'] == 'hipgrain:damaged']
    ok(rc == 0 and [d['class'] for d in dmg] == [
        'hipgrain:alloc', 'hipgrain:free', 'hipgrain:launch'],
       'damaged text: a hipgrain:damaged naming its class, and babeltrace2 '
       'ends well', [e['event'] for e in evs])
    ok(len(dmg) == 3 and 'character 3' in dmg[0]['error'] and
       'character 5' in dmg[1]['error'] and 'character 0' in dmg[2]['error']
       and dmg[2]['bytes'] == [ord('~')] * 5,
       'and says where the text goes wrong, with its characters', dmg)
    ok(evs and evs[0]['event'] == 'hipgrain:alloc' and
       evs[-1]['event'] == 'hipgrain:free' and evs[-1]['size'] == 64,
       'text around the damage decodes as before', [evs[0], evs[-1]])

sys.exit(tap.done())
