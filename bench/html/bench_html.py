#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The HTML report of a 4-rank job and of a 1M-event trace: how long
`hipgrain report --format html` takes against `--format json` on the same
trace (the anchor for writing: same reading and replay, so the ratio is the
timeline's and the page's own cost), and how long each page takes to open
in headless Chromium (target: under 5 s) against a page of the same size
holding only preformatted text (the anchor for opening: what the browser
needs just to take in that many bytes).

usage: bench_html.py HIPGRAIN TRACEGEN [EVENTS]
"""
import html
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'tests', 'lib'))
sys.path.insert(0, os.path.join(ROOT, 'bench', 'report'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'formats'))
from lttng_session import Tracing  # noqa: E402
import bench_report  # noqa: E402  (its 1M-event trace recipe, its timer)
import hgformats  # noqa: E402

# One rank of a solver: a working set that grows, launches on it, frees.
RANK = """process ppid=1 exe=/bin/solver version=0.1.0
env name=OMPI_COMM_WORLD_RANK value={rank}
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
callsite id=7 frames=self
callsite id=8 frames=self,self
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2,2
repeat {n}
alloc id=%i api=20 addr=0x7e0000000000 size=1048576 mem=1 gran=1 callsite=7
alloc id=1%i api=22 addr=0x7f0000000000 size=65536 mem=4 gran=2 callsite=8
launch handle=0x1000 arg_index=0,1 arg_value=0x7e0000000000,0x7f0000000000 arg_id=%i,1%i arg_mem=1,4 arg_gran=1,2
free id=1%i api=41 addr=0x7f0000000000 alloc_api=22
end
"""


def four_ranks(tracegen, tmp, per_rank):
    out = os.path.join(tmp, 'ranks')
    with Tracing(out) as t:
        for r in range(4):
            path = os.path.join(tmp, 'rank%d.tg' % r)
            with open(path, 'w') as f:
                f.write(RANK.format(rank=r, n=per_rank // 4))
            p = t.run([tracegen, path])
            assert p.returncode == 0, p.stderr
    return out


def plain_page(path, size, out):
    """A page of `size` bytes of escaped text in a <pre>: the open anchor."""
    with open(path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    with open(out, 'w') as f:
        f.write('<!DOCTYPE html><meta charset="utf-8"><pre>')
        f.write(html.escape(text)[:size])
        f.write('</pre>')


def measure(hipgrain, name, trace, tmp):
    page = os.path.join(tmp, name + '.html')
    js, js_rss = bench_report.timed([hipgrain, 'report', '--format', 'json', '-o',
                       os.path.join(tmp, name + '.json'), trace])
    ht, ht_rss = bench_report.timed([hipgrain, 'report', '--format', 'html', '-o', page, trace])
    anchor = os.path.join(tmp, name + '-plain.html')
    plain_page(os.path.join(tmp, name + '.json'), os.path.getsize(page), anchor)
    # Best of 3 opens of each, in one browser (the first open warms it up).
    opens = {}
    for _ in range(3):
        for f in hgformats.browse([(anchor, None), (page, None)]):
            key = 'page' if f['page'] == page else 'plain'
            opens[key] = min(opens.get(key, 1e9), f['loadMs'])
    print('%s: page %d KiB' % (name, os.path.getsize(page) // 1024))
    print('  write: html %.3f s, json %.3f s, ratio html/json %.2f; '
          'rss html %d KiB, json %d KiB' % (ht, js, ht / js, ht_rss, js_rss))
    print('  open in Chromium: %d ms (target < 5000), same-size plain page '
          '%d ms, ratio %.2f' % (opens['page'], opens['plain'],
                                  opens['page'] / max(opens['plain'], 1)))


def main():
    hipgrain, tracegen = sys.argv[1], sys.argv[2]
    events = int(sys.argv[3]) if len(sys.argv) > 3 else 1050000
    why = hgformats.missing_tools()
    if why:
        sys.exit('bench_html: ' + why)
    tmp = tempfile.mkdtemp(prefix='hgbench-html-')
    try:
        ranks = four_ranks(tracegen, tmp, events // 4)
        big, n = bench_report.make_trace(tracegen, tmp, events)
        print('4 ranks: %d launches each; one trace: %d events' % (events // 16, n))
        measure(hipgrain, '4-ranks', ranks, tmp)
        measure(hipgrain, '1M-events', big, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
