#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile traces through filter.hipgrain.decode: the trace fuzzer's seeds
(fuzz/fz_trace_seed.py: every form of tests/hostile/ctfgen.py, a real trace
of every schema, fuzz/corpus/trace) as they are and with bytes flipped.
Wherever plain `babeltrace2` reads a trace to its end, so does it through
the filter, and nothing ever ends by a signal.

usage: test_hostile.py PLUGIN_DIR FIXTURES SAVED_CORPUS
"""
import os
import random
import resource
import signal
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'hostile'))
import ctfgen  # noqa: E402
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
import bt2text  # noqa: E402
import hgrun  # noqa: E402

plugin, fixtures, saved = sys.argv[1:4]
FLIPS = 40  # variants of the hand-made seed (every form), 6 of the others
# The seeds' streams are a few KiB and print a few times their size; a
# reading past this many bytes has none of them left to print.
ENDLESS = 16 << 20
# A reading of so small a stream takes a fraction of a CPU-second; one that
# has spent this many is spinning (babeltrace2 2.1 reopens and maps one of
# the corpus streams forever).  CPU time, not wall time: a loaded machine
# gives the same verdict.
SPIN_CPU_S = 20
BACKSTOP = 300
tap = hgrun.Tap()
ok = tap.ok


def limits():
    # babeltrace2's own reader sizes a sequence from its damaged length
    # (analyzer/an_bt2_guard.c): a cap keeps such a run from the machine
    # (not under ASan, whose shadow memory is reserved address space).
    if not os.environ.get('HG_BT2_PRELOAD'):
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    # The hard limit above the soft one: at both at once Linux sends SIGKILL,
    # not SIGXCPU, and a spin would pass for a killed reading whose variants
    # are each read to the limit again.
    resource.setrlimit(resource.RLIMIT_CPU, (SPIN_CPU_S, 2 * SPIN_CPU_S))


def bt(trace, decode):
    """babeltrace2's exit status on trace, 'endless' for a reading that
    prints without end (damage that makes zero-bit events), or 'spins' for
    one stopped by SIGXCPU.  Such a reading
    is stopped by what it printed, far more than any reading of so small a
    stream can: the same verdict on every machine, and at once, where a
    time limit spent the whole limit on each such reading."""
    argv = ['babeltrace2', '--plugin-path', plugin, trace]
    if decode:
        argv += ['-c', 'filter.hipgrain.decode']
    cap = max(ENDLESS, 1000 * os.path.getsize(os.path.join(trace, 'stream')))
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, preexec_fn=limits,
                         env=bt2text.env())
    printed, endless = 0, False
    with p:
        while not endless:
            chunk = p.stdout.read(1 << 16)
            if not chunk:
                break
            printed += len(chunk)
            endless = printed > cap
        if endless:
            p.kill()
        try:
            # only a backstop against a reader spinning without printing
            rc = p.wait(timeout=BACKSTOP)
        except subprocess.TimeoutExpired:
            p.kill()
            return 'timeout'
    if endless:
        return 'endless'
    return 'spins' if rc == -signal.SIGXCPU else rc


def seeds(tmp):
    """(name, metadata bytes, stream bytes) of each seed."""
    d = ctfgen.write(os.path.join(tmp, 'forms'), ctfgen.seed_events())
    roots = [d, fixtures]
    for root in roots:
        for where, _, files in sorted(os.walk(root)):
            # one program of each schema: the others take the same forms
            if 'metadata' not in files or (root == fixtures and
                                           'arraysum' not in where):
                continue
            meta = open(os.path.join(where, 'metadata'), 'rb').read()
            for f in sorted(files):
                if f != 'metadata' and os.path.isfile(os.path.join(where, f)):
                    yield (os.path.relpath(os.path.join(where, f), root), meta,
                           open(os.path.join(where, f), 'rb').read())
    for f in sorted(os.listdir(saved)) if os.path.isdir(saved) else []:
        b = open(os.path.join(saved, f), 'rb').read()
        (k,) = struct.unpack_from('<I', b)
        yield 'corpus/' + f, b[4:4 + k], b[4 + k:]


def write(d, meta, stream):
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, 'metadata'), 'wb').write(meta)
    open(os.path.join(d, 'stream'), 'wb').write(stream)
    return d


with tempfile.TemporaryDirectory() as tmp:
    rng = random.Random(29)
    for i, (name, meta, stream) in enumerate(seeds(tmp)):
        d = write(os.path.join(tmp, 'seed%d' % i), meta, stream)
        plain = bt(d, False)
        if plain == 'spins':
            # Not ours, nor are its variants (a few bits apart): reading
            # each would only spend the CPU limit again.
            tap.skip(name, 'plain babeltrace2 spins on it')
            continue
        dec = bt(d, True)
        ok(dec == plain or (isinstance(plain, int) and plain > 0 and
                            isinstance(dec, int) and dec > 0),
           '%s: as plain babeltrace2 reads it (%s, %s)' % (name, plain, dec))
        bad = []
        flips = FLIPS if i == 0 else 6
        for k in range(flips if len(stream) > 16 else 0):
            s = bytearray(stream)
            for _ in range(rng.randint(1, 4)):
                # past the packet header (magic, stream id)
                s[rng.randrange(8, len(s))] ^= 1 << rng.randrange(8)
            v = write(os.path.join(tmp, 'v'), meta, bytes(s))
            plain = bt(v, False)
            if plain != 0:  # 'spins' too
                continue  # babeltrace2's own reader stopped: not ours
            dec = bt(v, True)
            if dec != 0:
                bad.append((k, dec))
        ok(not bad, '%s: %d variants with bytes flipped: read to the end '
           'through the filter wherever plain babeltrace2 is' % (name, flips),
           bad)

sys.exit(tap.done())
