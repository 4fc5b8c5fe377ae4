#!/usr/bin/env python3
"""A header declares what its own file defines: X.h the functions of X.c or
of its family X_*.c.  A module's door and its internal header (one each,
named below) declare the module's; a header of types and inline functions
declares nothing to check, and the wrapped runtimes' own functions are
theirs, whoever defines the hook.  A function declared where nobody would look
for it fails here, naming both files.
usage: test_headers.py SOURCE_ROOT"""
import os
import re
import sys

root = sys.argv[1]
MODULES = ['analyzer', 'analyzer/rules', 'cli', 'codeobj', 'common', 'decode', 'kfd', 'plugin',
           'provider', 'registry', 'tracer', 'vgpu', 'vgpu/exec', 'isa',
           'preload/core',
           'preload/libc', 'preload/hip', 'preload/hip/graph', 'preload/omp',
           'preload/hsa', 'preload/driver']
# Headers that speak for a whole module or a group of its files.
SHARED = {
    'registry/reg.h': 'the registry as the hooks see it',
    'codeobj/co.h': 'the code object reader as its users see it',
    'codeobj/co_int.h': 'internal to the code object reader',
    'codeobj/co_dwarf.h': 'internal to its DWARF reader',
    'tracer/trc.h': 'session control as the CLI sees it',
    'tracer/trc_int.h': 'internal to session control',
    'provider/hg_tp_init.h': 'the provider\'s start-up, for the preload',
    'vgpu/vg.h': 'internal to the virtual GPU',
    'vgpu/exec/vx.h': 'the interpreter as the device and the tests see it',
    'vgpu/exec/vx_int.h': 'internal to the interpreter',
    'isa/isa.h': 'the instruction set as its readers see it',
    'kfd/kd_smi_spec.h': 'internal to the SMI event reader',
    'analyzer/an.h': 'the analyzer as the CLI sees it',
    'analyzer/an_output.h': 'what every writer is given',
    'analyzer/an_rule.h': 'what every rule is given',
    'analyzer/an_schema.h': 'the trace schema, for the reader',
    'cli/cli.h': 'the subcommands, for the dispatcher',
}
# The wrapped runtimes' own entry points, declared where their headers lack
# them so that the hooks defining them are checked against a prototype.
RUNTIME = re.compile(r'^(__)?(hip|hsa|tgt|omp)')
DECL = re.compile(r'^[A-Za-z_][\w \t\*]*?\b([a-z_]\w*)\s*\([^;{}]*\)\s*'
                  r'(?:__attribute__\(\(.*?\)\)\s*)?;', re.M | re.S)
DEF = re.compile(r'^(?!static\b)[A-Za-z_][\w \t\*]*?\b([a-z_]\w*)\s*\('
                 r'[^;{}]*\)\s*\{', re.M | re.S)


def strip(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'^#.*?(?<!\\)$', '', text, flags=re.M | re.S)
    # inline bodies define, they do not declare
    return re.sub(r'static inline[^;{]*\{.*?\n\}', '', text, flags=re.S)


defined = {}
for dirpath, _, names in os.walk(root):
    rel = os.path.relpath(dirpath, root)
    if rel.split(os.sep)[0] in ('build', 'tests', 'fuzz', 'bench', '.git') \
            or rel.startswith('build'):
        continue
    for name in names:
        if name.endswith('.c'):
            path = os.path.join(rel, name)
            for fn in DEF.findall(strip(open(os.path.join(root, path)).read())):
                defined.setdefault(fn, set()).add(path)

n = failed = 0
checked = 0
for mod in MODULES:
    for name in sorted(os.listdir(os.path.join(root, mod))):
        h = f'{mod}/{name}'
        if not name.endswith('.h') or h in SHARED:
            continue
        base = h[:-2]
        stray = []
        for fn in sorted(set(DECL.findall(strip(open(os.path.join(root, h)).read())))):
            where = defined.get(fn)
            if not where or RUNTIME.match(fn):
                continue  # libc's, a callback type, or a wrapped runtime's
            checked += 1
            if not any(w[:-2] == base or w[:-2].startswith(base + '_')
                       for w in where):
                stray.append(f'{fn} is defined in {", ".join(sorted(where))}')
        n += 1
        failed += bool(stray)
        print(f'{"not " if stray else ""}ok {n} - {h} declares its own file\'s')
        for s in stray:
            print(f'#   {s}')
n += 1
ok = checked > 100
failed += not ok
print(f'{"" if ok else "not "}ok {n} - declarations were found to check ({checked})')
print(f'1..{n}')
sys.exit(1 if failed else 0)
