#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report` merging many rank traces, against `babeltrace2 -o dummy`
reading the same traces.

usage: bench_ranks.py HIPGRAIN TRACEGEN [EVENTS_PER_RANK] [RANKS...]

One rank trace of about EVENTS_PER_RANK (default 10,000) hipgrain events is
made with hg_tracegen in a real LTTng session; it holds one fp-atomic
finding.  It is copied once per rank with its rank (a fixed-width string in
its `env` event) rewritten, so every copy is a real LTTng trace of another
rank.  For each count of ranks (default 16 64 256) both readers are timed
(best of 3) and their peak RSS taken; the report must merge the finding
into one, on every rank.  Memory per extra rank is printed: the target is
that it does not grow with ranks beyond the findings themselves.
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'tests', 'lib'))
from bench_report import HEAD, ROUND, timed  # noqa: E402
from lttng_session import Tracing  # noqa: E402

RANK_KEY = b'OMPI_COMM_WORLD_RANK\x00'


def make_rank_trace(tracegen, tmp, events):
    rounds = events // 7 + 1
    script = os.path.join(tmp, 'rank.tg')
    with open(script, 'w') as f:
        f.write(HEAD + 'env name=OMPI_COMM_WORLD_RANK value=00000\n' +
                'repeat %d\n%send\n' % (rounds, ROUND))
    out = os.path.join(tmp, 'rank-src')
    with Tracing(out, statedump=True) as t:
        r = t.run([tracegen, script])
        assert r.returncode == 0, r.stderr
    return out, rounds * 7


def trace_uuid(src):
    for d, _, files in os.walk(src):
        if 'metadata' in files:
            m = re.search(rb'uuid = "([0-9a-f-]{36})"',
                          open(os.path.join(d, 'metadata'), 'rb').read())
            return uuid.UUID(m.group(1).decode())
    raise AssertionError('no trace uuid in %s' % src)


def copy_as_rank(src, dst, rank):
    """src's trace as rank `rank`: the 5-digit rank value and the trace's
    UUID (text in the metadata, bytes in every packet header) patched in
    place, so every copy is a trace of its own to both readers."""
    shutil.copytree(src, dst)
    old_id = trace_uuid(src)
    new_id = uuid.UUID(int=old_id.int ^ (rank + 1))
    swaps = [(RANK_KEY + b'00000\x00', RANK_KEY + b'%05d\x00' % rank),
             (old_id.bytes, new_id.bytes),
             (str(old_id).encode(), str(new_id).encode())]
    hits = 0
    for d, _, files in os.walk(dst):
        for f in files:
            p = os.path.join(d, f)
            b = open(p, 'rb').read()
            hits += b.count(swaps[0][0])
            for old, new in swaps:
                b = b.replace(old, new)
            open(p, 'wb').write(b)
    assert hits == 1, 'rank string found %d times' % hits


def main():
    hipgrain, tracegen = sys.argv[1], sys.argv[2]
    events = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    counts = [int(a) for a in sys.argv[4:]] or [16, 64, 256]
    tmp = tempfile.mkdtemp(prefix='hgbench-ranks-')
    try:
        src, n = make_rank_trace(tracegen, tmp, events)
        dirs = []
        for r in range(max(counts)):
            d = os.path.join(tmp, 'job', 'rank%05d' % r)
            copy_as_rank(src, d, r)
            dirs.append(d)
        print('%d hipgrain events per rank trace' % n)
        rows = []
        for k in counts:
            bt, bt_rss = timed(['babeltrace2'] + dirs[:k] + ['-o', 'dummy'])
            hg, hg_rss = timed([hipgrain, 'report'] + dirs[:k])
            doc = json.loads(subprocess.run(
                [hipgrain, 'report', '--format', 'json'] + dirs[:k],
                capture_output=True, text=True).stdout)
            ranks = [f['where'].get('ranks') for f in doc['findings']]
            merged = ranks == [list(range(k))]
            rows.append((k, hg_rss))
            print('%4d ranks: report %.2f s rss %d KiB | babeltrace2 -o dummy '
                  '%.2f s rss %d KiB | ratio %.2f | one finding on all ranks: '
                  '%s' % (k, hg, hg_rss, bt, bt_rss, hg / bt,
                          'yes' if merged else 'NO %s' % ranks))
        if len(rows) > 1:
            (k0, r0), (k1, r1) = rows[0], rows[-1]
            print('report memory per extra rank: %.1f KiB (%d -> %d ranks)'
                  % ((r1 - r0) / (k1 - k0), k0, k1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
