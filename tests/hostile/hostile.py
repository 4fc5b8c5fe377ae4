# SPDX-License-Identifier: MIT
"""Hostile-input cases for hipgrain's readers: run, judge, mutate.

A case is one hipgrain command on one damaged input.  Whatever the input, a
user must get a report (maybe marked partial) or a clear error, never a
crash, a hang or a sanitizer report.  Mutations are reproducible: zzuf with
fixed seeds and ratios, truncations at fixed offsets.
"""
import concurrent.futures
import ctypes
import json
import os
import re
import shutil
import subprocess
import tempfile

TIMEOUT_S = 20
# 0 report made (maybe partial), 1 clear error, 2 findings over --fail-on,
# 3 a report whose verdicts were withheld for want of events (damage does
# that: report --help).
ALLOWED = (0, 1, 2, 3)
REPORTED = (0, 2, 3)
SANITIZER = ('AddressSanitizer', 'LeakSanitizer', 'runtime error:',
             'ThreadSanitizer', 'MemorySanitizer')
OWN_MSG = re.compile(r'^hipgrain( [a-z]+)?: \S', re.M)


def isolate_lttng():
    """Keep other runs' session daemons out of this process's sight.

    Concurrent test runs share /var/run/lttng as root: `hipgrain run` would
    reuse a daemon another run may kill halfway.  Root gets a private mount
    namespace with an empty tmpfs there, so `hipgrain run` starts its own;
    a user gets a fresh HOME/LTTNG_HOME.  (lttng_session.Tracing isolates
    itself.)  Returns a directory to remove at the end.
    """
    home = tempfile.mkdtemp(prefix='hghostile-home-')
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        ms_rec, ms_private, clone_newns = 0x4000, 0x40000, 0x20000
        if (libc.unshare(clone_newns) == 0 and
                libc.mount(None, b'/', None, ms_rec | ms_private, None) == 0 and
                libc.mount(b'hghostile', b'/var/run/lttng', b'tmpfs', 0,
                           b'mode=0755') == 0):
            return home
    os.environ['HOME'] = home
    os.environ['LTTNG_HOME'] = home
    return home


def zzuf(src, dst, seed, ratio, byte_range=None):
    """dst = src with bits flipped by zzuf (seed and ratio fixed)."""
    cmd = ['zzuf', '-s', str(seed), '-r', ratio]
    if byte_range:
        cmd += ['-b', byte_range]
    with open(src, 'rb') as fi, open(dst, 'wb') as fo:
        subprocess.run(cmd, stdin=fi, stdout=fo, check=True)


def truncate(src, dst, length):
    with open(src, 'rb') as f:
        data = f.read(length)
    with open(dst, 'wb') as f:
        f.write(data)


