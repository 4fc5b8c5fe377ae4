"""A throw-away LTTng session for benchmarks: reuse a running session daemon
or start one, record the given events, and clean up afterwards."""
import os
import shutil
import subprocess
import tempfile
import time
import uuid


def _lttng(*args):
    subprocess.run(['lttng'] + list(args), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _daemon_alive():
    return subprocess.run(['lttng', 'list'], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


class Session:
    def __init__(self, events, output=None):
        self.events = events
        self.name = 'hgbench-' + uuid.uuid4().hex[:8]
        self.tmp = None
        self.output = output
        self.started_daemon = None

    def __enter__(self):
        if not _daemon_alive():
            proc = subprocess.run(['lttng-sessiond', '--daemonize',
                                   '--no-kernel'], check=True)
            self.started_daemon = proc
            time.sleep(0.2)
        if self.output is None:
            self.tmp = tempfile.mkdtemp(prefix='hgbench-')
            self.output = os.path.join(self.tmp, 'trace')
        _lttng('create', self.name, '--output', self.output)
        _lttng('enable-channel', '-u', '-s', self.name, '--subbuf-size',
               '1M', '--num-subbuf', '8', 'ch')
        for e in self.events:
            _lttng('enable-event', '-u', '-s', self.name, '-c', 'ch', e)
        _lttng('start', self.name)
        return self

    def app_env(self):
        return dict(os.environ, LTTNG_UST_REGISTER_TIMEOUT='-1')

    def __exit__(self, *exc):
        _lttng('destroy', self.name)
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
        if self.started_daemon is not None:
            subprocess.run(['pkill', '-x', 'lttng-sessiond'])
