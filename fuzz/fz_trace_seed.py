#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed corpus for fz_trace, then a fuzz run.

usage: fz_trace_seed.py HARNESS RUNS WORKDIR [TRACE_DIR...]

A seed is one trace packed for fz_trace: metadata length (u32 LE), the
metadata, one stream file.  Seeds come from tests/hostile/ctfgen.py (launch,
alloc and free events of each schema, schema 6's sizes too, written by
hand) and from every stream
file of each TRACE_DIR given (real LTTng traces: `hipgrain run -o DIR`).  Exits non-zero
when the fuzzer finds a crash.
"""
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests', 'hostile'))
import ctfgen  # noqa: E402
from fz_aslr import no_aslr  # noqa: E402

# Memory caps from fuzz/meson.build (why there); by hand, the same.
LIMITS = os.environ.get('FUZZ_LIMITS',
                        '-malloc_limit_mb=256 -rss_limit_mb=2048').split()
harness, runs, work = sys.argv[1:4]
corpus = os.path.join(work, 'corpus-trace')
os.makedirs(corpus, exist_ok=True)


def pack(metadata, stream):
    return struct.pack('<I', len(metadata)) + metadata + stream


def ctf_dirs(root):
    for d, _, files in os.walk(root):
        if 'metadata' in files:
            yield d


n = 0
with tempfile.TemporaryDirectory() as tmp:
    roots = [ctfgen.write(tmp, ctfgen.seed_events())]
    for root in roots + sys.argv[4:]:
        for d in ctf_dirs(root):
            meta = open(os.path.join(d, 'metadata'), 'rb').read()
            for f in sorted(os.listdir(d)):
                p = os.path.join(d, f)
                if f == 'metadata' or not os.path.isfile(p):
                    continue
                open(os.path.join(corpus, 'seed-%d' % n), 'wb').write(
                    pack(meta, open(p, 'rb').read()))
                n += 1

# Inputs that once hung or crashed report stay in the corpus.
saved = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus',
                     'trace')
for name in sorted(os.listdir(saved)) if os.path.isdir(saved) else []:
    with open(os.path.join(saved, name), 'rb') as f:
        open(os.path.join(corpus, 'saved-' + name), 'wb').write(f.read())

# A fixed seed and a fixed number of inputs, never a time budget: the same
# run on a slow machine.  A hang is caught by the invariant in the reader,
# not by a timer.  Long runs: fuzz/README.md.
r = subprocess.run([harness, corpus, '-runs=' + runs, '-seed=1',
                    '-max_len=262144', *LIMITS, '-timeout=0',
                    '-detect_leaks=0', '-artifact_prefix=%s/crash-trace-' % work,
                    '-print_final_stats=1'],
                   capture_output=True, text=True, preexec_fn=no_aslr,
                   env=dict(os.environ, ASAN_OPTIONS='detect_leaks=0'))
print('\n'.join(l for l in r.stderr.splitlines()
                if 'stat::number_of_executed_units' in l or
                'stat::average_exec_per_sec' in l))
if r.returncode:
    print(r.stderr[-4000:])
    # The input that failed, to keep beside the fix (fuzz/README.md).
    for name in sorted(os.listdir(work)):
        if name.startswith('crash-trace-'):
            print('keep it: cp %s %s/NAME' % (
                os.path.join(work, name), os.path.join('fuzz', 'corpus', 'trace')))
# libFuzzer exits 77 when it finds a crash, which meson takes for a skip.
sys.exit(1 if r.returncode else 0)
