#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What a user of `hipgrain report` notices beyond single rules: failed
calls without a GPU, many processes in one report, bad input, partial
traces, call-site symbols, the inventory, colour and exit codes, what the
driver said (its granularity, the migrations it reported).

usage: test_report.py HIPGRAIN TRACEGEN
"""
import atexit
import json
import os
import re
import select
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import hgrun  # noqa: E402
import hgtrace  # noqa: E402
from lttng_session import Tracing  # noqa: E402

HIPGRAIN, TRACEGEN = sys.argv[1], sys.argv[2]
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cases')
TMP = tempfile.mkdtemp(prefix='hgreport-')
atexit.register(shutil.rmtree, TMP, True)  # on every way out
results = []

NO_GPU = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=100 arch= name=
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
repeat 3
alloc id=0 api=20 addr=0 size=4096 mem=1 gran=1 rc=101
end
launch handle=0x1000 rc=100
launch handle=0x1000 rc=100 repeat=4
"""

# A GPU, a kernel registered and memory allocated, and no launch at all.
NO_LAUNCH = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1
free id=1 api=40 addr=0x7f0000000000 alloc_api=20
"""

BIG = """process ppid=1 exe=/bin/app version=0.1.0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
function handle=0x1000 name=_Z3sumPfS_i
kernel handle=0x1000 name=_Z3sumPfS_i target=gfx90a xnack=1 fp_ops=0x10000 fp_mnemonics=global_atomic_add_f32 arg_kind=2
repeat 20000
alloc id=%i api=22 addr=0x7f0000000000 size=4096 mem=4 gran=2
launch handle=0x1000 arg_index=0 arg_value=0x7f0000000000 arg_id=%i arg_mem=4 arg_gran=2
free id=%i api=41 addr=0x7f0000000000 alloc_api=22
end
"""


# A managed block whose SVM range lost COHERENT, prefetched: one prefetch
# that starts 1 MiB before the block (half of it is the block's), one GPU
# fault inside it, one over no block, and one over a block freed before.
MIGRATE = """process ppid=1 exe=/bin/app version=0.1.0
env name=HSA_XNACK value=1
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack+ name=MI210 xnack=3
kfd_smi_open gpu_id=14972 rc=0
callsite id=7 frames=self
kfd_svm start=0x7f0000000000 size=1048576 op=0 attrs=2,14972
alloc id=1 api=21 addr=0x7f0000000000 size=1048576 mem=3 gran=2 callsite=7
kfd_svm start=0x7f0000000000 size=1048576 op=0 attrs=6,2
kfd_svm start=0x7f0000000000 size=1048576 op=0 attrs=1,14972
alloc id=2 api=21 addr=0x7e0000000000 size=65536 mem=3 gran=2 callsite=7
free id=2 api=40 addr=0x7e0000000000 alloc_api=21
prefetch api=80 addr=0x7f0000000000 size=1048576 device=0 id=1 mem=3
kfd_smi kind=5 trigger=0 addr=0x7efffff00000 size=2097152 from=0 to=14972 node=14972 ns=1000000
kfd_smi kind=6 trigger=0 addr=0x7efffff00000 size=2097152 from=0 to=14972 node=14972 ns=1047951
kfd_smi kind=5 trigger=1 addr=0x7f0000010000 size=65536 from=0 to=14972 node=14972 ns=2000000
kfd_smi kind=6 trigger=1 addr=0x7f0000010000 size=65536 from=0 to=14972 node=14972 ns=2001000
kfd_smi kind=5 trigger=1 addr=0x7d0000000000 size=4096 from=0 to=14972 node=14972 ns=3000000
kfd_smi kind=5 trigger=3 addr=0x7e0000000000 size=65536 from=14972 to=0 node=14972 ns=4000000
"""

# The SMI files of both GPUs would not open (EACCES); said once for every
# process it happened in.
SMI_DENIED = """process ppid=1 exe=/bin/app version=0.1.0
kfd_smi_open gpu_id=14972 rc=-13
kfd_smi_open gpu_id=21000 rc=-13
alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1
"""


def check(name, cond, detail=''):
    results.append((name, bool(cond), detail))


def script(name, text):
    path = os.path.join(TMP, name + '.tg')
    with open(path, 'w') as f:
        f.write(text)
    return path


def trace(name, *scripts):
    out = os.path.join(TMP, name)
    with Tracing(out) as t:
        for s in scripts:
            r = t.run([TRACEGEN, s])
            assert r.returncode == 0, r.stderr
    return out


def report(*args, env=None):
    e = dict(os.environ, NO_COLOR='1')
    e.update(env or {})
    return subprocess.run([HIPGRAIN, 'report'] + list(args),
                          capture_output=True, text=True, env=e)


DAMAGED_SUPP = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'bt2-damaged.supp')


def report_damaged(*args):
    """report() on a trace cut on purpose: babeltrace2's own leak on a cut
    packet is not ours (bt2-damaged.supp); every other read keeps the
    sanitizers' full leak check."""
    lsan = ':'.join(filter(None, [os.environ.get('LSAN_OPTIONS', ''),
                                  'suppressions=' + DAMAGED_SUPP]))
    return report(*args, env={'LSAN_OPTIONS': lsan})


