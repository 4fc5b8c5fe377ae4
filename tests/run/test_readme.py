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
else:
    tap.skip('fresh clone', 'not a git checkout')

# -- every console example, run ---------------------------------------------
gpu = os.path.exists('/dev/kfd')
env = dict(os.environ, NO_COLOR='1')
env.pop('HSA_XNACK', None)
env.pop('LD_LIBRARY_PATH', None)
for block in blocks('console'):
    lines = block.rstrip('\n').splitlines()
    cmd, want = lines[0][2:], [ln for ln in lines[1:] if ln.strip()]
    if gpu and cmd.startswith('hipgrain run') and '--virtual-gpu' not in cmd:
        tap.skip(cmd, 'this machine has a GPU: the example is of one without')
        continue
    with tempfile.TemporaryDirectory(prefix='hgreadme-') as tmp:
        os.symlink(os.path.join(BUILD, 'kernels'), os.path.join(tmp, 'kernels'))
        argv = [HG] + cmd.split()[1:]
        if argv[1] == 'run':
            argv = hgrun.hermetic(argv)
        p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True,
                           text=True, timeout=300)
    got = (p.stdout + p.stderr).splitlines()
    missing = [w for w in want
               if not any(re.fullmatch(re.escape(w).replace(r'\.\.\.', '.*'),
                                       g) for g in got)]
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
