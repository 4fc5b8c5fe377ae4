#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`hipgrain run` end to end: a real session daemon, real traces read back
with babeltrace2.

usage: test_run.py TEST HIPGRAIN APP STATIC_APP BABELTRACE2

Every run is isolated from whatever session daemon the machine has, so the
private-daemon path is the one exercised: as root in a mount namespace with a
fresh tmpfs over /var/run/lttng (exactly what a machine without a daemon
looks like), as a user with a fresh LTTNG_HOME.  Inside, hipgrain makes its
own namespace again, as it would anywhere.
"""
import os
import atexit
import glob
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
import ctfmeta  # noqa: E402

TEST, HG, APP, STATIC, BT = sys.argv[1:6]
SKIP = 77
ROOT = os.geteuid() == 0
RUNDIR = '/var/run/lttng'
EVENT_RE = re.compile(
    r'\] \(.*?\) \S+ (?P<name>\S+): \{ cpu_id = \d+ \}, '
    r'\{ vpid = (?P<vpid>\d+) \}, \{ (?P<fields>.*)\}$')
DISCARD_RE = re.compile(r'Tracer discarded (\d+) events')


def fail(msg):
    print('FAIL:', msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def isolating(script):
    """argv running the sh script where no session daemon is reachable."""
    if ROOT and shutil.which('unshare'):
        os.makedirs(RUNDIR, exist_ok=True)
        prologue = f'mount -t tmpfs -o mode=0755 hgtest {RUNDIR} || exit 99\n'
        return ['unshare', '--mount', '--propagation', 'private',
                'sh', '-c', prologue + script]
    return ['sh', '-c', script]


def test_env(extra=None):
    env = dict(os.environ)
    if not ROOT:
        env['LTTNG_HOME'] = tmpdir()
    env.update(extra or {})
    return env


def hg_argv(args):
    return [HG, 'run'] + args


def quote(argv):
    return ' '.join("'" + a.replace("'", "'\\''") + "'" for a in argv)


def run(args, env=None, cwd=None, timeout=90):
    """hipgrain run ARGS, isolated; the CompletedProcess."""
    argv = isolating('exec ' + quote(hg_argv(args)))
    return subprocess.run(argv, capture_output=True, text=True,
                          env=test_env(env), cwd=cwd, timeout=timeout)


def facts(stdout):
    return dict(line.split('=', 1) for line in stdout.splitlines()
                if '=' in line)


def trace(path):
    """Events (dicts) and babeltrace2's stderr."""
    p = subprocess.run([BT, path], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f'babeltrace2 {path} failed: {p.stderr}')
    evs = []
    for line in p.stdout.splitlines():
        m = EVENT_RE.search(line)
        check(m, f'unexpected babeltrace2 line: {line[:200]}')
        evs.append(m.groupdict())
    return evs, p.stderr


def ours(evs):
    return [e for e in evs if e['name'] == 'hipgrain:warning']


def message(e):
    m = re.search(r'message = "([^"]*)"', e['fields'])
    return m.group(1) if m else None


def tmpdir():
    d = tempfile.mkdtemp(prefix='hgrun-')
    atexit.register(shutil.rmtree, d, True)
    return d


def expect(p, status, what):
    check(p.returncode == status,
          f'{what}: exit {p.returncode}, want {status}\n'
          f'stdout: {p.stdout}\nstderr: {p.stderr}')


# --- the tests -------------------------------------------------------------

