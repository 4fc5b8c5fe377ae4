# SPDX-License-Identifier: MIT
"""Trace commands with a real, private LTTng session (tests and benches only).

A session daemon is reused when one is alive; otherwise one is started and,
when the `Tracing` context ends, only that daemon (by its pid) is stopped.
"""
import os
import signal
import subprocess
import time
import uuid

RUNDIRS = ['/var/run/lttng', os.path.expanduser('~/.lttng')]


def _daemon_pid():
    for d in RUNDIRS:
        try:
            with open(os.path.join(d, 'lttng-sessiond.pid')) as f:
                pid = int(f.read().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            continue
    return None


def _lttng(*args):
    r = subprocess.run(['lttng', '--quiet'] + list(args),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('lttng %s failed: %s' % (' '.join(args),
                                                     r.stderr.strip()))


class Tracing:
    """with Tracing(outdir) as t: t.run([...]) -> outdir holds a CTF trace."""

    def __init__(self, outdir, statedump=True):
        self.outdir = outdir
        self.name = 'hgtest-' + uuid.uuid4().hex[:12]
        self.statedump = statedump
        self.started_pid = None

    def __enter__(self):
        if _daemon_pid() is None:
            subprocess.run(['lttng-sessiond', '--daemonize'], check=True,
                           capture_output=True)
            for _ in range(100):
                self.started_pid = _daemon_pid()
                if self.started_pid:
                    break
                time.sleep(0.05)
        _lttng('create', self.name, '--output', self.outdir)
        # Blocking channel: a test trace must never lose events.
        _lttng('enable-channel', '-u', '-s', self.name, '--subbuf-size=1M',
               '--num-subbuf=8', '--blocking-timeout=inf', 'ch')
        _lttng('enable-event', '-u', '-s', self.name, '-c', 'ch', 'hipgrain:*')
        if self.statedump:
            _lttng('enable-event', '-u', '-s', self.name, '-c', 'ch',
                   'lttng_ust_statedump:*')
        _lttng('add-context', '-u', '-s', self.name, '-c', 'ch',
               '-t', 'vpid', '-t', 'vtid', '-t', 'ip', '-t', 'procname')
        _lttng('start', self.name)
        return self

    def run(self, argv, env=None):
        e = dict(os.environ)
        e.update(env or {})
        e['LTTNG_UST_REGISTER_TIMEOUT'] = '-1'
        e['LTTNG_UST_ALLOW_BLOCKING'] = '1'
        return subprocess.run(argv, env=e, capture_output=True, text=True)

    def __exit__(self, *exc):
        try:
            _lttng('stop', self.name)
            _lttng('destroy', self.name)
        finally:
            if self.started_pid:
                os.kill(self.started_pid, signal.SIGTERM)
        return False
