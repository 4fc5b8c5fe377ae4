#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain dump`: the events babeltrace2 prints through
filter.hipgrain.decode, field for field, and its filters; `dump --ctf`'s
trace, read by babeltrace2 without the plugin, the same field for field.

usage: test_dump.py HIPGRAIN TRACEGEN PLUGIN_DIR SCRIPT FIXTURES
                    [KERNELS_DIR FAKEHIP_DIR]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', 'hostile'))
import bt2text  # noqa: E402
import ctfgen  # noqa: E402
import hgrun  # noqa: E402
from lttng_session import Tracing  # noqa: E402

hipgrain, tracegen, plugin, script, fixtures = sys.argv[1:6]
tap = hgrun.Tap()


def dump(*args):
    p = subprocess.run([hipgrain, 'dump', *args], capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def jdump(*args):
    rc, out, err = dump('--format', 'json', *args)
    return rc, [json.loads(line) for line in out.splitlines()], err


def same(js, bt):
    """A JSON value against what babeltrace2 printed (names for enums)."""
    if isinstance(bt, bt2text.Enum):
        return js == (bt.labels[0] if bt.labels else int(bt))
    if isinstance(bt, dict):
        return isinstance(js, dict) and all(
            same(js.get(k), v) for k, v in bt.items() if not k.startswith('_'))
    if isinstance(bt, list):
        return isinstance(js, list) and len(js) == len(bt) and \
            all(map(same, js, bt))
    # hex and past 2^53, JSON gets a string: "0x7f00...", "18446744..."
    if isinstance(js, str) and isinstance(bt, int) and \
            re.fullmatch(r'-?(0x[0-9a-f]+|[0-9]+)', js):
        return int(js, 0) == bt
    return js == bt


def too_big(v, path=''):
    """The integers a JSON reader would round (past 2^53), with where."""
    if isinstance(v, bool):
        return []
    if isinstance(v, int):
        return [(path, v)] if abs(v) > 1 << 53 else []
    if isinstance(v, dict):
        return [x for k, w in v.items() for x in too_big(w, path + '.' + k)]
    if isinstance(v, list):
        return [x for i, w in enumerate(v) for x in too_big(w, '%s[%d]' % (
            path, i))]
    return []


def against_babeltrace(name, trace, ref=None, what='babeltrace2 through '
                       'the filter'):
    rc, got, err = jdump('--all', trace)
    if ref is None:
        ref = bt2text.parse(bt2text.run(trace, plugin,
                                        ['filter.hipgrain.decode'])[1])
    bad = []
    for j, b in zip(got, ref):
        short = b['event'][9:] if b['event'].startswith('hipgrain:') \
            else b['event']
        if j['event'] != short or j['pid'] != b.get('vpid', -1):
            bad.append((j['event'], short))
            continue
        for k, v in b.items():
            # contexts: dump prints the pid of them (schema 1 had more)
            if k not in ('event', 'vpid', 'cpu_id', 'vtid', 'ip',
                         'procname') and \
                    not k.startswith('_') and not same(j.get(k), v):
                bad.append((short, k, j.get(k), v))
    tap.ok(rc == 0 and len(got) == len(ref) and not bad,
           '%s: dump --format json is %s, field for field (%d events)'
           % (name, what, len(ref)), (rc, err, len(got), len(ref), bad[:5]))
    return got


def against_ctf(name, trace, out):
    """dump --ctf OUT, read back by babeltrace2 with no plugin path."""
    rc, _, err = dump('--ctf', out, trace)
    tap.ok(rc == 0 and os.path.isdir(out), '%s: dump --ctf wrote a trace'
           % name, err)
    text = bt2text.run(out, check=False)
    ref = bt2text.parse(text[1])
    tap.ok(text[0] == 0 and any(e['event'] == 'hipgrain:launch' for e in ref)
           and not any(re.fullmatch(r'hipgrain:(alloc|free|launch)\d+',
                                    e['event']) for e in ref),
           '%s: plain babeltrace2 reads the decoded events, not the packed '
           'ones' % name, (text[0], text[2][-300:]))
    against_babeltrace(name, trace, ref, 'plain babeltrace2 on dump --ctf')


with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, 'every')
    with Tracing(trace, statedump=False) as t:
        tap.ok(t.run([tracegen, script]).returncode == 0, 'tracegen')
    every = against_babeltrace('every event', trace)
    big = [x for e in every for x in too_big(e, e['event'])]
    handles = [e['handle'] for e in every if 'handle' in e]
    tap.ok(not big and handles and
           all(isinstance(h, str) and h.startswith('0x') for h in handles) and
           every[0]['time_ns'] == 0 and
           re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z',
                        every[0]['time']),
           'dump --format json: no integer past 2^53 (hex values and '
           'handles as "0x..." strings, time_ns since the first event, the '
           'time itself as a string)', (big[:5], handles[:3], every[0]))
    for s in sorted(os.listdir(fixtures)):
        against_babeltrace(s, os.path.join(fixtures, s, 'misuse-leak'))
    against_babeltrace('every form', ctfgen.write(
        os.path.join(tmp, 'forms'), ctfgen.seed_events()))

    rc, out, err = dump(trace)
    lines = out.splitlines()
    tap.ok(rc == 0 and len(lines) == len(every) and
           any(' alloc pid=' in ln and ' api=hipMalloc ' in ln and
               ' addr=0x7f0000000000 ' in ln and ' rank=3 ' in ln
               for ln in lines),
           'text: a line an event, codes named, addresses in hex', lines[:8])
    by = {e['event']: e for e in every}
    named = (by['memcpy'].get('kind'), by['advise'].get('advice'),
             by['granularity'].get('source'))
    tap.ok(named == ('hipMemcpyHostToDevice', 'hipMemAdviseSetCoarseGrain',
                     'advise') and
           ' kind=hipMemcpyHostToDevice ' in out and
           ' advice=hipMemAdviseSetCoarseGrain ' in out,
           'every code by name: a copy\'s kind, advice, a granularity\'s '
           'source (issue 38, 9)', named)
    flags = {e['id']: e.get('flag_names') for e in every
             if e['event'] == 'alloc'}
    tap.ok(flags.get(12) == 'hipHostMallocMapped|hipHostMallocNonCoherent'
           and flags.get(11) is None and
           ' flag_names=hipHostMallocMapped|hipHostMallocNonCoherent' in out,
           'an allocation\'s flags by the names of its call', flags)
    rc, allocs, _ = jdump('--event', 'alloc', trace)
    tap.ok(rc == 0 and len(allocs) == 3 and
           all(e['event'] == 'alloc' for e in allocs), '--event alloc', allocs)
    rc, kfd, _ = jdump('--event', 'kfd_*', '--event', 'hipgrain:call', trace)
    tap.ok(rc == 0 and sorted({e['event'] for e in kfd}) == [
        'call', 'kfd_alloc', 'kfd_free', 'kfd_node', 'kfd_smi', 'kfd_smi_open',
        'kfd_svm', 'kfd_xnack'], '--event with a pattern, repeated',
        [e['event'] for e in kfd])
    pid = every[0]['pid']
    tap.ok(jdump('--pid', str(pid), trace)[1] == every and
           jdump('--pid', str(pid + 1), trace)[1] == [], '--pid')
    r3 = jdump('--rank', '3', trace)[1]
    tap.ok(len(r3) == len(every) - 2 and all(e['rank'] == '3' for e in r3)
           and jdump('--rank', '4', trace)[1] == [],
           '--rank: the events of the rank from its env event on',
           [e['event'] for e in r3][:4])
    rc, touched, _ = jdump('--address', '0x7f0000000100', trace)
    names = [e['event'] for e in touched]
    tap.ok(rc == 0 and names == ['alloc', 'advise', 'granularity', 'memcpy',
                                 'memset', 'launch', 'free'] and
           touched[0]['id'] == 11 and touched[-1]['id'] == 11,
           '--address: the block holding it and every event that touched it',
           names)
    rc, launches, _ = jdump('--address', '0x7f1000000000', '--event',
                            'launch', trace)
    tap.ok(rc == 0 and len(launches) == 2, '--address with --event: the '
           'block is followed whatever is printed', launches)
    rc, out, err = dump('--event', 'allocs', trace)
    tap.ok(rc == 64 and out == '' and len(err.splitlines()) == 1 and
           "'allocs'" in err, '--event with a name no event has: one line, '
           'exit 64', (rc, out, err))
    lj = [e for e in every if e['event'] == 'launch']
    rc, out, _ = dump('--event', 'launch', trace)
    tap.ok(lj and all(e.get('kernel') == 'sum(float*, float*, int)'
                      for e in lj) and
           all(' kernel="sum(float*, float*, int)"' in ln
               for ln in out.splitlines()),
           'launch lines name the kernel, text and JSON', (lj[:1], out[:300]))
    fx = os.path.join(fixtures, sorted(os.listdir(fixtures))[-1], 'misuse-leak')
    plain = [e['event'] for e in jdump(fx)[1]]
    whole = [e['event'] for e in jdump('--all', fx)[1]]
    tap.ok(plain and not [n for n in plain if n.startswith('lttng_ust')] and
           [n for n in whole if n.startswith('lttng_ust_statedump')] and
           jdump('--event', 'lttng_ust_statedump:*', fx)[1],
           "LTTng's statedump and dl events only with --all or asked for",
           (len(plain), len(whole)))
    tap.ok(dump('--format', 'xml', trace)[0] == 64 and
           dump()[0] == 64 and dump('--pid', 'x', trace)[0] == 64,
           'a bad command line: exit 64')
    rc, out, err = dump(os.path.join(tmp, 'nothing'))
    tap.ok(rc == 1 and 'hipgrain dump:' in err, 'no trace: exit 1', err)
    out = os.path.join(tmp, 'out.txt')
    tap.ok(dump('-o', out, trace)[0] == 0 and
           len(open(out).read().splitlines()) == len(every), '-o FILE')

    # ---- --ctf OUTDIR ------------------------------------------------------
    against_ctf('every event', trace, os.path.join(tmp, 'ctf-every'))
    if len(sys.argv) > 7:
        kdir, fakehip = sys.argv[6:8]
        t = hgrun.run(hipgrain, [os.path.join(kdir, 'arraysum_unsafe'),
                                 'hostmalloc'],
                      env=hgrun.fake_env(fakehip, None))
        against_ctf('kernels/arraysum_unsafe under hipgrain run', t.trace,
                    os.path.join(tmp, 'ctf-kernels'))
        t.close()
    full = os.path.join(tmp, 'ctf-every')
    rc, out, err = dump('--ctf', full, trace)
    tap.ok(rc == 1 and err.count('\n') == 1 and 'not empty' in err and
           full in err, '--ctf into a directory that is not empty: exit 1, '
           'one line saying so', err)
    afile = os.path.join(tmp, 'out.txt')
    rc, out, err = dump('--ctf', os.path.join(afile, 'x'), trace)
    tap.ok(rc == 1 and err.count('\n') == 1 and 'Not a directory' in err,
           '--ctf where no directory can be made: exit 1, one line', err)
    ro = os.path.join(tmp, 'ro')
    os.mkdir(ro, 0o555)
    if os.geteuid() != 0:
        rc, out, err = dump('--ctf', os.path.join(ro, 'x'), trace)
        tap.ok(rc == 1 and err.count('\n') == 1 and
               'Permission denied' in err,
               '--ctf under a directory not writable: exit 1, one line', err)
    rc, out, err = dump('--ctf', '/proc/hipgrain-dump', trace)
    tap.ok(rc == 1 and err.count('\n') == 1 and '/proc/hipgrain-dump' in err,
           '--ctf on a file system that takes no directory: exit 1, one '
           'line', err)
    rc, out, err = dump('--ctf', os.path.join(tmp, 'c2'), '--event', 'alloc',
                        trace)
    tap.ok(rc == 64 and '--ctf' in err and
           not os.path.exists(os.path.join(tmp, 'c2')),
           '--ctf with a filter: a bad command line', err)

sys.exit(tap.done())