def test_no_gpu():
    t = trace('nogpu', script('nogpu', NO_GPU))
    r = report(t)
    check('no GPU: report made', r.returncode == 0, r.stderr)
    check('no GPU: failed hipMalloc summarised',
          'hipMalloc failed 3× with hipErrorInvalidDevice: no usable GPU'
          in r.stdout, r.stdout)
    check('no GPU: kernel static facts', 'sum(float*, float*, int)' in
          r.stdout and 'no launch of it ran on a GPU' in r.stdout, r.stdout)
    check('no GPU: said first, with what to do',
          r.stdout.startswith('no usable GPU: no kernel ran') and
          '--virtual-gpu' in r.stdout.splitlines()[0], r.stdout)
    doc = json.loads(report('--format', 'json', t).stdout)
    fails = {f['api']: f for f in doc['summary']['failed_calls']}
    check('no GPU: JSON notice', (doc['summary'].get('notice') or '')
          .startswith('no usable GPU'), doc['summary'].get('notice'))
    check('no GPU: JSON failed calls', fails.get('hipMalloc', {}).get(
        'count') == 3 and fails['hipMalloc']['error'] ==
        'hipErrorInvalidDevice', fails)
    check('no GPU: counted failed launches weigh what they stand for',
          fails.get('hipLaunchKernel', {}).get('count') == 5, fails)
    two = trace('nogpu2', script('nogpu2a', NO_GPU), script('nogpu2b', NO_GPU))
    notes = report(two).stdout.split('notes on the trace:')[-1].splitlines()
    said = [n for n in notes if 'no launch of it ran on a GPU' in n]
    check('two processes, one note: said once', len(said) == 1, notes)


# One merged report over runs on two virtual GPUs and none (issue 38, 7):
# each process keeps its GPU, and a failed call its own reason.  The rank
# tells the processes apart in every format.
ON_VGPU = """process ppid=1 exe=/bin/app version=0.1.0
env name=OMPI_COMM_WORLD_RANK value=%(n)d
env name=HIPGRAIN_VIRTUAL_GPU value=%(gpu)s
env name=HIPGRAIN_VGPU_EXEC value=%(exec)d
device ordinal=0 rc=0 arch=%(arch)s name=%(gpu)s xnack=2
alloc id=0 api=20 addr=0 size=4096 mem=1 gran=1 rc=2
"""


