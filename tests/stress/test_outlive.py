#!/usr/bin/env python3
"""Issue 40: LTTng's daemons stopped under a traced program while it writes
events at full rate from threads, forked children and their execs; the
program's exit status stays its own, every run.  Each run stops them one
way of several in turn (the session daemon asked to stop or killed, the
consumer killed, all of them killed, the relay killed), in the default
mode and with --lossless.

usage: test_outlive.py HIPGRAIN STRESS_DIR FAKEHIP_DIR
HGTEST_OUTLIVE_RUNS: the number of runs (the suite's default is affordable;
the issue's note ran it 200 times).
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

HG, SDIR, FAKE = sys.argv[1:4]
RUNS = int(os.environ.get('HGTEST_OUTLIVE_RUNS', '20'))
PROG = os.path.join(SDIR, 'hg_outlive')
THREADS = '4'
OWN_STATUS = 3  # hg_outlive's, when every child exited with its own


def family(root):
    """{pid: comm} of root's descendants."""
    kids, comm = {}, {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/stat') as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index('(') + 1:stat.rindex(')')]
        ppid = int(stat[stat.rindex(')') + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(d))
        comm[int(d)] = name
    out, todo = {}, list(kids.get(root, []))
    while todo:
        pid = todo.pop()
        out[pid] = comm[pid]
        todo += kids.get(pid, [])
    return out


def gone(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] in 'ZX'
    except OSError:
        return True


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Relay:
    """An lttng-relayd of the test's, on 127.0.0.1."""

    def __init__(self, tmp):
        ctrl, data, live = free_port(), free_port(), free_port()
        self.proc = subprocess.Popen(
            [shutil.which('lttng-relayd'), '-C', f'tcp://127.0.0.1:{ctrl}',
             '-D', f'tcp://127.0.0.1:{data}', '-L',
             f'tcp://127.0.0.1:{live}', '-o', os.path.join(tmp, 'relay')],
            env=dict(os.environ, LTTNG_HOME=tmp), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        self.target = f'127.0.0.1:{ctrl}:{data}'
        for _ in range(400):  # until it listens; not a time limit
            try:
                socket.create_connection(('127.0.0.1', ctrl), 1).close()
                break
            except OSError:
                time.sleep(0.05)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# (name, the processes to stop among hipgrain run's descendants, signal)
WAYS = [
    ('the session daemon is asked to stop',
     lambda f: [p for p, c in f.items() if c == 'lttng-sessiond'],
     signal.SIGTERM),
    ('the consumer daemon is killed',
     lambda f: [p for p, c in f.items() if c.startswith('lttng-consumer')],
     signal.SIGKILL),
    ('the session daemon is killed',
     lambda f: [p for p, c in f.items() if c == 'lttng-sessiond'],
     signal.SIGKILL),
    ('every LTTng daemon is killed',
     lambda f: [p for p, c in f.items() if c.startswith('lttng')],
     signal.SIGKILL),
    ('the relay daemon is killed', None, signal.SIGKILL),
]


def one_run(n, tmp):
    name, pick, sig = WAYS[n % len(WAYS)]
    lossless = (n // len(WAYS)) % 2 == 1
    stop = os.path.join(tmp, 'stop')
    extra = ['--lossless'] if lossless else []
    relay = Relay(tmp) if pick is None else None
    if relay:
        extra += ['--relay', relay.target]
    cmd = hgrun.hermetic([HG, 'run', '--no-report', '-q', '-o',
                          os.path.join(tmp, 'trace')] + extra +
                         ['--', PROG, THREADS, stop])
    env = hgrun.fake_env(FAKE, HIPGRAIN_HOST_EVENTS='all')
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        started = p.stdout.readline()
        victims = ([relay.proc.pid] if relay else
                   pick(family(p.pid)) if started else [])
        for pid in victims:
            os.kill(pid, sig)
        for _ in range(2000):  # until they are gone; not a time limit
            if all(gone(v) for v in victims):
                break
            time.sleep(0.005)
        open(stop, 'w').close()
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        if relay:
            relay.close()
    mode = 'lossless' if lossless else 'default'
    tap.ok(started == 'flooding\n' and victims and
           p.returncode == OWN_STATUS and 'bad=0' in out,
           f'run {n + 1}/{RUNS} ({mode}): {name} during the flood; the '
           f'program exits with its own status {OWN_STATUS}',
           f'status {p.returncode}, stopped {victims}\nstdout: '
           f'{started}{out[-800:]}\nstderr: {err[-1500:]}')


tap = hgrun.Tap()
for n in range(RUNS):
    tmp = tempfile.mkdtemp(prefix='hgoutlive-')
    try:
        one_run(n, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
sys.exit(tap.done())
