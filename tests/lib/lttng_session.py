# SPDX-License-Identifier: MIT
"""Trace commands with a real LTTng session of their own (tests and benches).

Every `Tracing` gets a session daemon nobody else can see, so tests running
side by side never record each other's programs or stop each other's
daemon: as root, the daemon lives in a private mount namespace with a fresh
tmpfs over /var/run/lttng (root's daemon ignores LTTNG_HOME), held open by a
sleeping process and entered with nsenter; as a user, a fresh LTTNG_HOME.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid

RUNDIR = '/var/run/lttng'
ROOT = os.geteuid() == 0


class Tracing:
    """with Tracing(outdir) as t: t.run([...]) -> outdir holds a CTF trace."""

    def __init__(self, outdir, statedump=True, events=('hipgrain:*',),
                 subbuf='1M', nsubbuf=8, blocking=True,
                 contexts=('vpid',)):  # as tracer/trc_session.c
        self.outdir = os.path.abspath(outdir)
        self.name = 'hgtest-' + uuid.uuid4().hex[:12]
        self.events = list(events) + (['lttng_ust_statedump:*']
                                      if statedump else [])
        self.channel = ['--subbuf-size=' + subbuf, '--num-subbuf=%d' % nsubbuf]
        if blocking:  # a test trace must never lose events
            self.channel.append('--blocking-timeout=inf')
        self.contexts = [a for c in contexts for a in ('-t', c)]
        self.holder = None
        self.home = None

    def _enter(self, argv):
        if self.holder:
            # --root: in a chroot, entering the namespace alone would leave
            # it (a release's test chroot).
            pid = self.holder.pid
            return ['nsenter', '--mount=/proc/%d/ns/mnt' % pid,
                    '--root=/proc/%d/root' % pid,
                    '--wd=' + os.getcwd(), '--'] + argv
        return argv

    def _env(self, extra=None):
        e = dict(os.environ)
        if self.home:
            e['LTTNG_HOME'] = self.home
        e.update(extra or {})
        return e

    def _lttng(self, *args):
        r = subprocess.run(self._enter(['lttng', '--quiet'] + list(args)),
                           capture_output=True, text=True, env=self._env())
        if r.returncode != 0:
            raise RuntimeError('lttng %s failed: %s' % (' '.join(args),
                                                         r.stderr.strip()))

    def _start_daemon(self):
        if ROOT:
            os.makedirs(RUNDIR, exist_ok=True)
            self.holder = subprocess.Popen(
                ['unshare', '--mount', '--propagation', 'private', 'sh', '-c',
                 f'mount -t tmpfs -o mode=0700 hgtest {RUNDIR} && '
                 'echo ready && exec sleep 86400'],
                stdout=subprocess.PIPE, text=True)
            if self.holder.stdout.readline().strip() != 'ready':
                raise RuntimeError('cannot make a private mount namespace')
        else:
            self.home = tempfile.mkdtemp(prefix='hgl-')
        subprocess.run(self._enter(['lttng-sessiond', '--daemonize',
                                    '--no-kernel', '--quiet']),
                       check=True, env=self._env())

    def __enter__(self):
        self._start_daemon()
        self._lttng('create', self.name, '--output', self.outdir)
        self._lttng('enable-channel', '-u', '-s', self.name, *self.channel,
                    'ch')
        for ev in self.events:
            self._lttng('enable-event', '-u', '-s', self.name, '-c', 'ch', ev)
        self._lttng('add-context', '-u', '-s', self.name, '-c', 'ch',
                    *self.contexts)
        self._lttng('start', self.name)
        return self

    def run(self, argv, env=None):
        e = self._env(env)
        e['LTTNG_UST_REGISTER_TIMEOUT'] = '-1'
        e['LTTNG_UST_ALLOW_BLOCKING'] = '1'
        argv = list(argv)
        # By its absolute path, as `hipgrain run` starts a program: under
        # lttng-ust 2.16 one exec'd here by a relative path gets no
        # base-address statedump (not one lttng_ust_statedump:bin_info),
        # and then no call site symbolises.
        if '/' in argv[0]:
            argv[0] = os.path.abspath(argv[0])
        # nsenter must stay single-threaded to enter the namespace: a preload
        # (lttng-ust starts threads) is handed to the program only.
        preload = e.pop('LD_PRELOAD', None)
        if preload:
            argv = ['env', 'LD_PRELOAD=' + preload] + argv
        return subprocess.run(self._enter(argv), env=e,
                              capture_output=True, text=True)

    def _stop_daemon(self):
        pidfile = os.path.join(self.home + '/.lttng' if self.home else RUNDIR,
                               'lttng-sessiond.pid')
        r = subprocess.run(self._enter(['cat', pidfile]), capture_output=True,
                           text=True)
        try:
            pid = int(r.stdout.strip())
            os.kill(pid, signal.SIGTERM)
            for _ in range(200):
                os.kill(pid, 0)
                time.sleep(0.05)
        except (ValueError, OSError):
            pass

    def __exit__(self, *exc):
        try:
            self._lttng('stop', self.name)
            self._lttng('destroy', self.name)
        finally:
            self._stop_daemon()
            if self.holder:
                self.holder.kill()
                self.holder.wait()
            if self.home:
                shutil.rmtree(self.home, ignore_errors=True)
        return False