def test_mixed_gpus():
    mi210 = ON_VGPU % {'n': 1, 'gpu': 'MI210', 'exec': 1,
                       'arch': 'gfx90a:sramecc+:xnack-'}
    mi300 = ON_VGPU % {'n': 2, 'gpu': 'MI300X', 'exec': 0,
                       'arch': 'gfx942:sramecc+:xnack-'}
    none = NO_GPU.replace('\n', '\nenv name=OMPI_COMM_WORLD_RANK value=3\n', 1)
    t = trace('mixed', script('mixed1', mi210), script('mixed2', mi300),
              script('mixed3', none))
    out = report(t).stdout
    head = out.split('\n\n', 1)[0].splitlines()
    on = {r: ' '.join(ln for ln in head if 'rank %d' % r in ln)
          for r in (1, 2, 3)}
    check('mixed GPUs: each process names its own',
          'virtual MI210' in on[1] and 'interpreter' in on[1] and
          'virtual MI300X' in on[2] and 'not executed' in on[2] and
          'no usable GPU' in on[3] and
          'MI210' not in on[2] + on[3], head)
    fails = [ln.strip() for ln in out.split('failed runtime calls:')[-1]
             .split('\n\n')[0].splitlines() if 'failed' in ln]
    check('mixed GPUs: a failed call on a GPU has no "no usable GPU"',
          'hipMalloc failed 2× with hipErrorOutOfMemory' in fails and
          'hipMalloc failed 3× with hipErrorInvalidDevice: no usable GPU'
          in fails, fails)
    doc = json.loads(report('--format', 'json', t).stdout)
    gpus = {p['process'].rsplit('rank ', 1)[-1]: p.get('gpu') or {}
            for p in doc['processes']}
    check('mixed GPUs: JSON gives each process its GPU',
          gpus.get('1', {}).get('virtual') == 'MI210' and
          gpus.get('1', {}).get('executed') is True and
          gpus.get('2', {}).get('virtual') == 'MI300X' and
          gpus.get('2', {}).get('executed') is False and
          (gpus.get('2', {}).get('arch') or '').startswith('gfx942') and
          gpus.get('3', {}).get('usable') is False, gpus)
    sarif = json.loads(report('--format', 'sarif', t).stdout)
    notes = [n['message']['text'] for n in
             sarif['runs'][0]['invocations'][0]['toolExecutionNotifications']]
    check('mixed GPUs: SARIF notes each GPU with its processes',
          any('rank 1' in n and 'MI210' in n and 'interpreter' in n
              for n in notes) and
          any('rank 2' in n and 'MI300X' in n for n in notes) and
          any('rank 3' in n and 'no usable GPU' in n for n in notes), notes)


def test_no_launch():
    t = trace('nolaunch', script('nolaunch', NO_LAUNCH))
    r = report(t)
    check('no launch: said first', r.returncode == 0 and
          r.stdout.startswith('no kernel was launched:'), r.stdout)
    doc = json.loads(report('--format', 'json', t).stdout)
    check('no launch: JSON notice', (doc['summary'].get('notice') or '')
          .startswith('no kernel was launched'), doc['summary'])
    # The near miss: the same program with one launch that ran.
    ran = NO_LAUNCH.replace('free id=1', 'launch handle=0x1000 '
                            'arg_index=0 arg_value=0x7f0000000000 arg_id=1 '
                            'arg_mem=1 arg_gran=1\nfree id=1')
    r = report(trace('launched', script('launched', ran)))
    check('a launch that ran: no notice', r.returncode == 0 and not
          r.stdout.startswith('no kernel was launched'), r.stdout)


def test_many_processes():
    case = os.path.join(CASES, 'fp_atomic_host.fire.tg')
    t = trace('multi', case, case)
    doc = json.loads(report('--format', 'json', t).stdout)
    fp = [f for f in doc['findings'] if f['rule'] == 'fp-atomic-fine-grain']
    check('two processes: one merged finding', len(fp) == 1, fp)
    check('two processes: counts add up', fp and fp[0]['count'] == 4, fp)
    check('two processes: both named', fp and
          fp[0]['where']['processes'] == 2, fp)
    check('two processes: summary', doc['summary']['processes'] == 2)
    # One other process is one, in the text and the HTML alike (issue 48, 8).
    text = report(t).stdout
    html = report('--format', 'html', t).stdout
    check('two processes: "and 1 other process", in the singular',
          'and 1 other process\n' in text and 'and 1 other process<' in html
          and '1 other processes' not in text + html, text)
    return t