def t_events():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out, '--', APP, 'events', '5'])
    expect(p, 0, 'events')
    check(f'trace written to {out}' in p.stderr, 'trace location not printed')
    f = facts(p.stdout)
    evs, _ = trace(out)
    mine = ours(evs)
    check([message(e) for e in mine] == ['hello'] * 5,
          f'want 5 hello events, got {[message(e) for e in mine]}')
    codes = [re.search(r'code = (\d+)', e['fields']).group(1) for e in mine]
    check(codes == ['0', '1', '2', '3', '4'], f'codes {codes}')
    for e in mine:
        check(e['vpid'] == f['pid'],
              f'vpid {e["vpid"]}, program pid {f["pid"]}')
    app = os.path.realpath(APP)
    check(any(e['name'] == 'lttng_ust_statedump:bin_info' and
              f'path = "{app}"' in e['fields'] for e in evs),
          'no statedump bin_info for the program itself')
    check(any(e['name'] == 'lttng_ust_dl:dlopen' and 'libm.so.6' in
              e['fields'] and e['vpid'] == f['pid'] for e in evs),
          'no lttng_ust_dl:dlopen event for libm')
    # Events numbered 31 or more take CTF's extended header, 13 bytes where
    # the compact one takes 4: the ones a program writes by the thousand
    # must stay under it, whatever else the session records.
    # CTF 1.8 or CTF 2 (LTTng 2.16): metadata that yields no ids fails.
    try:
        ids = ctfmeta.event_ids(glob.glob(os.path.join(out, '**', 'metadata'),
                                          recursive=True)[0], BT)
    except (ValueError, IndexError) as e:
        fail(f'the event ids cannot be read: {e}')
    # Schemas 9 and 10 write alloc, free, launch (and from 10 memcpy and
    # memset) as text, with no sized events (those of schemas 6 to 8);
    # call comes next.
    sized = {n.split(':')[1] for n in ids
             if re.fullmatch(r'hipgrain:(alloc|free|launch)\d+', n)}
    hot = {n: int(ids.get('hipgrain:' + n, 99))
           for n in ('alloc', 'free', 'launch', 'memcpy', 'memset', 'call')}
    check(not sized and max(hot.values()) < 31,
          f'alloc, free, launch (no sized events: {sorted(sized)}), memcpy, '
          f'memset and call take compact headers: ids {hot}')


def t_preload_env():
    lib = os.environ['HIPGRAIN_PRELOAD_LIB']
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out, APP, 'events', '1'],
            env={'LD_PRELOAD': lib})
    expect(p, 0, 'preload-env')
    f = facts(p.stdout)
    pre = f['preload'].split()
    check(pre[0] == lib, f'preload first: {pre}')
    check('liblttng-ust-dl.so.1' in pre, f'no lttng dl helper: {pre}')
    check('liblttng-ust-fd.so.1' in pre, f'no lttng fd helper: {pre}')
    check(pre[-1] == lib and len(pre) >= 3, f'user LD_PRELOAD lost: {pre}')
    check(f['marker'] == '1', 'preload object not loaded in the program')
    check(f['register_timeout'] == '-1', 'LTTNG_UST_REGISTER_TIMEOUT unset')
    check(f['allow_blocking'] == '', 'blocking allowed without --lossless')
    out2 = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out2, APP, 'events', '1'],
            env={'HIPGRAIN_PRELOAD_LIB': '/nonexistent/libx.so'})
    expect(p, 125, 'missing preload')
    check('HIPGRAIN_PRELOAD_LIB' in p.stderr, f'unclear: {p.stderr}')
    check('pid=' not in p.stdout, 'program ran without its preload')


def t_exit_status():
    for status in (0, 3, 200):
        out = os.path.join(tmpdir(), 'trace')
        p = run(['-q', '--no-report', '-o', out, APP, 'events', '1',
                 str(status)])
        expect(p, status, f'exit {status}')
        check(len(ours(trace(out)[0])) == 1, 'event missing')
        check(p.stderr == '', f'--quiet still talks: {p.stderr}')


def t_crash():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out, APP, 'crash', '5'])
    expect(p, 128 + signal.SIGSEGV, 'SIGSEGV')
    msgs = [message(e) for e in ours(trace(out)[0])]
    check(msgs == ['hello'] * 5 + ['last before crash'],
          f'events before the crash: {msgs}')


def read_until_ready(proc):
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.strip() == 'ready':
            return ''.join(lines)
    fail('program never got ready: ' + ''.join(lines) + proc.stderr.read())


def sigterm_case(mode, status, want_msgs):
    out = os.path.join(tmpdir(), 'trace')
    argv = isolating('exec ' + quote(hg_argv(['--no-report', '-o', out,
                                               APP, mode])))
    # unshare and sh exec into hipgrain: the child pid is hipgrain's.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=test_env())
    read_until_ready(proc)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail(f'{mode}: SIGTERM not forwarded, hipgrain kept waiting')
    err = proc.stderr.read()
    check(proc.returncode == status,
          f'{mode}: exit {proc.returncode}, want {status}: {err}')
    msgs = [message(e) for e in ours(trace(out)[0])]
    check(msgs == want_msgs, f'{mode}: events {msgs}')


def t_sigterm():
    # The program handles SIGTERM (exit 42) or dies of it (128+15).
    sigterm_case('term', 42, ['waiting', 'got SIGTERM'])
    sigterm_case('wait', 128 + signal.SIGTERM, [])


