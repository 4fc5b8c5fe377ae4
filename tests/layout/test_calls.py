#!/usr/bin/env python3
"""No two product files call each other, directly or round a longer circle:
what sibling files share lives in a leaf file of its own, never in the file
that drives them, so each module's calls between files form a tree.  Read
from the built objects' symbols (gcc-nm reads LTO objects too): a file calls
another when it names a symbol the other defines, resolved first within its
own link target.  A call to a function an injected library exports in the
system's place (its version script's globals: open, close, dlopen, hip*) is
a call to the system, whichever file answers it.  A circle fails here, naming its files and one call each
way.

usage: test_calls.py SOURCE_ROOT BUILD_ROOT"""
import collections
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from hgrun import Tap  # noqa: E402

root, build = sys.argv[1:3]
NOT_PRODUCT = ('tests', 'fuzz', 'bench')
# Circles the design wants: a container format holds other containers.
NESTED = [
    {'codeobj/co_set.c', 'codeobj/co_bundle.c', 'codeobj/co_offload.c'},
]
# Circles owed, until their shared helpers move to leaves: none now.  A
# file that makes one fails.
OWED = []

# The version scripts of what is injected into programs.
MAPS = ['preload/hipgrain-preload.map', 'vgpu/libhipgrain-vgpu.map']

def objects():
    """(source file relative to root, object path, link target) of every
    product object the build made."""
    with open(os.path.join(build, 'compile_commands.json')) as f:
        for e in json.load(f):
            src = os.path.relpath(os.path.join(build, e['file']), root)
            obj = os.path.join(build, e['output'])
            if src.endswith('.c') and src.split(os.sep)[0] not in NOT_PRODUCT \
                    and not src.startswith('..') and os.path.exists(obj):
                yield src, obj, os.path.dirname(e['output'])


def symbols(nm, obj):
    """(defined, undefined) global symbols of obj."""
    out = subprocess.run([nm, obj], capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] == 'U':
            undefined.add(p[1])
        elif len(p) == 3 and p[1] in 'TDBRGSWV':
            defined.add(p[2])
    return defined, undefined


def system_names():
    """The globs every version script exports in the system's place."""
    globs = []
    for m in MAPS:
        with open(os.path.join(root, m)) as f:
            text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
        for part in re.findall(r'global:(.*?)(?:local:|\})', text, re.S):
            globs += [g.strip() for g in part.split(';') if g.strip()]
    return globs


def calls(nm):
    """{file: {file it calls: [symbols]}}."""
    objs = [(s, o, t, *symbols(nm, o)) for s, o, t in objects()]
    by_target, anywhere = collections.defaultdict(dict), collections.defaultdict(set)
    for src, _, target, defined, _ in objs:
        for sym in defined:
            by_target[target].setdefault(sym, set()).add(src)
            anywhere[sym].add(src)
    system = system_names()
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for src, _, target, _, undefined in objs:
        for sym in sorted(undefined):
            if any(fnmatch.fnmatchcase(sym, g) for g in system):
                continue
            to = by_target[target].get(sym) or anywhere.get(sym, set())
            if len(to) == 1 and src not in to:
                edges[src][next(iter(to))].append(sym)
    return len(objs), edges


def circles(edges):
    """The strongly connected sets of more than one file (Tarjan's, by
    hand-kept stack: the graph is deeper than Python's recursion)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    for start in list(edges):
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges.get(w, {}))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def shown(comp, edges):
    """The circle's files, and one call of each file to another in it."""
    parts = []
    for a in sorted(comp):
        for b, syms in sorted(edges[a].items()):
            if b in comp:
                parts.append(f'{a} -> {b} ({syms[0]})')
                break
    return f'{", ".join(sorted(comp))}: ' + '; '.join(parts)


tap = Tap()
nm = shutil.which('gcc-nm') or shutil.which('nm')
if not nm:
    print('1..0 # SKIP no nm to read the objects with')
    sys.exit(0)
nobj, edges = calls(nm)
tap.ok(nobj > 50, f'the build has product objects to read ({nobj})',
       f'only {nobj} found in {build}')
# A reading that saw no calls would find no circle either.
known = ('analyzer/an_json.c', 'analyzer/an_fmt.c')
tap.ok(known[1] in edges.get(known[0], {}),
       'the calls between files are read (an_json.c calls an_fmt.c)', 'not seen')
allowed = NESTED + OWED
found = circles(edges)
bad = [shown(c, edges) for c in found if not any(c <= a for a in allowed)]
tap.ok(not bad, 'no two product files call each other, directly or round a circle',
       '\n'.join(bad))
sys.exit(tap.done())