def test_symbols_inventory_colour(t):
    doc = json.loads(report('--format', 'json', '--inventory', t).stdout)
    f = doc['findings'][0]
    cs = f['allocation']['callsite']
    check('call site symbolised', cs and cs[0]['file'].endswith('tg_emit.c')
          and cs[0]['function'] == 'tg_callsite' and cs[0]['line'] > 0, cs)
    site = f['allocation'].get('site') or {}
    check('JSON: site is the frame the text names, no frame a runtime '
          'header', site.get('file', '').endswith('tg_emit.c') and
          site.get('line') == cs[0]['line'] and
          all(fr['runtime_header'] is False for fr in cs),
          f['allocation'])
    check('kernel demangled', f['kernel'] == {
        'name': '_Z3sumPfS_i', 'demangled': 'sum(float*, float*, int)'})
    inv = doc['inventory']['by_allocator']
    check('inventory by allocator', any(
        b['api'] == 'hipHostMalloc' and b['granularity'] == 'fine' and
        b['bytes'] == 8192 for b in inv), inv)
    text = report('--inventory', t).stdout
    check('inventory in text', 'allocation inventory' in text and
          'largest allocations' in text, text)
    check('no colour when piped', '\033[' not in text)
    check('colour when asked', '\033[' in report('--color', 'always', t).stdout)
    check('--fail-on error exits 2', report('--fail-on', 'error', t).returncode == 2)
    clean = trace('clean', os.path.join(CASES, 'leak_freed.miss.tg'))
    check('--fail-on with nothing to report exits 0',
          report('--fail-on', 'note', clean).returncode == 0)


def into_fifo(args):
    """What report writes with args + ['-o' or '--summary', a FIFO]: the
    bytes a reader of the FIFO got, whether the path is still a FIFO, and
    the exit status.  Read while it runs, so a pipe's buffer never fills."""
    fifo = os.path.join(TMP, 'fifo')
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    e = dict(os.environ, NO_COLOR='1')
    p = subprocess.Popen([HIPGRAIN, 'report'] + args[:-1] + [fifo, args[-1]],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=e)
    got = b''
    while True:
        done = p.poll() is not None
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            chunk = None
        if chunk:
            got += chunk
        elif done:
            break
        else:
            select.select([fd], [], [], 0.05)
    os.close(fd)
    p.stderr.read()
    p.stderr.close()
    return got, stat.S_ISFIFO(os.lstat(fifo).st_mode), p.returncode


def test_output_in_place(t):
    """-o and --summary on what is not a regular file (/dev/null, a FIFO)
    write into it: renaming a finished file over it, as a regular file is
    replaced, would replace the node, and /dev/null with it."""
    got, fifo, rc = into_fifo(['--format', 'json', '-o', t])
    check('-o FIFO: the report goes through it, the FIFO stays',
          fifo and rc == 0 and b'"findings"' in got, (fifo, rc, got[:200]))
    got, fifo, rc = into_fifo(['--summary', t])
    check('--summary FIFO: the summary goes through it, the FIFO stays',
          fifo and rc == 0 and len(got) > 0, (fifo, rc, len(got)))


