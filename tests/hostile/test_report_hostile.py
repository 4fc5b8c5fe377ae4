#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain report` on truncated, zzuf-mutated and foreign traces.

usage: test_report_hostile.py HIPGRAIN TRACEGEN ANALYZER_CASES RUN_BUILD

Real traces are made at run time: kernels/ programs under `hipgrain run`
against tests/fakehip (RUN_BUILD: a build directory with the preload, '' in
a build without one; HIPGRAIN_HOSTILE_BUILD overrides it, so a sanitized
build can borrow a normal build's `hipgrain run`), and tracegen scripts in a
private LTTng session.  Every case must end in a report (partial where the
damage is known) or a clear error: see hostile.judge().
"""
import json
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
import ctfgen  # noqa: E402
import hostile  # noqa: E402
import layout_kin  # noqa: E402
from hostile import Case, says, says_any  # noqa: E402

SCALE = int(os.environ.get('HIPGRAIN_HOSTILE_SCALE', '1'))
N_STREAM, N_META, N_INDEX, N_ALL = (n * SCALE for n in (60, 24, 12, 12))
KERNEL_RUNS = [('arraysum_unsafe', 'hostmalloc'), ('vectoradd', 'malloc')]
TG_SCRIPTS = ['fp_atomic_host.fire.tg', 'managed_no_prefetch.fire.tg']
LIBC_WRAPPER = 'liblttng-ust-libc-wrapper.so'


def ctf_dir(root):
    """The directory holding the trace's metadata (one per trace here)."""
    for d, _, files in os.walk(root):
        if 'metadata' in files:
            return d
    raise AssertionError('no CTF trace written under %s' % root)


def streams(d):
    return sorted(f for f in os.listdir(d)
                  if f != 'metadata' and os.path.isfile(os.path.join(d, f)))


def indexes(d):
    idx = os.path.join(d, 'index')
    return sorted(os.path.join('index', f) for f in os.listdir(idx)) \
        if os.path.isdir(idx) else []


def run_traces(build, work):
    """kernels/ programs under a normal build's `hipgrain run`."""
    import subprocess
    hg = os.path.join(build, 'cli', 'hipgrain')
    # The test double the programs link to: libamdhip64.so.5 (ROCm 5) or,
    # built against ROCm 6, the .so.6 one in v6/.
    fake = os.path.join(build, 'tests', 'fakehip')
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(fake, 'v6') + ':' + fake)
    env.pop('HSA_XNACK', None)
    out = []
    for prog, arg in KERNEL_RUNS:
        t = os.path.join(work, 'run-' + prog)
        subprocess.run([hg, 'run', '--no-report', '-q', '-o', t, '--',
                        os.path.join(build, 'kernels', prog), arg],
                       env=env, capture_output=True, timeout=120, check=True)
        out.append(ctf_dir(t))
    # Foreign: an LTTng trace of a program hipgrain does not record.
    t = os.path.join(work, 'run-disabled')
    subprocess.run([hg, 'run', '--no-report', '-q', '-o', t, '--', 'true'],
                   env=dict(env, HIPGRAIN_DISABLE='1'), capture_output=True,
                   timeout=120, check=True)
    return out, ctf_dir(t)


def tracegen_traces(tracegen, cases_dir, work):
    """tracegen scripts, plus lttng's libc wrapper (a foreign trace)."""
    from lttng_session import Tracing
    out = []
    for s in TG_SCRIPTS:
        t = os.path.join(work, 'tg-' + s)
        with Tracing(t) as tr:
            r = tr.run([tracegen, os.path.join(cases_dir, s)])
        assert r.returncode == 0, r.stderr
        out.append(ctf_dir(t))
    t = os.path.join(work, 'tg-libc')
    with Tracing(t, statedump=False, events=('lttng_ust_libc:*',)) as tr:
        tr.run(['ls', '/'], env={'LD_PRELOAD': LIBC_WRAPPER})
    return out, ctf_dir(t)


# Enough launches to fill many 4 KiB packets.
MANY_PACKETS = """process ppid=1 exe=/bin/hostile version=0.1.0
callsite id=7 frames=self
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
alloc id=1 api=22 addr=0x7f1000000000 size=4096 mem=4 gran=2 callsite=7
repeat 400
launch handle=0x1000 arg_index=0 arg_value=0x7f1000000000 arg_id=1 arg_mem=4 arg_gran=2
alloc id=2 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1 callsite=7
free id=2 api=40 addr=0x7f0000000000 alloc_api=20
end
"""