def copy_tree(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    return dst


class Case:
    """argv to run, and what else the outcome must satisfy.

    expect: None (any allowed status) or a tuple of allowed statuses.
    json_out: stdout must parse as JSON when the status is 0 or 2.
    check(proc) -> error text or None, for case-specific expectations.
    """

    def __init__(self, name, argv, expect=None, json_out=False, check=None,
                 stdin=None, mem_mb=None):
        self.name, self.argv, self.expect = name, argv, expect
        self.json_out, self.check, self.stdin = json_out, check, stdin
        self.mem_mb = mem_mb  # a tighter address-space cap than MEM_LIMIT


MEM_LIMIT = 4 << 30


def sanitizer_env(leaks=True):
    env = dict(os.environ)
    # A damaged length can make a reader allocate without bound: fail the
    # allocation rather than swap the machine to death (see limit_memory).
    env['ASAN_OPTIONS'] = ('abort_on_error=0:detect_leaks=%d:'
                           'allocator_may_return_null=1:'
                           'max_allocation_size_mb=%d' % (leaks,
                                                          MEM_LIMIT >> 20))
    env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1')
    env['NO_COLOR'] = '1'
    env.pop('LD_PRELOAD', None)
    return env


# A leak's first frame past the allocator: who called malloc.  That frame is
# always right (the interceptor keeps a frame pointer); frames further up
# may not be, since libbabeltrace2 and glib are built without them.
LEAK_CALLER = re.compile(r'^(?:Direct|Indirect) leak of .*\n(?:.*\n)*?'
                         r'\s+#1 (.*)', re.M)
OUR_SOURCES = re.compile(r'\.\./(analyzer|codeobj|cli|common|tracer)/')


def foreign_leaks_only(err):
    """Whether a leak report names only allocations made by libraries.

    libbabeltrace2 2.0.4 leaks on its own error paths, which damaged
    traces reach; that is not ours to fix.  Leaks of memory our code
    allocated (its frame calls malloc) are.
    """
    callers = LEAK_CALLER.findall(err)
    return bool(callers) and not any(OUR_SOURCES.search(c) for c in callers)


def says(*words):
    """A case check: stderr names every one of words."""
    def check(proc):
        missing = [w for w in words if w not in proc.stderr]
        return 'message lacks %s: %s' % (missing, proc.stderr.strip()) \
            if missing else None
    return check


def says_any(*words):
    """A case check: stderr names at least one of words (readers of
    different releases word the same refusal differently)."""
    def check(proc):
        return None if any(w in proc.stderr for w in words) else \
            'message has none of %s: %s' % (list(words), proc.stderr.strip())
    return check


def judge(case, proc):
    """Everything wrong with one outcome, as a list of strings."""
    errs = []
    rc, err = proc.returncode, proc.stderr
    if rc not in ALLOWED:
        errs.append('exit status %d (%s)' %
                    (rc, 'signal %d' % -rc if rc < 0 else 'not 0/1/2/3'))
    if case.expect and rc not in case.expect:
        errs.append('exit status %d, expected one of %s' % (rc, case.expect))
    for s in SANITIZER:
        if s in err:
            errs.append('sanitizer report: ' + s)
    if rc == 1 and not OWN_MSG.search(err):
        errs.append('exit status 1 without a "hipgrain ...:" message')
    if rc in (2, 3) and not proc.stdout.strip():
        errs.append('exit status %d with no report' % rc)
    if case.json_out and rc in REPORTED:
        try:
            json.loads(proc.stdout)
        except ValueError as e:
            errs.append('stdout is not JSON: %s' % e)
    if case.check and not errs:
        msg = case.check(proc)
        if msg:
            errs.append(msg)
    return errs


def limit_memory(limit=MEM_LIMIT):
    """Address-space cap for a child, except under ASan (its shadow memory
    needs terabytes of address space; max_allocation_size_mb caps it)."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


_asan = {}


def is_asan(exe):
    if exe not in _asan:
        with open(exe, 'rb') as f:
            _asan[exe] = b'__asan_init' in f.read()
    return _asan[exe]


def run_once(case, leaks):
    stdin = open(case.stdin, 'rb') if case.stdin else subprocess.DEVNULL
    cap = (case.mem_mb << 20) if case.mem_mb else MEM_LIMIT
    limit = None if is_asan(case.argv[0]) else lambda: limit_memory(cap)
    try:
        proc = subprocess.run(case.argv, stdin=stdin, capture_output=True,
                              env=sanitizer_env(leaks), timeout=TIMEOUT_S,
                              preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if case.stdin:
            stdin.close()
    proc.stdout = proc.stdout.decode('utf-8', 'replace')
    proc.stderr = proc.stderr.decode('utf-8', 'replace')
    return proc


def run_case(case):
    proc = run_once(case, True)
    if proc is not None and 'LeakSanitizer' in proc.stderr and \
            foreign_leaks_only(proc.stderr):
        # The leak check changed the exit status: judge a run without it.
        proc = run_once(case, False)
    if proc is None:
        return ['hang: no exit within %d s' % TIMEOUT_S], None
    return judge(case, proc), proc


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, name, detail=()):
        self.n += 1
        print('%sok %d - %s' % ('' if cond else 'not ', self.n, name),
              flush=True)
        if not cond:
            self.failed += 1
            for line in detail:
                print('#   ' + line)
        return cond

    def skip(self, name, why):
        self.n += 1
        print('ok %d - %s # SKIP %s' % (self.n, name, why), flush=True)

    def done(self):
        print('1..%d' % self.n)
        return 1 if self.failed else 0


def run_all(tap, cases, jobs=2):
    """Runs cases (jobs at a time), one TAP line each, in order."""
    statuses = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for case, (errs, proc) in zip(cases, pool.map(run_case, cases)):
            rc = 'hang' if proc is None else proc.returncode
            statuses[rc] = statuses.get(rc, 0) + 1
            detail = errs[:]
            if errs:
                detail.append('command: ' + ' '.join(case.argv))
                if proc is not None:
                    detail += ['stderr: ' + l for l in
                               proc.stderr.splitlines()[-15:]]
            tap.ok(not errs, case.name, detail)
    # How deep the damage went: all 1s would mean only headers were tested.
    print('# exit statuses: %s' % ', '.join(
        '%s: %d' % kv for kv in sorted(statuses.items(), key=str)))