def test_bad_input():
    r = report(os.path.join(TMP, 'does-not-exist'))
    check('missing input: exit 1 and a message', r.returncode == 1 and
          'does-not-exist' in r.stderr, r.stderr)
    empty = os.path.join(TMP, 'emptydir')
    os.mkdir(empty)
    r = report(empty)
    check('empty dir: no CTF trace', r.returncode == 1 and
          'no CTF trace' in r.stderr, r.stderr)
    junk = os.path.join(TMP, 'junk')
    os.mkdir(junk)
    with open(os.path.join(junk, 'metadata'), 'w') as f:
        f.write('this is not TSDL\n')
    r = report(junk)
    check('corrupt metadata: clear message', r.returncode == 1 and
          'not a readable CTF trace' in r.stderr, r.stderr)
    foreign = trace('foreign', script('empty', '# nothing\n'))
    r = report(foreign)
    check('not a hipgrain trace', r.returncode == 1 and
          'no hipgrain event' in r.stderr, r.stderr)
    r = report(empty, '--format', 'xml')
    check('bad option: usage exit 64', r.returncode == 64)


def test_truncated():
    t = trace('big', script('big', BIG))
    full = json.loads(report('--format', 'json', t).stdout)
    cut = shutil.copytree(t, os.path.join(TMP, 'cut'))
    streams = []
    for root, _, files in os.walk(cut):
        streams += [os.path.join(root, f) for f in files
                    if f.startswith('ch_') and 'index' not in root]
    biggest = max(streams, key=os.path.getsize)
    with open(biggest, 'r+b') as f:
        f.truncate(os.path.getsize(biggest) * 2 // 3 + 7)
    shutil.rmtree(os.path.join(os.path.dirname(biggest), 'index'),
                  ignore_errors=True)
    r = report_damaged('--format', 'json', cut)
    check('truncated: still a report', r.returncode == 0, r.stderr)
    if r.returncode == 0:
        doc = json.loads(r.stdout)
        check('truncated: marked partial', doc['summary']['partial'], doc)
        check('truncated: fewer events', doc['summary']['events'] <
              full['summary']['events'])
        check('truncated: says why on stderr', 'hipgrain report:' in r.stderr)


def cut_streams(src, name, size):
    """A copy of trace src with every stream file cut to size bytes."""
    cut = shutil.copytree(src, os.path.join(TMP, name))
    for root, _, files in os.walk(cut):
        for f in files:
            if f not in ('metadata', 'expected.json') and 'index' not in root:
                with open(os.path.join(root, f), 'r+b') as fh:
                    fh.truncate(size)
        if root.endswith('index'):
            shutil.rmtree(root, ignore_errors=True)
    return cut


def test_truncated_to_nothing():
    """A trace cut before its first hipgrain event: the message names what
    the user gave, never the salvaged copy in the temporary directory."""
    runs = os.path.join('fixtures', 'schema1', 'arraysum_unsafe-hostmalloc')
    for cut in (cut_streams(trace('tiny', script('tiny', BIG)), 'cut-1000',
                            1000),
                cut_streams(runs, 'cut-100', 100)):
        r = report_damaged(cut)
        check(f'{os.path.basename(cut)}: no temporary path in what it says',
              'hipgrain-salvage' not in r.stderr + r.stdout and
              (r.returncode == 0 or cut in r.stderr), r.stderr)


def test_cut_in_an_event():
    """A real run's trace whose streams end inside an event: the report
    reads each up to its last whole event, and babeltrace2 never aborts on
    the failure it left behind (it did, on the salvaged copy).  Cut later,
    more of the run is read, never less."""
    runs = os.path.join('fixtures', 'schema1', 'arraysum_unsafe-hostmalloc')
    read = []
    for size in (100, 300, 1000, 3000):
        r = report_damaged(cut_streams(runs, f'cut-event-{size}', size))
        said = r.stderr + r.stdout
        check(f'cut at {size} bytes: read without babeltrace2 aborting',
              'crashed' not in said and 'Aborting' not in said and
              r.returncode in (0, 1, 2), said)
        m = re.search(r'; (\d+) events read', said)
        read.append(int(m.group(1)) if m else 0)
    check('the later the cut, the more events are read', read == sorted(read)
          and read[-1] > 0, read)


FOLD = '''process ppid=1 exe=/bin/app version=0.1.0
env name=HSA_XNACK value=0
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
callsite id=7 frames=0x10
callsite id=8 frames=0x20
callsite id=9 frames=0x30
kernel handle=0x1000 name=_Z3addPfS_S_i target=gfx90a xnack=1 arg_kind=2,2,2,1
alloc id=1 api=1 addr=0x55550000a010 size=4096 mem=6 gran=2 lazy=1 callsite=7
alloc id=2 api=1 addr=0x55550001a010 size=4096 mem=6 gran=2 lazy=1 callsite=8
alloc id=3 api=1 addr=0x55550002a010 size=4096 mem=6 gran=2 lazy=1 callsite=9
launch handle=0x1000 arg_index=0,1,2 arg_value=0x55550000a010,0x55550001a010,0x55550002a010 arg_id=1,2,3 arg_mem=6,6,6 arg_gran=2,2,2
'''


def test_fold():
    """Three arguments of one launch in malloc memory: one finding that
    names them in order, each with its allocation."""
    t = trace('fold', script('fold', FOLD))
    doc = json.loads(report('--format', 'json', t).stdout)
    f = doc['findings']
    check('fold: one finding for three arguments', len(f) == 1 and
          doc['summary']['findings'] == 1, [x['message'] for x in f])
    if f:
        check('fold: named in argument order', 'as arguments 0, 1 and 2 '
              in f[0]['message'] and [a['index'] for a in
                                      f[0].get('arguments', [])] == [0, 1, 2],
              f[0])
    r = report(t)
    check('fold: text lists each argument\'s allocation',
          [ln.split(':')[0].strip() for ln in r.stdout.splitlines()
           if ln.strip().startswith('argument ')] ==
          ['argument 0', 'argument 1', 'argument 2'], r.stdout)


SCHEMA = '''process ppid=1 exe=/opt/cfd/bin/solver version=9.9.9 schema=%d
device ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI210 xnack=2
alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1
'''


def current_schema():
    """HG_TRACE_SCHEMA, from the header the preload and report share."""
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'common', 'hg_events.h')
    return int(re.search(r'#define HG_TRACE_SCHEMA (\d+)',
                         open(h).read()).group(1))


