#!/usr/bin/env python3
"""What cannot run is said before it fails (issue 48, 7).  `hipgrain run
--virtual-gpu list` and `run --help` mark the products whose target the
ROCm runtime here knows, read from the runtime's own table of ISAs; a run
on a product it does not know is refused in one line naming the release
that knows it, unless --force-gpu, which runs it after saying why.

The runtime is the one the loader finds first, so each case puts a
stand-in on LD_LIBRARY_PATH: a file named as ROCr's library holding the
target names of a 5.2 runtime (no gfx942) or of a 5.7 one, beside a HIP
library file whose name gives the release.  Nothing loads them.

usage: test_known.py HIPGRAIN
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain = sys.argv[1]
tap = hgrun.Tap()
MI300 = ('MI300X', 'MI300A', '8xMI300X', '4xMI300A')


def runtime(tmp, release, targets):
    d = os.path.join(tmp, release)
    os.makedirs(d)
    with open(os.path.join(d, 'libhsa-runtime64.so.1'), 'wb') as f:
        # As ROCr holds them: bare names, targets with features, triples.
        f.write(b'\x7fELF\0' + b''.join(
            t.encode() + b'\0' + t.encode() + b':xnack-\0amdgcn-amd-amdhsa--'
            + t.encode() + b'\0' for t in targets))
    open(os.path.join(d, f'libamdhip64.so.{release}.99999'), 'w').close()
    return d


def hg(libdir, *args):
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    return subprocess.run([hipgrain, *args], env=env, capture_output=True,
                          text=True, timeout=60)


def runs_column(out):
    rows = [line.split() for line in out.split('\n\n')[0].splitlines()]
    col = rows[0].index('RUNS')
    return {r[0]: r[col] for r in rows[1:]}


with tempfile.TemporaryDirectory(prefix='hgknown-') as tmp:
    old = runtime(tmp, '5.2', ('gfx900', 'gfx908', 'gfx90a'))
    new = runtime(tmp, '5.7', ('gfx908', 'gfx90a', 'gfx940', 'gfx942'))

    p = hg(old, 'run', '--virtual-gpu', 'list')
    runs = runs_column(p.stdout)
    tap.ok(all(runs[n] == ('no' if n in MI300 else 'yes') for n in runs)
           and len(runs) == 8,
           'list under 5.2: the MI300 products are marked as not runnable, '
           'the others as runnable', runs)
    tap.ok('ROCm 5.2 runtime here (' + old in p.stdout and
           'does not know gfx942 (ROCm 5.7 and later do)' in p.stdout,
           'list under 5.2: names the runtime and the release that knows '
           'gfx942', p.stdout)
    p = hg(new, 'run', '--virtual-gpu', 'list')
    runs = runs_column(p.stdout)
    tap.ok(set(runs.values()) == {'yes'} and 'does not know' not in p.stdout,
           'list under 5.7: every product runs (the near miss)', p.stdout)

    p = hg(old, 'run', '--help')
    tap.ok(p.returncode == 0 and
           'not MI300X, MI300A, 8xMI300X, 4xMI300A: it does not know gfx942'
           in p.stdout and '--force-gpu' in p.stdout,
           'run --help under 5.2 names what cannot run and why', p.stdout)
    p = hg(new, 'run', '--help')
    tap.ok(p.returncode == 0 and 'does not know' not in p.stdout and
           'can drive MI100, MI210, MI250X, MI300X' in p.stdout,
           'run --help under 5.7 has nothing to warn of', p.stdout)

    # Refused first: before the program is even looked for.
    out = os.path.join(tmp, 'trace')
    p = hg(old, 'run', '-o', out, '--virtual-gpu', '8xMI300X', '--',
           '/nonexistent/app')
    lines = p.stderr.splitlines()
    tap.ok(p.returncode == 126 and len(lines) == 1 and
           'virtual 8xMI300X (gfx942) not run' in lines[0] and
           'ROCm 5.7 and later' in lines[0] and '--force-gpu' in lines[0]
           and not os.path.exists(out),
           'run on 8xMI300X under 5.2: refused (126) in one line naming '
           'ROCm 5.7, nothing run or written', (p.returncode, p.stderr))
    p = hg(old, 'run', '-o', out, '--virtual-gpu', 'MI210', '--',
           '/nonexistent/app')
    tap.ok(p.returncode == 127 and 'not run' not in p.stderr,
           'run on MI210 under 5.2: not refused, it goes on to look for the '
           'program (127)', (p.returncode, p.stderr))
    p = hg(new, 'run', '-o', out, '--virtual-gpu', 'MI300A', '--',
           '/nonexistent/app')
    tap.ok(p.returncode == 127 and 'does not know' not in p.stderr,
           'run on MI300A under 5.7: not refused', (p.returncode, p.stderr))
    p = hg(old, 'run', '--force-gpu', '-o', out, '--virtual-gpu', 'MI300X',
           '--', '/nonexistent/app')
    lines = p.stderr.splitlines()
    tap.ok(p.returncode == 127 and lines and
           'does not know gfx942' in lines[0] and
           'run anyway (--force-gpu)' in lines[0],
           'run --force-gpu on MI300X under 5.2: said first, then run',
           (p.returncode, p.stderr))
sys.exit(tap.done())
