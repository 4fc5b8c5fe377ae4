"""Run programs under `hipgrain run` and read what it wrote, for tests."""
import atexit
import json
import os
import shutil
import subprocess
import tempfile

# Work directories not closed yet: a test that fails, or forgets to close a
# run, does not leave them in /tmp (removed as the test's process exits).
_OPEN = set()


@atexit.register
def _remove_open():
    for tmp in list(_OPEN):
        shutil.rmtree(tmp, ignore_errors=True)


class Traced:
    def __init__(self, proc, trace, tmp):
        self.proc = proc
        self.trace = trace
        self._tmp = tmp

    def close(self):
        shutil.rmtree(self._tmp, ignore_errors=True)
        _OPEN.discard(self._tmp)


def hermetic(cmd):
    """As root, run cmd where no session daemon of the machine is reachable
    (a private mount namespace with an empty /var/run/lttng), so tests never
    share a daemon, nor record each other's programs."""
    if os.geteuid() != 0 or not shutil.which('unshare'):
        return cmd
    os.makedirs('/var/run/lttng', exist_ok=True)
    return ['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
            'mount -t tmpfs -o mode=0755 hgtest /var/run/lttng && exec "$@"',
            'sh'] + cmd


class Hung(subprocess.TimeoutExpired):
    """A run past its timeout, with where each of its processes was when it
    was stopped (a run that hangs one time in hundreds says where)."""

    def __init__(self, cmd, timeout, output, stderr, where):
        super().__init__(cmd, timeout, output, stderr)
        self.where = where

    def __str__(self):
        tail = (self.stderr or '')[-2000:]
        return (f'{super().__str__()}\nits stderr ends:\n{tail}\n'
                f'where its processes were:\n{self.where}')