def test_schema():
    cur = current_schema()
    newer = trace('newer', script('newer', SCHEMA % (cur + 1)))
    r = report(newer)
    check('newer schema: refused', r.returncode == 1 and
          f'trace schema {cur + 1} is newer than this hipgrain reads ({cur}); '
          'upgrade hipgrain' in r.stderr, (r.returncode, r.stderr))
    check('newer schema: no report made', 'finding' not in r.stdout,
          r.stdout)
    same = trace('same', script('same', SCHEMA % cur))
    r = report('--format', 'json', same)
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    leak = [f for f in doc.get('findings', []) if f['rule'] == 'gpu-leak']
    check('this schema: read', r.returncode == 0 and leak, r.stderr)
    check('a process is named by its image, not a context field',
          leak and leak[0]['where']['process'].startswith('solver['), leak)


def largest(doc, api):
    return next((a for a in doc['inventory']['largest'] if a['api'] == api),
                {})


def test_migrations():
    t = trace('migrate', script('migrate', MIGRATE))
    doc = json.loads(report('--format', 'json', '--inventory', t).stdout)
    want = {'prefetch': 1, 'gpu_fault': 1, 'cpu_fault': 0, 'eviction': 0,
            'bytes': 1048576 + 65536}
    mig = doc['inventory']['migrated']
    check('migrations: counted on the block they overlap', len(mig) == 1 and
          mig[0]['migrations'] == want, mig)
    check('migrations: also on the block in largest',
          largest(doc, 'hipMallocManaged').get('migrations') == want,
          doc['inventory']['largest'])
    # node: the driver's id; gpu: that GPU's index, as the user counts
    # them (the trace's SMI file was opened on it first).
    drv = {'granularity': 'coarse', 'domain': 'svm', 'flags': ['host_access'],
           'cleared': ['coherent'], 'node': 14972, 'gpu': 0}
    check('driver: SVM range in the inventory',
          largest(doc, 'hipMallocManaged').get('driver') == drv,
          largest(doc, 'hipMallocManaged'))
    diff = [f for f in doc['findings']
            if f['rule'] == 'runtime-granularity-differs']
    check('driver: in a finding\'s allocation', diff and
          diff[0]['allocation'].get('driver') == drv, diff)
    text = report('--inventory', t).stdout
    check('migrations: a line in the text inventory',
          re.search(r'hipMallocManaged .*: 1 prefetch, 1 gpu_fault, '
                    r'1\.1 MiB moved', text), text)
    pf = json.loads(report('--format', 'perfetto', t).stdout)
    sl = [e for e in pf['traceEvents'] if e.get('cat') == 'migration']
    check('migrations: Perfetto slices, timed by the driver', len(sl) == 4
          and sl[0]['name'] == 'migrate prefetch 2.0 MiB system→GPU' and
          abs(sl[0]['dur'] - 47.951) < 1e-6 and
          sl[0]['args']['trigger'] == 'prefetch', sl)
    html = report('--format', 'html', t).stdout
    check('migrations: marked on the HTML timeline', 'class="mig"' in html)
    ev = hgtrace.hipgrain_events(t)
    svm = [e['pairs'] for e in ev if e['event'] == 'kfd_svm']
    check('hgtrace: kfd_svm attributes as pairs',
          svm == [[(2, 14972)], [(6, 2)], [(1, 14972)]], svm)
    check('hgtrace: the driver events read', [e['event'] for e in ev
          if e['event'].startswith('kfd_smi')] == ['kfd_smi_open'] +
          ['kfd_smi'] * 6, ev)