def t_not_found():
    d = tmpdir()
    out = os.path.join(d, 'trace')
    for prog in ('hgrun-no-such-program', os.path.join(d, 'nope')):
        p = run(['-o', out, prog])
        expect(p, 127, prog)
        check(f'hipgrain run: {prog}: not found' in p.stderr,
              f'message: {p.stderr}')
    check(not os.path.exists(out), 'output directory made for nothing')


def t_not_executable():
    d = tmpdir()
    plain = os.path.join(d, 'plain')
    shutil.copy(APP, plain)
    os.chmod(plain, 0o644)
    for prog, why in ((plain, 'permission denied'),
                      (d, 'a directory, not a program')):
        p = run(['-o', os.path.join(d, 'trace'), prog])
        expect(p, 126, prog)
        check(why in p.stderr, f'message: {p.stderr}')
    env_dir = os.path.join(d, 'bin')
    os.mkdir(env_dir)
    shutil.copy(plain, os.path.join(env_dir, 'hgrun-plain'))
    p = run(['-o', os.path.join(d, 'trace'), 'hgrun-plain'],
            env={'PATH': env_dir + ':' + os.environ.get('PATH', '')})
    expect(p, 126, 'non-executable found on PATH')


def t_static():
    p = run(['-o', os.path.join(tmpdir(), 'trace'), STATIC])
    expect(p, 126, 'static binary')
    check('statically linked' in p.stderr, f'message: {p.stderr}')


def t_setuid():
    if not ROOT:
        print('SKIP: needs root to make a set-uid file of another user')
        sys.exit(SKIP)
    d = tmpdir()
    os.chmod(d, 0o755)
    prog = os.path.join(d, 'suid')
    shutil.copy(APP, prog)
    os.chown(prog, 65534, -1)
    os.chmod(prog, 0o4755)
    p = run(['-o', os.path.join(d, 'trace'), prog, 'events', '1'])
    expect(p, 126, 'set-uid binary')
    check('set-uid' in p.stderr and 'pid=' not in p.stdout,
          f'message: {p.stderr}')
    os.chown(prog, 0, 0)  # set-uid to ourselves changes nothing: allowed
    os.chmod(prog, 0o4755)
    p = run(['--no-report', '-o', os.path.join(d, 'trace2'), prog,
             'events', '1'])
    expect(p, 0, 'set-uid to the caller')


def t_symlink_output():
    d = tmpdir()
    real = os.path.join(d, 'real')
    os.mkdir(real)
    for name, target in (('link', real), ('dangling', os.path.join(d, 'x'))):
        link = os.path.join(d, name)
        os.symlink(target, link)
        p = run(['--force', '-o', link, APP, 'events', '1'])
        expect(p, 125, f'{name} symlink as output')
        check('symlink' in p.stderr, f'message: {p.stderr}')
        check('pid=' not in p.stdout, 'program ran anyway')
    check(os.listdir(real) == [], 'wrote through the symlink')
    check(not os.path.exists(os.path.join(d, 'x')), 'followed dangling link')


def t_nonempty_output():
    d = tmpdir()
    keep = os.path.join(d, 'keep.txt')
    open(keep, 'w').write('mine\n')
    p = run(['-o', d, APP, 'events', '1'])
    expect(p, 125, 'non-empty output')
    check('not empty' in p.stderr and '--force' in p.stderr,
          f'message: {p.stderr}')
    p = run(['--force', '--no-report', '-o', d, APP, 'events', '2'])
    expect(p, 0, '--force')
    check(len(ours(trace(d)[0])) == 2, 'events missing with --force')
    check(open(keep).read() == 'mine\n', 'existing file touched')
    empty = os.path.join(d, 'empty')
    os.mkdir(empty)
    p = run(['--no-report', '-o', empty, APP, 'events', '1'])
    expect(p, 0, 'existing empty directory')


def t_output_mode():
    d = tmpdir()
    nested = os.path.join(d, 'a', 'b')
    p = run(['--no-report', '-o', nested, APP, 'events', '1'])
    expect(p, 0, 'nested output')
    for path in (os.path.join(d, 'a'), nested):
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(mode == 0o700, f'{path} mode {oct(mode)}')
    p = run(['--no-report', APP, 'events', '1'], cwd=d)
    expect(p, 0, 'default output')
    made = [n for n in os.listdir(d)
            if re.fullmatch(r'hipgrain-trace-\d{8}-\d{6}-\d+', n)]
    check(len(made) == 1, f'default directory: {os.listdir(d)}')
    path = os.path.join(d, made[0])
    check(stat.S_IMODE(os.stat(path).st_mode) == 0o700, 'default mode')
    check(f'trace written to {path}' in p.stderr, p.stderr)
    check(len(ours(trace(path)[0])) == 1, 'default directory has no trace')