def _members(pid):
    """The processes of the run started as pid: those in its private mount
    namespace (a daemon it started has left its tree), else its tree."""
    try:
        ns = os.readlink(f'/proc/{pid}/ns/mnt')
        mine = os.readlink('/proc/self/ns/mnt')
    except OSError:
        return []
    found, kids = [], {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/stat') as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(d))
            if ns != mine and os.readlink(f'/proc/{d}/ns/mnt') == ns:
                found.append(int(d))
        except (OSError, ValueError, IndexError):
            continue
    if ns != mine:
        return sorted(found)
    todo, tree = [pid], []
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(kids.get(p, []))
    return sorted(tree)


def _where(pids):
    """Each process's command, each thread's kernel wait, and gdb's
    backtrace of its threads where gdb is installed."""
    out = []
    for p in pids:
        try:
            with open(f'/proc/{p}/cmdline', 'rb') as f:
                cmd = f.read().replace(b'\0', b' ').decode(errors='replace')
            waits = []
            for t in sorted(os.listdir(f'/proc/{p}/task'), key=int):
                with open(f'/proc/{p}/task/{t}/wchan') as f:
                    waits.append(f'{t}:{f.read() or "-"}')
        except OSError:
            continue
        out.append(f'== {p} {cmd.strip()}\n   waits: {" ".join(waits)}')
        if shutil.which('gdb'):
            try:
                g = subprocess.run(['gdb', '-p', str(p), '-batch', '-nx', '-ex',
                                    'thread apply all bt 12'],
                                   capture_output=True, text=True, timeout=60)
                out.extend('   ' + ln for ln in g.stdout.splitlines()
                           if ln.startswith(('#', 'Thread')))
            except subprocess.TimeoutExpired:
                out.append('   (gdb took too long)')
    return '\n'.join(out)


def _bounded(cmd, env, timeout):
    """subprocess.run(cmd, capture_output, text) that, past timeout, says
    where the run's processes were, stops every one of them, and raises
    Hung."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        pids = _members(proc.pid)
        where = _where(pids)
        for p in pids + [proc.pid]:
            try:
                os.kill(p, 9)
            except OSError:
                pass
        out, err = proc.communicate()
        raise Hung(cmd, timeout, out, err, where) from None
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def run(hipgrain, argv, env=None, extra=(), timeout=120):
    """hipgrain run --no-report -q -o TMP -- argv; returns a Traced (Hung
    past timeout)."""
    tmp = tempfile.mkdtemp(prefix='hgtest-')
    _OPEN.add(tmp)
    trace = os.path.join(tmp, 'trace')
    cmd = [hipgrain, 'run', '--no-report', '-q', '-o', trace] + list(extra)
    cmd = hermetic(cmd + ['--'] + list(argv))
    # What hipgrain run and the program leave in $TMPDIR when they are
    # killed (a private LTTng home, a virtual GPU's topology) goes with tmp.
    env = dict(os.environ if env is None else env, TMPDIR=tmp)
    try:
        proc = _bounded(cmd, env, timeout)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        _OPEN.discard(tmp)
        raise
    return Traced(proc, trace, tmp)


def report(hipgrain, trace, *args, env=None):
    """hipgrain report --format json TRACE; returns (status, dict or None)."""
    p = subprocess.run([hipgrain, 'report', '--format', 'json', *args, trace],
                       capture_output=True, text=True, env=env)
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError:
        return p.returncode, None


def run_read(hipgrain, argv, env, *report_args):
    """argv traced, then read: (the program's CompletedProcess, its
    hipgrain events, the JSON report made with report_args)."""
    import hgtrace  # noqa: E402 (reads traces with bt2)
    t = run(hipgrain, argv, env=env)
    try:
        ev = hgtrace.hipgrain_events(t.trace)
        _, rep = report(hipgrain, t.trace, *report_args, env=env)
        return t.proc, ev, rep
    finally:
        t.close()


def fake_env(fakehip_dir, xnack=None, **more):
    """The environment that puts the test double in place of libamdhip64."""
    env = dict(os.environ)
    env.pop('HSA_XNACK', None)
    env.pop('LD_PRELOAD', None)
    env['LD_LIBRARY_PATH'] = fakehip_dir
    if xnack is not None:
        env['HSA_XNACK'] = xnack
    env.update(more)
    return env


def variants(path):
    """kernels/variants.tsv's rows: (program, argv list, HSA_XNACK, set of
    rule ids, outcome under the double, outcome on the virtual GPU, {ROCm
    (major, minor): (rules that fire too, rules that do not)} on the
    virtual GPU)."""
    for line in open(path):
        if not line.strip() or line.startswith('#'):
            continue
        prog, args, xnack, rules, fake, vgpu, by_rel = \
            line.rstrip('\n').split('\t')
        yield (prog, [] if args == '-' else args.split(), xnack,
               set() if rules == 'none' else set(rules.split(',')), fake,
               vgpu, release_changes(by_rel))


def release_changes(text):
    """"6.4:+a;6.4:-b" -> {(6, 4): ({'a'}, {'b'})}; "-" -> {}; a release
    of "*" is every release on the virtual GPU (key '*'); "5.2:=abort"
    is that release's outcome on the virtual GPU (key ('=', (5, 2)));
    "gfx942:-a" a change on that target's products, whatever the release
    (key 'gfx942')."""
    out = {}
    for item in filter(None, text.split(';')) if text != '-' else ():
        release, change = item.split(':', 1)
        key = release if release == '*' or release.startswith('gfx') else \
            tuple(int(v) for v in release.split('.'))
        if change[0] == '=':
            out[('=', key)] = change[1:]
            continue
        add, drop = out.setdefault(key, (set(), set()))
        (add if change[0] == '+' else drop).add(change[1:])
    return out


def outcome_for(by_rel, version, default):
    """A row's outcome on the virtual GPU under this release."""
    return by_rel.get(('=', version), by_rel.get(('=', '*'), default))


def changes_for(by_rel, version, target=None):
    """The rules a release (and a target) fires too and does not, on the
    virtual GPU."""
    add, drop = set(), set()
    for key in ('*', version, target):
        a, d = by_rel.get(key, (set(), set()))
        add |= a
        drop |= d
    return add, drop