def test_smi_denied():
    t = trace('denied', script('denied', SMI_DENIED),
              script('denied1', SMI_DENIED), script('denied2', MIGRATE))
    doc = json.loads(report('--format', 'json', t).stdout)
    notes = [w for w in doc['warnings'] if 'SMI' in w]
    check('SMI unavailable: said once', len(notes) == 1 and
          'GPU 0 could not be opened in app[' in notes[0] and
          'Permission denied' in notes[0] and
          'migrations, faults and evictions there were not observed'
          in notes[0] and 'and other processes' in notes[0],
          doc['warnings'])
    clean = json.loads(report('--format', 'json',
                              trace('opened', script('opened', MIGRATE))).stdout)
    check('SMI opened: no note', not [w for w in clean['warnings']
                                      if 'SMI' in w], clean['warnings'])


def test_run_end():
    """`hipgrain run` records how its program ended; the report says it."""
    out = os.path.join(TMP, 'killed')
    # no daemon of the machine's, nor of a test beside this one
    r = subprocess.run(hgrun.hermetic([HIPGRAIN, 'run', '-q', '--no-report',
                                       '-o', out, '--', 'sh', '-c',
                                       'kill -SEGV $$']),
                       capture_output=True, text=True)
    if r.returncode == 125 and 'libhipgrain-preload' in r.stderr:
        print('skip: run: a sanitized build has no preload to run with')
        return
    check('run: the program\'s status passed through', r.returncode == 139,
          r.stderr)
    text = report(out).stdout
    check('run: the report says how it ended',
          'killed by SIGSEGV' in text.split('\n\n')[0], text)
    doc = json.loads(report('--format', 'json', out).stdout)
    procs = [p for p in doc['processes'] if p['ended']]
    check('run: JSON says how it ended',
          len(procs) == 1 and procs[0]['signal'] == 'SIGSEGV' and
          procs[0]['exit_status'] is None and not procs[0]['leaks_judged'],
          doc['processes'])