def uptime():
    with open('/proc/uptime') as f:
        return float(f.read().split()[0])


def started(pid):
    """Seconds after boot at which pid started (/proc/PID/stat, field 22)."""
    with open(f'/proc/{pid}/stat') as f:
        after_comm = f.read().rsplit(')', 1)[1].split()
    return int(after_comm[19]) / os.sysconf('SC_CLK_TCK')


def made_ns(pid, ns):
    """Whether pid entered ns itself: its parent lives, is no reaper, and is
    in another mount namespace.  A run started before this one ended and
    unshared after it is such a process, holding the number the kernel
    handed on; whatever this run left behind is its child, inside, or was
    orphaned to pid 1."""
    with open(f'/proc/{pid}/stat') as f:
        ppid = int(f.read().rsplit(')', 1)[1].split()[1])
    if ppid <= 1:
        return False
    try:
        return os.readlink(f'/proc/{ppid}/ns/mnt') != ns
    except OSError:
        return False


def mount_ns_users(ns, before):
    """Processes in the mount namespace ns that started before `before`
    (seconds after boot).  hipgrain run holds its namespace until it exits,
    and the kernel hands a freed namespace's number to the next one made: a
    process that started later is in another run's namespace (tests of
    hipgrain run side by side), not a leftover of this one."""
    users = []
    for pid in os.listdir('/proc'):
        if pid.isdigit():
            try:
                if (os.readlink(f'/proc/{pid}/ns/mnt') == ns and
                        started(pid) < before and not made_ns(pid, ns)):
                    with open(f'/proc/{pid}/comm') as f:
                        users.append(f'{pid} ({f.read().strip()})')
            except (OSError, IndexError, ValueError):
                pass
    return users


def t_no_leftovers():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out, APP, 'events', '1'])
    ended = uptime()
    expect(p, 0, 'run')
    m = re.search(r'started a private session daemon \(pid (\d+)\)', p.stderr)
    check(m, f'no private daemon started in isolation: {p.stderr}')
    pid = m.group(1)
    try:
        comm = open(f'/proc/{pid}/comm').read().strip()
    except OSError:
        comm = None
    check(comm != 'lttng-sessiond', f'private daemon {pid} still running')
    f = facts(p.stdout)
    if ROOT:
        check(f['mntns'] != os.readlink('/proc/self/ns/mnt'),
              'program ran in the caller\'s mount namespace')
        users = mount_ns_users(f['mntns'], ended)
        check(not users, f'processes left in the private namespace: {users}')
    else:
        check(f['lttng_home'] and not os.path.exists(f['lttng_home']),
              f'private LTTNG_HOME {f["lttng_home"]} left behind')


def t_concurrent():
    d = tmpdir()
    n = 3
    script = []
    for i in range(n):
        argv = hg_argv(['--no-report', '-o', f'{d}/t{i}', APP, 'events',
                        str(100 + i)])
        script.append(f'({quote(argv)} >{d}/o{i} 2>{d}/e{i}; '
                      f'echo $? >{d}/r{i}) &')
    script.append('wait')
    p = subprocess.run(isolating('\n'.join(script)), capture_output=True,
                       text=True, env=test_env(), timeout=120)
    check(p.returncode == 0, f'wrapper failed: {p.stderr}')
    for i in range(n):
        err = open(f'{d}/e{i}').read()
        check(open(f'{d}/r{i}').read().strip() == '0', f'run {i}: {err}')
        pid = facts(open(f'{d}/o{i}').read())['pid']
        mine = ours(trace(f'{d}/t{i}')[0])
        check(len(mine) == 100 + i, f'run {i}: {len(mine)} events')
        check(all(e['vpid'] == pid for e in mine),
              f'run {i}: events of other runs in its trace')


FLOOD = 100000


def t_lossless():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '--lossless', '--subbuf-size', '64k',
             '--num-subbuf', '4', '-o', out, APP, 'events', str(FLOOD)])
    expect(p, 0, 'lossless flood')
    check(facts(p.stdout)['allow_blocking'] == '1', 'blocking not allowed')
    evs, err = trace(out)
    check(not DISCARD_RE.search(err), f'lossless run lost events: {err}')
    check(len(ours(evs)) == FLOOD, f'{len(ours(evs))} of {FLOOD} events')