def packets(path):
    """(offset, size) of each LTTng packet of a stream file."""
    import struct
    out, at, data = [], 0, open(path, 'rb').read()
    while at + 64 <= len(data):
        size = struct.unpack_from('<Q', data, at + 56)[0] // 8
        out.append((at, size))
        at += size
    return out


def mid_packet_cases(hg, tracegen, work):
    """A stream of many packets cut in the middle of its third, its index
    left as it was (now wrong): the packets before the cut are reported."""
    from lttng_session import Tracing
    import hgtrace
    script = os.path.join(work, 'many-packets.tg')
    with open(script, 'w') as f:
        f.write(MANY_PACKETS)
    t = os.path.join(work, 'tg-many-packets')
    with Tracing(t, subbuf='4k', nsubbuf=8) as tr:
        r = tr.run([tracegen, script])
    assert r.returncode == 0, r.stderr
    base = ctf_dir(t)
    s = max(streams(base), key=lambda f: len(packets(os.path.join(base, f))))
    pk = packets(os.path.join(base, s))
    assert len(pk) >= 4, 'want a stream of 4 packets or more: %s' % pk
    # What the first two packets hold, read by babeltrace from a clean cut.
    clean = hostile.copy_tree(base, os.path.join(work, 'cut-clean'))
    shutil.rmtree(os.path.join(clean, 'index'), ignore_errors=True)
    hostile.truncate(os.path.join(base, s), os.path.join(clean, s),
                     pk[2][0])
    others = [x for x in streams(base) if x != s]
    for o in others:
        os.unlink(os.path.join(clean, o))
    want = len(hgtrace.hipgrain_events(clean))
    d = hostile.copy_tree(base, os.path.join(work, 'cut-mid-packet'))
    for o in others:  # the damaged stream alone decides what is read
        os.unlink(os.path.join(d, o))
        os.unlink(os.path.join(d, 'index', o + '.idx'))
    hostile.truncate(os.path.join(base, s), os.path.join(d, s),
                     pk[2][0] + pk[2][1] // 2)

    def check(proc):
        doc = json.loads(proc.stdout)
        got = doc['summary']['hipgrain_events']
        if not doc['summary'].get('partial'):
            return 'not marked partial'
        if got < want:
            return 'read %d hipgrain events, the packets before the cut ' \
                   'hold %d' % (got, want)
        return None
    cases = [Case('stream cut in its third packet, index now wrong: the two '
                  'packets before the cut are read',
                  [hg, 'report', '--format', 'json', d], (0,), json_out=True,
                  check=check)]
    # One big packet (1 MiB sub-buffers) cut in its middle: no whole packet
    # is left, the events before the cut still are.
    t = os.path.join(work, 'tg-one-packet')
    with Tracing(t, subbuf='1M', nsubbuf=2) as tr:
        r = tr.run([tracegen, script])
    assert r.returncode == 0, r.stderr
    base = ctf_dir(t)
    s = max(streams(base), key=lambda f: os.path.getsize(
        os.path.join(base, f)))
    total = len(hgtrace.hipgrain_events(base))
    d = hostile.copy_tree(base, os.path.join(work, 'cut-one-packet'))
    hostile.truncate(os.path.join(base, s), os.path.join(d, s),
                     os.path.getsize(os.path.join(base, s)) // 2)

    def check_one(proc):
        got = json.loads(proc.stdout)['summary']['hipgrain_events']
        return None if 0 < got < total else \
            'read %d of %d hipgrain events from half a packet' % (got, total)
    cases.append(Case('one packet cut in its middle: the events before the '
                      'cut are read', [hg, 'report', '--format', 'json', d],
                      (0,), json_out=True, check=check_one))
    return cases


def report_argv(hg, i, path):
    """Alternates output formats and options over the cases."""
    opts = [['--format', 'json', '--fail-on', 'warning'],
            ['--inventory'], ['--format', 'json', '--inventory'],
            ['--fail-on', 'note', '--color', 'always']][i % 4]
    return [hg, 'report'] + opts + [path], '--format' in opts


def mutant(hg, work, name, base, i, mutate):
    """A copy of base's directory, one file mutated, one case."""
    d = hostile.copy_tree(base, os.path.join(work, name))
    mutate(d)
    argv, js = report_argv(hg, i, d)
    return Case(name, argv, json_out=js)


def zzuf_cases(hg, bases, work):
    cases = []
    plan = [('stream', N_STREAM, streams, '0.001:0.01'),
            ('meta', N_META, lambda d: ['metadata'], '0.0002:0.002'),
            ('index', N_INDEX, indexes, '0.01:0.05')]
    for kind, n, files, ratio in plan:
        for seed in range(n):
            base = bases[seed % len(bases)]
            fs = files(base)
            if not fs:
                continue
            f = fs[(seed // len(bases)) % len(fs)]

            def mutate(d, f=f, seed=seed, ratio=ratio):
                hostile.zzuf(os.path.join(base, f), os.path.join(d, f), seed,
                             ratio)
            cases.append(mutant(hg, work, 'zzuf-%s-s%d-%s' % (
                kind, seed, os.path.basename(f)), base, seed, mutate))
    for seed in range(N_ALL):
        base = bases[seed % len(bases)]

        def mutate_all(d, base=base, seed=seed):
            for f in ['metadata'] + streams(base) + indexes(base):
                hostile.zzuf(os.path.join(base, f), os.path.join(d, f),
                             seed, '0.0001:0.001')
        cases.append(mutant(hg, work, 'zzuf-all-s%d' % seed, base, seed,
                            mutate_all))
    return cases


def sized_read(proc):
    """The sized alloc read as one: its block in the inventory, whole."""
    inv = json.loads(proc.stdout).get('inventory') or {}
    ok = any(a.get('size') == 4096 and a.get('api') == 'hipMalloc'
             for a in inv.get('largest', []))
    return None if ok else 'no 4096-byte hipMalloc block: %s' % inv


def copies_read(proc):
    """Schema 10's memset into the freed block and pageable async copy
    each make their finding, and the damaged copies none."""
    got = sorted((f['rule'], f['message'])
                 for f in json.loads(proc.stdout)['findings'])
    want = [('async-copy-pageable', 'hipMemcpyAsync copies 65536 bytes '
             'from pageable host memory: the runtime stages it through a '
             'pinned buffer and the copy does not overlap with kernels'),
            ('use-after-free', 'hipMemset uses 0x7f0000000010, inside 4096 '
             'bytes from hipMalloc that hipFree had freed')]
    return None if got == want else 'findings %s, not %s' % (got, want)


def is_partial(proc):
    """A report over data we damaged must say it is partial."""
    if proc.returncode not in hostile.REPORTED:
        return None
    if not json.loads(proc.stdout)['summary'].get('partial'):
        return 'report of a damaged trace not marked partial'
    return None


def truncation_cases(hg, base, work):
    cases = []
    size = lambda f: os.path.getsize(os.path.join(base, f))  # noqa: E731
    s = max(streams(base), key=size)
    # Cuts inside a packet: what is left cannot be the whole trace.
    cuts = [1, 37, 4096 + 13, size(s) // 2 + 5, size(s) - 1]
    for cut in sorted(set(c for c in cuts if c < size(s))):
        d = hostile.copy_tree(base, os.path.join(work, 'cut-stream-%d' % cut))
        hostile.truncate(os.path.join(base, s), os.path.join(d, s), cut)
        cases.append(Case('truncated stream %s at %d' % (s, cut),
                          [hg, 'report', '--format', 'json', d],
                          json_out=True, check=is_partial))
    d = hostile.copy_tree(base, os.path.join(work, 'cut-stream-0'))
    hostile.truncate(os.path.join(base, s), os.path.join(d, s), 0)
    cases.append(Case('empty stream %s' % s, [hg, 'report', d]))
    for cut in [0, 16, 40, 1000, size('metadata') // 2, size('metadata') - 1]:
        d = hostile.copy_tree(base, os.path.join(work, 'cut-meta-%d' % cut))
        hostile.truncate(os.path.join(base, 'metadata'),
                         os.path.join(d, 'metadata'), cut)
        cases.append(Case('truncated metadata at %d' % cut,
                          [hg, 'report', '--format', 'json', d],
                          json_out=True))
    for f in indexes(base)[:1]:
        for cut in [0, 10, 50]:
            d = hostile.copy_tree(base, os.path.join(work, 'cut-idx-%d' % cut))
            hostile.truncate(os.path.join(base, f), os.path.join(d, f), cut)
            cases.append(Case('truncated index at %d' % cut,
                              [hg, 'report', d]))
    return cases


def mkdir(work, name, files=()):
    d = os.path.join(work, name)
    os.makedirs(d)
    for fname, data in files:
        os.makedirs(os.path.dirname(os.path.join(d, fname)), exist_ok=True)
        with open(os.path.join(d, fname), 'wb') as f:
            f.write(data)
    return d


def foreign_cases(hg, base, foreign, work):
    meta = open(os.path.join(base, 'metadata'), 'rb').read()
    s = streams(base)[0]
    sdata = open(os.path.join(base, s), 'rb').read()
    garbage = bytes((i * 131 + 7) % 256 for i in range(4096))
    one = lambda d: [hg, 'report', d]  # noqa: E731
    err = (1,)
    cases = [Case('foreign trace %s' % f, one(f), err,
                  check=says('no hipgrain event')) for f in foreign]
    cases += [
        Case('empty directory', one(mkdir(work, 'empty')), err,
             check=says('no CTF trace')),
        Case('not a CTF directory', one(mkdir(work, 'notctf', [
            ('README', b'hello\n'), ('sub/data.bin', garbage)])), err),
        Case('garbage metadata', one(mkdir(work, 'garbage-meta', [
            ('metadata', garbage), (s, sdata)])), err),
        Case('text metadata, not TSDL', one(mkdir(work, 'text-meta', [
            ('metadata', b'/* CTF 1.8 */\ntrace { major = 1; minor = ;\n'),
            (s, sdata)])), err),
        Case('empty metadata', one(mkdir(work, 'empty-meta', [
            ('metadata', b''), (s, sdata)])), err),
        Case('metadata without streams', one(mkdir(work, 'meta-only', [
            ('metadata', meta)])), err),
        Case('streams without metadata', one(mkdir(work, 'no-meta', [
            (s, sdata)])), err, check=says('no CTF trace')),
        Case('garbage stream', one(mkdir(work, 'garbage-stream', [
            ('metadata', meta), (s, garbage)])), err),
        Case('nonexistent path', one(os.path.join(work, 'nowhere')), err,
             check=says('nowhere')),
        Case('regular file', one(os.path.join(base, 'metadata')), err),
        Case('/dev/null', one('/dev/null'), err),
    ]
    loop = mkdir(work, 'loop')
    os.symlink(loop, os.path.join(loop, 'again'))
    cases.append(Case('symlink loop', one(loop), err))
    d = mkdir(work, 'meta-is-dir', [('metadata/x', b''), (s, sdata)])
    cases.append(Case('metadata is a directory', one(d), err))
    # A FIFO among the stream files: nobody writes to it, so reading it
    # would block forever.
    d = hostile.copy_tree(base, os.path.join(work, 'fifo-stream'))
    os.mkfifo(os.path.join(d, 'fifo_0'))
    cases.append(Case('FIFO among the stream files', one(d), (0, 1, 2)))
    # One good trace and one bad: the report is made and marked partial.
    bad = mkdir(work, 'bad-half', [('metadata', garbage), (s, sdata)])
    cases.append(Case('good trace plus garbage trace',
                      [hg, 'report', '--format', 'json', base, bad], (0, 2),
                      json_out=True, check=is_partial))
    return cases


def main():
    hg, tracegen, cases_dir, run_build = sys.argv[1:5]
    run_build = os.environ.get('HIPGRAIN_HOSTILE_BUILD', run_build)
    tap = hostile.Tap()
    home = hostile.isolate_lttng()
    work = tempfile.mkdtemp(prefix='hghostile-report-')
    try:
        bases, foreign = tracegen_traces(tracegen, cases_dir, work)
        foreign = [foreign]
        if run_build:
            real, disabled = run_traces(run_build, work)
            bases = real + bases
            foreign.append(disabled)
        else:
            tap.skip('traces of kernels/ programs',
                     'no preload in this build; set HIPGRAIN_HOSTILE_BUILD')
        cases = zzuf_cases(hg, bases, work)
        cases += truncation_cases(hg, bases[0], work)
        cases += foreign_cases(hg, bases[0], foreign, work)
        cases += regression_cases(hg, bases[0], work)
        cases += mid_packet_cases(hg, tracegen, work)
        cases += layout_kin.layout_cases(hg, work)
        print('# %d cases on %d base traces' % (len(cases), len(bases)))
        hostile.run_all(tap, cases)
    finally:
        if os.environ.get('HIPGRAIN_HOSTILE_KEEP'):
            print('# inputs kept in %s' % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
    return tap.done()


def build_id(path):
    """The GNU build ID in an ELF64's notes (struct-level, no tools)."""
    import struct
    elf = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', elf, 40)
    shnum, = struct.unpack_from('<H', elf, 60)
    for i in range(shnum):
        typ, = struct.unpack_from('<I', elf, shoff + 64 * i + 4)
        off, size = struct.unpack_from('<QQ', elf, shoff + 64 * i + 24)
        p = off
        while typ == 7 and p + 12 <= off + size:
            nsz, dsz, t = struct.unpack_from('<III', elf, p)
            d = p + 12 + ((nsz + 3) & ~3)
            if t == 3 and elf[p + 12:p + 15] == b'GNU':
                return elf[d:d + dsz]
            p = d + ((dsz + 3) & ~3)
    return None


def patch_build_id_length(base, work, name, byte, value):
    """A copy of base with one byte of liblttng-ust's build-ID length (a
    64-bit little-endian field before the ID) set to value."""
    import struct
    bid = build_id(os.path.realpath('/usr/lib/x86_64-linux-gnu/'
                                    'liblttng-ust.so.1'))
    if not bid:
        return None
    needle = struct.pack('<Q', len(bid)) + bid
    d = hostile.copy_tree(base, os.path.join(work, name))
    for f in streams(d):
        p = os.path.join(d, f)
        data = bytearray(open(p, 'rb').read())
        i = data.find(needle)
        if i >= 0:
            data[i + byte] = value
            open(p, 'wb').write(data)
            return d
    return None


# The tail of a build_id event's user-space baddr, then a length of 20.
BUILD_ID_LEN = re.compile(rb'\x7f\x00\x00\x14\x00{7}')


def long_sequences(hg, base, work, most=8):
    cases = []
    for f in streams(base):
        data = open(os.path.join(base, f), 'rb').read()
        for m in list(BUILD_ID_LEN.finditer(data))[:most - len(cases)]:
            name = 'long-sequence-%s-%d' % (f, m.start())
            d = hostile.copy_tree(base, os.path.join(work, name))
            with open(os.path.join(d, f), 'r+b') as fo:
                fo.seek(m.start() + 4)
                fo.write(b'\x40')
            cases.append(Case('build-ID length 16404 in %s at %d' % (
                f, m.start() + 3), [hg, 'report', '--format', 'json', d],
                json_out=True))
    return cases


def huge_sequence(base, work):
    """A sequence whose length field says 2^32 + its length: here the
    lttng_ust_statedump:build_id event of liblttng-ust, found by its bytes.
    babeltrace2 2.0.4 tried to allocate the fields, failed and wrote through
    NULL (SIGSEGV); a length of 2^31 made it eat all memory instead (fixed
    by analyzer/an_bt2_guard.c)."""
    return patch_build_id_length(base, work, 'huge-sequence', 4, 1)


def regression_cases(hg, base, work):
    """Inputs that once crashed or hung `hipgrain report`."""
    cases = []
    d = huge_sequence(base, work)
    if d:
        cases.append(Case('regression: sequence length 2^32+20 (babeltrace '
                          'crash)', [hg, 'report', '--format', 'json', d],
                          json_out=True, check=says('sequence claims')))
    # A launch whose parallel argument arrays differ in length: replay
    # indexed the shorter ones past their end (SIGSEGV; an_replay_code.c).
    d = ctfgen.write(os.path.join(work, 'launch-arrays'), [ctfgen.launch(
        list(range(64)), [0x7f0000000000], [1], [0], [4], [2])])
    cases.append(Case('regression: launch arrays of different lengths',
                      [hg, 'report', '--format', 'json', d], (0,),
                      json_out=True))
    d = ctfgen.write(os.path.join(work, 'launch-packed'), [
        ctfgen.launch_packed([0x7f0000000000, 1, 0, 4 << 16 | 2 << 24, 9]),
        ctfgen.launch_packed([])])
    cases.append(Case('packed launch args: a partial group, an empty one',
                      [hg, 'report', '--format', 'json', d], (0,),
                      json_out=True))
    head = ctfgen.launch_head()
    d = ctfgen.write(os.path.join(work, 'launch-words'), [
        ctfgen.alloc_words(1, 0x7f0000000000, 4096),
        ctfgen.launch_words(head + [0x7f0000000000, 1, 0, 4 << 16 | 2 << 24,
                                    9]),
        ctfgen.launch_words(head[:3]), ctfgen.launch_words([]),
        ctfgen.free_words(1, 0x7f0000000000, 4096)])
    cases.append(Case('schema-3 words: a launch shorter than its head, a '
                      'partial argument group, an empty one',
                      [hg, 'report', '--format', 'json', d], (0,),
                      json_out=True))
    arg = [0x7f0000000000, 1, 0, 4 << 16 | 2 << 24]
    whole = ctfgen.to_bytes(5, ctfgen.byte_words(head + arg))
    d = ctfgen.write(os.path.join(work, 'launch-bytes'), [
        ctfgen.alloc_bytes(1, 0x7f0000000000, 4096),
        ctfgen.launch_bytes(head + arg + [9]),
        ctfgen.packed(5, whole[:-1]), ctfgen.packed(5, b'\x09' + whole[1:]),
        ctfgen.packed(5, b'\xff'), ctfgen.packed(5, b''),
        ctfgen.packed(6, b'\x88'), ctfgen.free_bytes(1, 0x7f0000000000, 4096)])
    cases.append(Case('schema-4 bytes: a partial argument group, bytes '
                      'missing mid-value, a length over 8, a lone tag, none',
                      [hg, 'report', '--format', 'json', d], (0,),
                      json_out=True))
    whole = ctfgen.to_bytes(8, ctfgen.v5_words(ctfgen.byte_words(head + arg)))
    wide = ctfgen.v5_words(ctfgen.byte_words(head + arg))
    wide[-1] |= 1 << 24  # codes wider than 24 bits
    d = ctfgen.write(os.path.join(work, 'launch-pack'), [
        ctfgen.alloc_pack(1, 0x7f0000000000, 4096),
        ctfgen.launch_pack(head + arg + [9]),
        ctfgen.packed(8, whole[:-1]), ctfgen.packed(8, b'\x09' + whole[1:]),
        ctfgen.packed(8, ctfgen.to_bytes(8, wide)),
        ctfgen.packed(8, b'\xff'), ctfgen.packed(8, b''),
        ctfgen.packed(9, b'\x88'), ctfgen.free_pack(1, 0x7f0000000000, 4096),
        ctfgen.free_pack(7, 0x7f0000100000, 64)])
    cases.append(Case('schema-5 pack: a partial argument group, bytes '
                      'missing mid-value, a length over 8, codes wider than '
                      '24 bits, a lone tag, none, a free of a block '
                      'never allocated',
                      [hg, 'report', '--format', 'json', d], (0,),
                      json_out=True))
    # Schema 6: the same records as sized events, whole and damaged, and
    # launches referring to heads declared or not.
    alloc = ctfgen.to_bytes(9, [1, 0x7f0000000000, 4096, 0, 0, 0,
                                20 << 32 | 1 << 40 | 1 << 48])
    free = ctfgen.to_bytes(10, [1, 0, 0, 0, 40 << 32 | 20 << 40])
    d = ctfgen.write(os.path.join(work, 'sized'), [
        ctfgen.sized(12, ctfgen.widen(alloc, 20)), ctfgen.head(1),
        ctfgen.sized(11, ctfgen.widen(ctfgen.launch_ref(1, arg), 12)),
        ctfgen.packed(14, ctfgen.launch_ref(1, arg + [9], repeat=3)),
        ctfgen.packed(14, ctfgen.launch_ref(7, arg)),
        ctfgen.packed(14, b'\x01'), ctfgen.head(0),
        ctfgen.sized(11, b'\xff' + bytes(11)),
        ctfgen.sized(11, b'\x09' + bytes(11)),
        ctfgen.sized(12, bytes(20)),
        ctfgen.sized(13, ctfgen.widen(free, 8)),
        ctfgen.sized(13, b'\x88' + bytes(7))])
    cases.append(Case('schema-6 sizes and heads: an alloc, a launch and a '
                      'free widened to their sizes, a launch of a head '
                      'never declared, one cut short, a head numbered 0, '
                      'sized events of a lone tag, a length over 8, zeros',
                      [hg, 'report', '--format', 'json', '--inventory', d],
                      (0,), json_out=True, check=sized_read))
    # Schema 7: the same records as 32-bit elements, whole and damaged.
    up4 = lambda b: ctfgen.widen(b, -(-len(b) // 4) * 4)  # noqa: E731
    d = ctfgen.write(os.path.join(work, 'quad'), [
        ctfgen.quad(16, ctfgen.widen(alloc, 20)), ctfgen.head(1),
        ctfgen.quad(18, ctfgen.widen(ctfgen.launch_ref(1, arg), 12)),
        ctfgen.quad(19, up4(ctfgen.launch_ref(1, arg + [9], repeat=3))),
        ctfgen.quad(19, up4(ctfgen.launch_ref(7, arg))),
        ctfgen.quad(19, b'\x01' + bytes(3)), ctfgen.quad(19, b''),
        ctfgen.quad(18, b'\xff' + bytes(11)),
        ctfgen.quad(18, b'\x09' + bytes(11)),
        ctfgen.quad(16, bytes(20)),
        ctfgen.quad(17, ctfgen.widen(free, 8)),
        ctfgen.quad(17, b'\x88' + bytes(7))])
    cases.append(Case('schema-7 elements: an alloc, launches and a free as '
                      '32-bit elements, a launch of a head never declared, '
                      'a lone tag, none, a length over 8, zeros',
                      [hg, 'report', '--format', 'json', '--inventory', d],
                      (0,), json_out=True, check=sized_read))
    # Schema 9: the same records as text, whole, and text that is no
    # record's: a character out of the alphabet, a length no text has, a
    # group over 2^32, and the text of bytes cut short.
    t = ctfgen.text_digits(ctfgen.widen(alloc, 20))
    long = ctfgen.launch_ref(1, arg * 12)
    d = ctfgen.write(os.path.join(work, 'text'), [
        ctfgen.text(20, ctfgen.widen(alloc, 20)), ctfgen.head(1),
        ctfgen.text(22, ctfgen.widen(ctfgen.launch_ref(1, arg), 12)),
        ctfgen.text(22, up4(ctfgen.launch_ref(1, arg + [9], repeat=3))),
        ctfgen.text(22, up4(ctfgen.launch_ref(7, arg))),
        ctfgen.text(20, chars=t[:7] + '?' + t[8:]),
        ctfgen.text(20, chars=t[:11]), ctfgen.text(22, chars='~~~~~'),
        ctfgen.text(22, chars=''), ctfgen.text(20, b'\x88' + bytes(7)),
        ctfgen.text(21, b'\x01'), ctfgen.text(21, ctfgen.widen(free, 8)),
        # longer than the reader's window: whole, cut, and damaged last
        ctfgen.text(22, long), ctfgen.text(22, long[:-5]),
        ctfgen.text(22, chars=ctfgen.text_digits(long)[:-1] + '!')])
    cases.append(Case('schema-9 text: an alloc, launches and a free as '
                      'text, a launch of a head never declared, a character '
                      'out of the alphabet, a length no text has, a group '
                      'over 2^32, none, a length over 8, bytes cut short, '
                      'a launch longer than the window',
                      [hg, 'report', '--format', 'json', '--inventory', d],
                      (0,), json_out=True, check=sized_read))
    # Schema 10: a memcpy and a memset as text, whole and damaged.
    cpy = ctfgen.to_bytes(23, [0x7f0000000000, 0x550000001000, 65536, 2, 0,
                               0x1234, 0, 1, 51 | 1 << 8 | 6 << 16 | 1 << 24])
    st = ctfgen.to_bytes(24, [0x7f0000000010, 64, 0, 0, 0, 0, 70 | 1 << 8])
    t = ctfgen.text_digits(up4(cpy))
    d = ctfgen.write(os.path.join(work, 'copytext'), [
        ctfgen.text(20, ctfgen.widen(alloc, 20)),
        ctfgen.text(21, ctfgen.widen(free, 8)), ctfgen.text(24, up4(st)),
        ctfgen.text(23, up4(cpy)), ctfgen.text(23, chars=t[:3] + ' ' + t[4:]),
        ctfgen.text(23, chars=t[:-5]), ctfgen.text(24, chars=''),
        ctfgen.text(23, cpy[:-3])])
    cases.append(Case('schema-10 text: a memset into a freed block and an '
                      'async copy from pageable memory, then copies of a '
                      'character out of the alphabet, bytes cut short, '
                      'none',
                      [hg, 'report', '--format', 'json', d],
                      (0,), json_out=True, check=copies_read))
    # Build-ID lengths made 16404, more than a packet holds, one event at a
    # time: on one of them babeltrace2 2.0.4 failed, broke its own
    # precondition and aborted (where depends on the packet's layout).
    cases += long_sequences(hg, base, work)
    # An index entry placing its packet 4 MiB into a 4 KiB stream file:
    # babeltrace2 2.0.4 failed an assertion (SIGABRT); contained as above.
    idx = indexes(base)
    if idx:
        d = hostile.copy_tree(base, os.path.join(work, 'index-offset'))
        with open(os.path.join(d, idx[0]), 'r+b') as f:
            f.seek(16)  # header: magic, major, minor, entry size
            f.write((4 << 20).to_bytes(8, 'big'))
        cases.append(Case('regression: index entry past the end of its '
                          'stream (babeltrace assertion)', [hg, 'report', d],
                          (0, 1, 2), check=says('crashed on damaged data')))
    # Packetized metadata cut inside its first packet: babeltrace 2.0.4's
    # decoder looped forever at end of file.  LTTng 2.16 writes CTF 2
    # (JSON, never packetized), so the packets are made here, whatever
    # the release.
    whole = ctfgen.write(os.path.join(work, 'meta-packets'), [
        ctfgen.launch_packed([0x7f0000000000, 1, 0, 4 << 16 | 2 << 24])],
        packets=True)
    cases.append(Case('packetized metadata, whole: read', [
        hg, 'report', '--format', 'json', whole], (0,), json_out=True))
    d = hostile.copy_tree(whole, os.path.join(work, 'meta-cut-40'))
    hostile.truncate(os.path.join(whole, 'metadata'),
                     os.path.join(d, 'metadata'), 40)
    cases.append(Case('regression: metadata cut in its first packet (hang)',
                      [hg, 'report', d], (1,),
                      check=says('damaged metadata')))
    # The same cut in the traced session's own metadata, whichever CTF its
    # LTTng writes: refused, with the metadata named.
    d = hostile.copy_tree(base, os.path.join(work, 'base-meta-cut-40'))
    hostile.truncate(os.path.join(base, 'metadata'),
                     os.path.join(d, 'metadata'), 40)
    cases.append(Case('metadata of a real session cut at 40 bytes',
                      [hg, 'report', d], (1,), check=says_any(
                          'damaged metadata', 'not a readable CTF trace')))
    # Event classes of zero bits: babeltrace2 2.0's reader delivered the
    # same empty event forever (found by fz_trace; babeltrace2 -o dummy
    # hangs on it too); 2.1 refuses the record.  Either way: an end, and
    # a report that says the trace is damaged.
    d = ctfgen.zero_bit_events(os.path.join(work, 'zero-bit-events'))
    cases.append(Case('regression: zero-bit events (hang)',
                      [hg, 'report', '--format', 'json', d], (0, 1, 3),
                      json_out=True, check=lambda p: says_any(
                          'corrupt trace', 'reading stopped early')(p)
                      or is_partial(p)))
    cases += zero_stream_cases(hg, base, work)
    return cases


def zero_stream_cases(hg, base, work):
    """Stream files a node that died mid-write leaves, with no index beside
    them: one ending in zeros after its last whole packet, one all zeros.
    babeltrace2 2.1's source took the zeros for packets and grew its index
    for minutes past 2 GB (found by fz_trace on sid), or hung.  Every whole
    packet is read, the report is partial and names the damage."""
    import hgtrace
    size = lambda f: os.path.getsize(os.path.join(base, f))  # noqa: E731
    cases = []
    # The tail on the biggest file; the zeros in place of the smallest, so
    # that the others still hold hipgrain events (all of them, on a
    # one-CPU run, may be in the biggest).
    for name, s, keep in (
            ('ending in 1909 zero bytes', max(streams(base), key=size), True),
            ('of 8192 zero bytes', min(streams(base), key=size), False)):
        d = hostile.copy_tree(base, os.path.join(
            work, 'zeros-' + ('tail' if keep else 'all')))
        shutil.rmtree(os.path.join(d, 'index'), ignore_errors=True)
        if keep:
            want = len(hgtrace.hipgrain_events(d))
            with open(os.path.join(d, s), 'ab') as f:
                f.write(bytes(1909))
        else:
            os.unlink(os.path.join(d, s))
            want = len(hgtrace.hipgrain_events(d))
            with open(os.path.join(d, s), 'wb') as f:
                f.write(bytes(8192))

        def check(proc, want=want):
            if proc.returncode == 1:  # the zeros held every hipgrain event
                return says('no whole packet at byte',
                            'no hipgrain event')(proc)
            got = json.loads(proc.stdout)['summary']['hipgrain_events']
            if got != want:
                return 'read %d hipgrain events, the whole packets hold ' \
                       '%d' % (got, want)
            return says('no whole packet at byte')(proc) or is_partial(proc)
        cases.append(Case('regression: a stream file %s (babeltrace 2.1: '
                          'minutes, gigabytes)' % name,
                          [hg, 'report', '--format', 'json', d],
                          (0,) if want else (1,), json_out=bool(want),
                          check=check))
    return cases


if __name__ == '__main__':
    sys.exit(main())
