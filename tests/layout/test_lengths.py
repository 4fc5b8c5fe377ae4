#!/usr/bin/env python3
"""No function of the product's C files (every folder but tests, fuzz and
bench) runs past MAX lines, counted from its
name's line to its closing brace: a function that does three jobs is three
functions.  One that is a single state machine may be longer, named in
STATE_MACHINES with what it is; an entry there that is gone or has come
under the limit fails too, so the list cannot go stale.  A function over the
limit fails here, naming its file, line and length.

usage: test_lengths.py SOURCE_ROOT"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from hgrun import Tap  # noqa: E402

root = sys.argv[1]
MAX = 80
NOT_PRODUCT = ('tests', 'fuzz', 'bench', '.git', 'node_modules')
# 'folder/file.c:function': the state machine it is.
STATE_MACHINES = {}

# A definition starts at the left margin with its type and name and opens
# its body with a brace alone at the left margin (the house style).
NAME = re.compile(r'^(?![ \t#/*}])[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')


def functions(path):
    """(name, first line, length) of each function defined in path."""
    lines = open(path, encoding='utf-8').read().split('\n')
    cand = start = name = None
    for i, line in enumerate(lines):
        if start is not None:
            if line == '}':
                yield name, start + 1, i - start + 1
                cand = start = None
            continue
        m = NAME.match(line)
        if m:
            cand, name = i, m.group(1)
        elif line == '{' and cand is not None:
            start = cand
        elif not line.strip() or line.rstrip().endswith(';') or line.startswith('#'):
            cand = None


def sources():
    """The product's C files, relative to root, in order."""
    for dirpath, dirs, names in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if top in NOT_PRODUCT or top.startswith('build'):
            dirs[:] = []
            continue
        dirs.sort()
        for name in sorted(names):
            if name.endswith('.c'):
                yield os.path.normpath(os.path.join(rel, name))


def main():
    t = Tap()
    seen = set()
    by_folder = {}
    for rel in sources():
        by_folder.setdefault(os.path.dirname(rel), []).append(rel)
    for folder, files in by_folder.items():
        long = []
        for rel in files:
            for fn, line, n in functions(os.path.join(root, rel)):
                key = f'{rel}:{fn}'
                if key in STATE_MACHINES:
                    seen.add(key)
                    if n <= MAX:
                        long.append(f'{key} is {n} lines: no longer a long state machine, '
                                    'take it off STATE_MACHINES')
                elif n > MAX:
                    long.append(f'{rel}:{line}: {fn} is {n} lines (at most {MAX})')
        t.ok(not long, f'{folder or "."}: every function at most {MAX} lines', '\n'.join(long))
    gone = sorted(set(STATE_MACHINES) - seen)
    t.ok(not gone, 'every allowed state machine still exists',
         '\n'.join(f'{k} not found' for k in gone))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
