#!/usr/bin/env python3
"""The compiled atomics table against its transcription, cell by cell:
atomics/amd-atomics.tsv (AMD's four tables as read) and what atab-dump
prints by asking the lookup for every product column, PCIe choice, block
and operation.  Also the generator refuses a transcription with a missing
block or an unknown outcome.

usage: test_atab.py SRCDIR ATAB_DUMP"""
import os
import subprocess
import sys
import tempfile

src, dump = sys.argv[1:3]
tsv = os.path.join(src, 'atomics', 'amd-atomics.tsv')
gen = os.path.join(src, 'isa', 'gen_atab.py')


def rows(lines):
    out = {}
    for line in lines:
        if line.startswith('#') or not line.strip() or line.startswith('table\t'):
            continue
        f = line.rstrip('\n').split('\t')
        out[tuple(f[:6])] = (f[6:12], f[12])
    return out


with open(tsv, encoding='utf-8') as f:
    want = rows(f)
got = rows(subprocess.run([dump], capture_output=True, text=True, check=True).stdout.splitlines())
print('1..4')
bad = [k for k in want if k not in got or got[k] != want[k]]
cells = sum(len(v[0]) for v in want.values())
print(('ok' if not bad and len(got) == len(want) else 'not ok') +
      ' 1 - every one of the %d cells and its source as transcribed' % cells)
for k in bad[:10]:
    print('# %s: table %s, compiled %s' % ('/'.join(k), want[k], got.get(k)))
# the headline cells, spelled out: sub over PCIe, FP on fine memory
key = ('hw', 'yes', 'pinned-host', 'fine', 'device', 'sub-i32')
print(('ok' if got.get(key, [[]])[0][:3] == ['nop', 'nop', 'native'] else 'not ok') +
      ' 2 - atomicSub to fine host memory: NOP on MI100 and MI200 PCIe, native on A+A')
key = ('hw', 'yes', 'device', 'fine', 'system', 'add-f32')
print(('ok' if got.get(key, [[]])[0] == ['nop', 'nop', 'nop', 'native', 'native', 'native']
       else 'not ok') + ' 3 - FP32 add on fine device memory: NOP on MI100/MI200 only')
with open(tsv, encoding='utf-8') as f:
    lines = f.readlines()
with tempfile.TemporaryDirectory() as tmp:
    fails = 0
    for name, text in (('short', lines[:-1]),
                       ('badcell', [l.replace('\tnative\t', '\tfine\t', 1) if l.startswith('hw\tno\tdevice\tcoarse\tdevice\tadd-i32') else l for l in lines])):
        path = os.path.join(tmp, name + '.tsv')
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines(text)
        p = subprocess.run([sys.executable, gen, path, os.path.join(tmp, 'out.def')],
                           capture_output=True, text=True)
        fails += p.returncode != 0 and bool(p.stderr.strip())
    print(('ok' if fails == 2 else 'not ok') +
          ' 4 - the generator refuses a missing row and an unknown outcome')