def rocm_version():
    """The installed HIP runtime's (major, minor) version ((0, 0) when
    hipconfig is missing)."""
    out = subprocess.run(['hipconfig', '--version'], capture_output=True,
                         text=True).stdout
    parts = out.split('.')
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return (0, 0)
    return (int(parts[0]), int(parts[1]))


def rocm_major():
    """The installed HIP runtime's major version (0 when hipconfig is
    missing)."""
    return rocm_version()[0]


def vgpu_env(xnack=None):
    """The machine's own runtime, as a program finds it, for a run on the
    virtual GPU.  Without meson's MALLOC_PERTURB_, which it sets to a new
    value every run: ROCm 5.7.1's runtime, shut down by clang 19's
    libomptarget as the program exits, locks a mutex in memory it has just
    freed, so a perturbed heap made the exit status depend on the value."""
    env = dict(os.environ)
    for name in ('HSA_XNACK', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'MALLOC_PERTURB_'):
        env.pop(name, None)
    if xnack is not None:
        env['HSA_XNACK'] = xnack
    return env


def not_built():
    """{program: why} for kernels/ programs this build could not make (meson
    passes HG_NOT_BUILT, "name=why;name=why"): their rows are skipped."""
    return dict(item.split('=', 1) for item in
                os.environ.get('HG_NOT_BUILT', '').split(';') if '=' in item)


def omp_no_gpu(kdir, fakehip_dir, prog, args, xnack):
    """Why an OpenMP program cannot run here without a GPU, hipgrain or not,
    or None.  Its release's libomptarget stops it with a fatal error: clang
    21's aborts omp_alloc with the pinned trait ("device number '0' out of
    range, only 0 devices available"); clang 19's aborts a program that
    says `requires unified_shared_memory` before main ("not used
    consistently")."""
    if not prog.startswith('omp_'):
        return None
    env = fake_env(fakehip_dir, None if xnack in ('0', '*') else xnack)
    p = subprocess.run([os.path.join(kdir, prog)] + list(args), env=env,
                       capture_output=True, text=True, timeout=120)
    return omp_fatal(p)


def omp_fatal(p):
    """libomptarget's own fatal error in a finished run, as a skip reason."""
    lines = [l for l in p.stderr.splitlines() if 'omptarget fatal error' in l]
    if p.returncode and lines:
        return ("this release's libomptarget stops it here, hipgrain or "
                "not: " + lines[-1].strip())
    return None


def omp_expected(hipgrain, kdir, table, prog, args, xnack, want):
    """The rules a variants.tsv row must fire, where the compiler decides:
    atomic-safe's `omp atomic` is a CAS loop from clang 15 (the table's
    case) but a hardware FP atomic from clang 21 under `requires
    unified_shared_memory`, which makes it atomic-fine's situation.
    table: (prog, args, xnack, rules, ...) rows."""
    if not prog.startswith('omp_') or list(args) != ['atomic-safe']:
        return want
    r = subprocess.run([hipgrain, 'scan', '--format', 'json',
                        os.path.join(kdir, prog)], capture_output=True, text=True)
    doc = json.loads(r.stdout) if r.returncode in (0, 2) and r.stdout else {}
    fast = any(k['hw_fp_atomics'] for f in doc.get('files', [])
               for co in f['code_objects'] for k in co['kernels']
               if ' in atomic_safe()' in k['demangled'])
    if not fast:
        return want
    return next(set(row[3]) for row in table if row[0] == prog and
                list(row[1]) == ['atomic-fine'] and row[2] == xnack)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, detail=''):
        self.n += 1
        print(f'{"" if cond else "not "}ok {self.n} - {name}', flush=True)
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[:40]:
                print(f'#   {line}')
        return cond

    def skip(self, name, why):
        self.n += 1
        print(f'ok {self.n} - {name} # SKIP {why}', flush=True)

    def done(self):
        print(f'1..{self.n}')
        return 1 if self.failed else 0