def t_discard():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '--subbuf-size', '4k', '--num-subbuf', '2',
             '-o', out, APP, 'events', str(FLOOD)])
    expect(p, 0, 'discarding flood')
    evs, err = trace(out)
    lost = sum(int(n) for n in DISCARD_RE.findall(err))
    got = len(ours(evs))
    check(lost > 0 and got < FLOOD, f'no loss recorded: {got} events, {err}')
    check(got + lost >= FLOOD, f'{got} kept + {lost} lost < {FLOOD}')


def t_fork():
    out = os.path.join(tmpdir(), 'trace')
    p = run(['--no-report', '-o', out, APP, 'fork'])
    expect(p, 0, 'fork')
    f = facts(p.stdout)
    got = {message(e): e['vpid'] for e in ours(trace(out)[0])}
    parent, child = f['pid'], f['child']
    check(parent != child, 'fork gave the same pid')
    check(got.get(f'parent {parent}') == parent, f'parent event: {got}')
    check(got.get(f'child {child}') == child, f'child event vpid: {got}')


def t_usage():
    for args in (['--bogus', APP], [], ['--subbuf-size', '1000', APP],
                 ['--num-subbuf', '3', APP], ['--subbuf-size', 'lots', APP]):
        p = subprocess.run(hg_argv(args), capture_output=True, text=True)
        expect(p, 64, f'usage {args}')
        lines = p.stderr.splitlines()
        check(lines and lines[0].startswith('hipgrain run: ') and
              len(lines) <= 2 and 'usage:' not in p.stderr,
              f'{args}: one line that says what is wrong, not the whole '
              f'help: {p.stderr}')
    p = subprocess.run(hg_argv(['--bogus', APP]), capture_output=True,
                       text=True)
    check(p.stderr == "hipgrain run: --bogus: unknown option\n"
          "try 'hipgrain run --help'\n", f'--bogus: {p.stderr}')
    p = subprocess.run(hg_argv([]), capture_output=True, text=True)
    check(p.stderr.startswith('hipgrain run: no PROGRAM given: '),
          f'no PROGRAM: {p.stderr}')
    p = subprocess.run(hg_argv([os.path.dirname(APP)]), capture_output=True,
                       text=True)
    check(p.returncode == 126 and p.stderr.startswith(
        f'hipgrain run: {os.path.dirname(APP)}: a directory, not a program'),
        f'a directory as PROGRAM: {p.stderr}')
    p = subprocess.run([HG, 'help', 'run'], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.startswith('usage: hipgrain run'),
          f"'hipgrain help run' is run's help: {p.stdout[:200]}")
    p = subprocess.run(hg_argv(['--help']), capture_output=True, text=True)
    expect(p, 0, '--help')
    check('usage: hipgrain run' in p.stdout, '--help prints no usage')
    # Options after PROGRAM are PROGRAM's, even without "--".
    out = os.path.join(tmpdir(), 'trace')
    p = run(['-q', '--no-report', '-o', out, APP, 'events', '1', '5'])
    expect(p, 5, 'arguments after PROGRAM')


def t_reuse():
    if not (ROOT and shutil.which('unshare')):
        print('SKIP: needs root and unshare to give a daemon its own rundir')
        sys.exit(SKIP)
    out = os.path.join(tmpdir(), 'trace')
    script = ('lttng-sessiond --daemonize --no-kernel --quiet || exit 98\n'
              + quote(hg_argv(['--no-report', '-o', out, APP, 'events', '2']))
              + f'\nrc=$?\nkill -0 $(cat {RUNDIR}/lttng-sessiond.pid) '
              '|| { echo daemon-gone; rc=97; }\n'
              f'kill $(cat {RUNDIR}/lttng-sessiond.pid)\nexit $rc\n')
    p = subprocess.run(isolating(script), capture_output=True, text=True,
                       timeout=90)
    expect(p, 0, 'run with a reachable daemon')
    check('started a private' not in p.stderr, 'did not reuse the daemon')
    check(len(ours(trace(out)[0])) == 2, 'events missing')