def test_launchers_folded():
    """An MPI job's launcher and daemon, which did nothing GPU-related, get
    no placement map each ("orterun ... peak 0 B live"): one line names
    them after the rank's map (issue 48, 8)."""
    launcher = script('mpirun', 'process ppid=1 exe=/usr/bin/mpirun '
                      'version=0.1.0\n')
    daemon = script('orted', 'process ppid=1 exe=/usr/bin/orted '
                    'version=0.1.0\n')
    rank = script('rank', NO_LAUNCH.replace('free id=1', 'launch '
                  'handle=0x1000 arg_index=0 arg_value=0x7f0000000000 '
                  'arg_id=1 arg_mem=1 arg_gran=1\nfree id=1'))
    html = report('--format', 'html',
                  trace('launchers', launcher, daemon, rank)).stdout
    maps = html.count('<div class="proc">')
    idle = html.split('<p class="idle">', 1)[-1].split('</p>', 1)[0]
    check('launchers: one placement map, the rank\'s', maps == 1 and
          'peak 0 B' not in html, maps)
    check('launchers: named together in one line', 'mpirun' in idle and
          'orted' in idle and 'app' not in idle, idle)


VISIBLE = """process ppid=1 exe=/bin/app version=0.1.0
env name=HIPGRAIN_VIRTUAL_GPU value=4xMI250X
env name=HIP_VISIBLE_DEVICES value=1
%(rocr)sdevice ordinal=0 rc=0 arch=gfx90a:sramecc+:xnack- name=MI250X xnack=2
callsite id=7 frames=self
kfd_smi_open gpu_id=41001 rc=0
kfd_smi_open gpu_id=41002 rc=0
kfd_smi_open gpu_id=41003 rc=0
kfd_smi_open gpu_id=41004 rc=0
kfd_alloc va=0x7f0000000000 size=8192 handle=0xa02000000000001 cpu=0 flags=0x1 gpu_id=%(bo)s
alloc id=1 api=20 addr=0x7f0000000000 size=4096 mem=1 gran=1 callsite=7
"""


def test_visible_devices():
    """HIP_VISIBLE_DEVICES=1 picks the second GPU ROCr shows: the node's
    GPU 1, or GPU 3 under ROCR_VISIBLE_DEVICES=2,3.  The where line names
    the GPU the driver line does, one story (issue 48, 8)."""
    for rocr, bo, gpu in (('', 41002, 'GPU 1 (MI250X, card 0\'s second GCD)'),
                          ('env name=ROCR_VISIBLE_DEVICES value=2,3\n', 41004,
                           'GPU 3 (MI250X, card 1\'s second GCD)')):
        name = 'visible%d' % bo
        out = report(trace(name, script(name, VISIBLE % {
            'rocr': rocr, 'bo': bo}))).stdout
        where = [ln for ln in out.splitlines() if 'where:' in ln]
        drv = [ln for ln in out.splitlines() if 'driver:' in ln]
        check('HIP_VISIBLE_DEVICES=1%s: where and driver name %s' % (
              ' under ROCR_VISIBLE_DEVICES=2,3' if rocr else '', gpu),
              len(where) == 1 and where[0].endswith(gpu) and
              len(drv) == 1 and drv[0].endswith(gpu), out)


def main():
    try:
        test_visible_devices()
        test_launchers_folded()
        test_run_end()
        test_migrations()
        test_smi_denied()
        test_no_gpu()
        test_mixed_gpus()
        test_no_launch()
        test_schema()
        many = test_many_processes()
        test_symbols_inventory_colour(many)
        test_output_in_place(many)
        test_bad_input()
        test_truncated()
        test_truncated_to_nothing()
        test_cut_in_an_event()
        test_fold()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    bad = 0
    for name, ok, detail in results:
        print('%s: %s' % ('ok' if ok else 'FAIL', name))
        if not ok:
            bad += 1
            print('    ' + str(detail)[:2000])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
