#!/usr/bin/env python3
"""Each engine has one door: the preload's hooks include, from the registry,
only reg.h (and reg_recent.h, the launch path's inline table, and
reg_host_fast.h, the allocator hooks' inline front of a thread's table); from the code
object reader only co.h, its rule table and its demangler; from the
provider only its record types and its start-up; from the tracer (session
control) only trc.h.  A hook that reaches past the door fails here, naming
the file.
usage: test_doors.py SOURCE_ROOT"""
import os
import re
import sys

root = sys.argv[1]
DOORS = {
    'registry': {'reg.h', 'reg_recent.h', 'reg_host_fast.h'},
    'codeobj': {'co.h', 'co_rules.h', 'co_demangle.h'},
    'provider': {'hg_tp_init.h', 'hg_tp_types.h'},
    'tracer': {'trc.h'},
}
owner = {}
for mod in DOORS:
    for name in os.listdir(os.path.join(root, mod)):
        if name.endswith('.h'):
            owner[name] = mod

n = failed = 0


def check(desc, bad):
    global n, failed
    n += 1
    failed += bool(bad)
    print(f'{"not " if bad else ""}ok {n} - {desc}')
    for b in bad:
        print(f'#   {b}')


reached = {mod: [] for mod in DOORS}
hooks = 0
for dirpath, _, names in sorted(os.walk(os.path.join(root, 'preload'))):
    for name in sorted(names):
        if not name.endswith(('.c', '.h')):
            continue
        hooks += 1
        path = os.path.join(dirpath, name)
        for inc in re.findall(r'^#include "([^"]+)"', open(path).read(), re.M):
            mod = owner.get(os.path.basename(inc))
            if mod and os.path.basename(inc) not in DOORS[mod]:
                reached[mod].append(f'{os.path.relpath(path, root)} includes {inc}')
check(f'the preload has sources to check ({hooks})', [] if hooks else ['none found'])
for mod in DOORS:
    check(f'the hooks enter {mod}/ only through {", ".join(sorted(DOORS[mod]))}',
          reached[mod])
# The door must exist and say what it is: a header of the module's own.
for mod, doors in DOORS.items():
    missing = [d for d in doors if owner.get(d) != mod]
    check(f'{mod}/ has its door headers', missing)
print(f'1..{n}')
sys.exit(1 if failed else 0)
