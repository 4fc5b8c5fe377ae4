#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A new user's first ten minutes, as the README tells them: from a fresh
clone its two commands are there and CI runs the test one; every console
example is run against this tree and each line it shows is in what the
command prints ("..." stands for what differs between runs and releases);
its usage lines name only options --help has, its exit statuses are
report's and scan's; and it stays short.

usage: test_readme.py HIPGRAIN BUILDDIR SRCDIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

HG, BUILD, SRC = sys.argv[1:4]
README = open(os.path.join(SRC, 'README.md')).read()
tap = hgrun.Tap()
norm = ' '.join


def blocks(lang):
    return re.findall(r'^```%s\n(.*?)^```' % lang, README, re.M | re.S)


def console_lines(block):
    lines = block.rstrip('\n').splitlines()
    return lines[0][2:], [ln for ln in lines[1:] if ln.strip()]


def missing_lines(want, got):
    return [w for w in want
            if not any(re.fullmatch(re.escape(w).replace(r'\.\.\.', '.*'), g)
                       for g in got)]


def run_demo(clone, demo):
    """The README's first command, run from the fresh clone: it shows what
    the README's first example shows.  Its install and build steps find this
    tree's packages and build (the clone's build/ is this build), so only a
    Debian 12 machine, which the README names, runs it."""
    try:
        release = open('/etc/debian_version').read().strip()
    except OSError:
        release = ''
    if os.path.exists('/dev/kfd'):
        tap.skip('demo', 'this machine has a GPU: the README\'s example is '
                 'of one without')
        return
    if not release.startswith('12'):
        tap.skip('demo', f'the README\'s commands are for Debian 12, not '
                 f'{release or "this system"}')
        return
    os.symlink(BUILD, os.path.join(clone, 'build'))
    nm = os.path.join(SRC, 'tests', 'formats', 'node_modules')
    if os.path.isdir(nm):
        os.symlink(nm, os.path.join(clone, 'tests', 'formats',
                                    'node_modules'))
    # A stand-in apt-get: the demo must find every package already there.
    bin_dir = os.path.join(os.path.dirname(clone), 'bin')
    os.makedirs(bin_dir)
    for tool in ('apt-get', 'sudo'):
        with open(os.path.join(bin_dir, tool), 'w') as f:
            f.write('#!/bin/sh\necho "test: demo ran %s $*" >&2\nexit 1\n'
                    % tool)
        os.chmod(os.path.join(bin_dir, tool), 0o755)
    denv = dict(env, PATH=bin_dir + os.pathsep + env['PATH'])
    p = subprocess.run(hgrun.hermetic([os.path.join(clone, demo)]), cwd=clone,
                       env=denv, capture_output=True, text=True, timeout=600)
    got = (p.stdout + p.stderr).splitlines()
    m = re.search(r'the trace is in (\S+)', p.stdout)
    if m and m.group(1).startswith(tempfile.gettempdir()):
        shutil.rmtree(m.group(1), ignore_errors=True)
    want = console_lines(blocks('console')[0])[1]
    miss = missing_lines(want, got)
    tap.ok(p.returncode == 0 and 'ran apt-get' not in p.stderr and not miss,
           f'{demo} from a fresh clone shows the README\'s first example',
           '\n'.join([f'status {p.returncode}; missing:'] + miss +
                      ['got:'] + got))


gpu = os.path.exists('/dev/kfd')
env = dict(os.environ, NO_COLOR='1')
env.pop('HSA_XNACK', None)
env.pop('LD_LIBRARY_PATH', None)
env.pop('MALLOC_PERTURB_', None)

# -- a fresh clone holds the two commands, and CI runs the test one --------
sh = blocks('sh')
first = sh[0].splitlines() if sh else []
cmds = [ln.split('#')[0].strip() for ln in first]
tap.ok(cmds == ['scripts/demo.sh', 'scripts/test.sh'],
       "the README's first commands: the demo, then the test suite", first)
if os.path.exists(os.path.join(SRC, '.git')) and shutil.which('git'):
    with tempfile.TemporaryDirectory(prefix='hgreadme-') as tmp:
        clone = os.path.join(tmp, 'clone')
        p = subprocess.run(['git', 'clone', '-q', SRC, clone],
                           capture_output=True, text=True)
        ok = p.returncode == 0 and all(
            os.access(os.path.join(clone, c), os.X_OK) for c in cmds)
        tap.ok(ok, 'a fresh clone has both commands, executable', p.stderr)
        ci = open(os.path.join(clone, '.ci', 'run')).read() if ok else ''
        tap.ok(re.search(r'^exec %s$' % re.escape(cmds[1]), ci, re.M),
               'CI runs exactly the README\'s test command', ci)
        run_demo(clone, cmds[0]) if ok else tap.skip('demo', 'no clone')
else:
    tap.skip('fresh clone', 'not a git checkout')

# -- every console example, run ---------------------------------------------
for block in blocks('console'):
    cmd, want = console_lines(block)
    if gpu and ' run ' in cmd and '--virtual-gpu' not in cmd:
        tap.skip(cmd, 'this machine has a GPU: the example is of one without')
        continue
    # As written, from a checkout that scripts/demo.sh built: the tool and
    # the programs by their paths in build/, not by names on a PATH.
    argv = cmd.split()
    tap.ok(argv[0] == 'build/cli/hipgrain' and
           all(not a.startswith('kernels/') for a in argv),
           f'README example names the tool and programs as built: {cmd}')
    with tempfile.TemporaryDirectory(prefix='hgreadme-') as tmp:
        os.symlink(BUILD, os.path.join(tmp, 'build'))
        if argv[1] == 'run':
            argv = hgrun.hermetic(argv)
        p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True,
                           text=True, timeout=300)
    got = (p.stdout + p.stderr).splitlines()
    missing = missing_lines(want, got)
    tap.ok(not missing, f'README example: {cmd}',
           '\n'.join(['missing:'] + missing + ['got:'] + got))

# -- usage lines: only options --help has -----------------------------------
for line in blocks('sh')[2].splitlines() if len(sh) > 2 else []:
    m = re.match(r'hipgrain (run|report|scan) ', line)
    if not m:
        continue
    h = subprocess.run([HG, m.group(1), '--help'], capture_output=True,
                       text=True).stdout
    stale = [o for o in re.findall(r'(?<![\w-])(--?[a-z][a-z-]*)', line)
             if o != '--' and not re.search(r'(?<![\w-])%s\b' % re.escape(o), h)]
    tap.ok(not stale, f'README usage of {m.group(1)}: every option is in '
           '--help', stale)

# -- exit statuses: the README says what --help says --------------------------
said = norm(README.replace('`', '').split())
for cmd in ('report', 'scan'):
    h = subprocess.run([HG, cmd, '--help'], capture_output=True,
                       text=True).stdout
    m = re.search(r'Exit status: (.*)', h, re.S)
    tap.ok(m and norm(m.group(1).split()) in said,
           f'README gives {cmd}\'s exit statuses as its --help does',
           m and m.group(1))

tap.ok(len(README.splitlines()) <= 200, 'the README is at most 200 lines',
       len(README.splitlines()))
tap.ok(not re.search(r'\bseed \d', README),
       'public sources by name, not as "seed N"')
sys.exit(tap.done())