def t_no_namespace():
    """Root without CAP_SYS_ADMIN: no namespace, so runs take turns."""
    if not (ROOT and shutil.which('unshare') and shutil.which('capsh')):
        print('SKIP: needs root, unshare and capsh')
        sys.exit(SKIP)
    d = tmpdir()
    runs = []
    for i in range(2):
        argv = hg_argv(['--no-report', '-o', f'{d}/t{i}', APP, 'events',
                        str(10 + i)])
        runs.append(f'({quote(argv)} >{d}/o{i} 2>{d}/e{i}; '
                    f'echo $? >{d}/r{i}) &')
    inner = '\n'.join(runs + ['wait'])
    script = f'exec capsh --drop=cap_sys_admin -- -c {quote([inner])}'
    p = subprocess.run(isolating(script), capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, f'wrapper: {p.stderr}')
    for i in range(2):
        err = open(f'{d}/e{i}').read()
        check(open(f'{d}/r{i}').read().strip() == '0', f'run {i}: {err}')
        check('cannot make a private mount namespace' in err, err)
        pid = facts(open(f'{d}/o{i}').read())['pid']
        mine = ours(trace(f'{d}/t{i}')[0])
        check(len(mine) == 10 + i and all(e['vpid'] == pid for e in mine),
              f'run {i}: {len(mine)} events')


def t_killed():
    """hipgrain killed outright: its private daemon does not outlive it."""
    out = os.path.join(tmpdir(), 'trace')
    argv = isolating('exec ' + quote(hg_argv(['--no-report', '-o', out,
                                               APP, 'wait'])))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=test_env())
    app = facts(read_until_ready(proc))['pid']
    # Announced before the program started; read no further, since a
    # daemon that outlives hipgrain keeps the pipe open.
    err = proc.stderr.readline()
    m = re.search(r'private session daemon \(pid (\d+)\)', err)
    proc.kill()
    proc.wait()
    os.kill(int(app), signal.SIGKILL)  # the program is the user's to stop
    check(m, f'no private daemon: {err}')
    for _ in range(200):
        try:
            if open(f'/proc/{m.group(1)}/comm').read().strip() != \
                    'lttng-sessiond':
                return
        except OSError:
            return
        time.sleep(0.05)
    fail(f'daemon {m.group(1)} outlived the hipgrain that started it')


def t_as_user():
    """The non-root path: a private LTTNG_HOME, removed afterwards."""
    if not (ROOT and shutil.which('setpriv')):
        print('SKIP: needs root and setpriv to become another user')
        sys.exit(SKIP)
    d = tmpdir()
    os.chmod(d, 0o755)
    home = os.path.join(d, 'home')
    os.mkdir(home)
    os.chown(home, 65534, 65534)
    out = os.path.join(home, 'trace')
    env = dict(os.environ, HOME=home, LTTNG_HOME=home, TMPDIR=home)
    p = subprocess.run(['setpriv', '--reuid', '65534', '--regid', '65534',
                        '--clear-groups'] +
                       hg_argv(['--no-report', '-o', out, APP, 'events', '4']),
                       capture_output=True, text=True, env=env, timeout=90)
    expect(p, 0, 'run as nobody')
    check('started a private session daemon' in p.stderr, p.stderr)
    f = facts(p.stdout)
    check(f['lttng_home'].startswith(home + '/hipgrain-lttng-'),
          f'LTTNG_HOME of the program: {f["lttng_home"]}')
    check(not os.path.exists(f['lttng_home']), 'private LTTNG_HOME left')
    mine = ours(trace(out)[0])
    check(len(mine) == 4 and all(e['vpid'] == f['pid'] for e in mine),
          f'{len(mine)} events')


def t_runpath():
    """A library the program opens by bare name through its own RUNPATH
    (as LLVM's libomptarget opens its offload plugins) loads under hipgrain
    as without it: LTTng's dlopen wrapper, which hipgrain preloads, would
    search its own path instead of the program's."""
    prog = sys.argv[6]
    plain = subprocess.run([prog], capture_output=True, text=True)
    expect(plain, 0, 'runpath without hipgrain')
    p = run(['--no-report', '-o', os.path.join(tmpdir(), 'trace'), prog])
    expect(p, 0, 'runpath under hipgrain run')
    check(facts(p.stdout).get('answer') == '42',
          f'the library opened through the RUNPATH answered: {p.stdout!r}')


TESTS = {name[2:].replace('_', '-'): fn
         for name, fn in globals().items() if name.startswith('t_')}

if __name__ == '__main__':
    if TEST not in TESTS:
        fail(f'unknown test {TEST}; have {sorted(TESTS)}')
    TESTS[TEST]()
    print('ok', TEST)
