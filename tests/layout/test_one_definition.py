#!/usr/bin/env python3
"""Each VALU operation is defined once: its row of vgpu/exec/vx_vop.def,
from which the general frame (vx_vop.c) and the lane loops (vx_fast.c) are
both expanded.  Fails when a row with a lane loop has no exec case (which
runs it through both tiers), when a row's mnemonic is given twice, when an alias
names no row, when a tier is neither FAST nor GEN, when either tier stops
expanding the table, or when an engine file names a row's opcode outside
the table, in a function not listed in FRAME below (a second definition
waiting to drift), naming the file, function and opcode.

usage: test_one_definition.py SOURCE_ROOT"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from hgrun import Tap  # noqa: E402
from test_lengths import functions  # noqa: E402

root = sys.argv[1]
EXEC = os.path.join(root, 'vgpu', 'exec')
TABLE = os.path.join(EXEC, 'vx_vop.def')
# Functions of the frame that name a row's opcode for what is not the
# operation's value: 'file:function': why.
FRAME = {
    'vx_valu.c:int_clamp': "VOP3's clamp on integer adds: the modifier's saturation",
    'vx_vop.c:vx_vop_op': "gfx908's v_mul_legacy_f32 where later families have v_fmac_f64",
    'vx_vop.c:vx_vop_lane_op': 'the operations across lanes, rows with a shape and no value',
}
ROW = re.compile(r'^VX_(OP|ALIAS|SHAPE)\((\w+),\s*(\w+),\s*(\w+)(?:,\s*(\w+)(?:,\s*(\w+))?)?',
                 re.M)


def rows():
    """{mnemonic: (kind, fields)} of the table, and the mnemonics twice."""
    table, twice = {}, []
    for m in ROW.finditer(open(TABLE).read()):
        kind, name = m.group(1), m.group(2)
        if name in table:
            twice.append(name)
        table[name] = (kind, m.groups()[2:])
    return table, twice


def where(path):
    """Each line's function (or None) in path."""
    lines = open(path).read().split('\n')
    owner = [None] * len(lines)
    for fn, first, n in functions(path):
        for i in range(first - 1, first - 1 + n):
            owner[i] = fn
    return lines, owner


def main():
    t = Tap()
    table, twice = rows()
    t.ok(len(table) > 100 and not twice, f'vx_vop.def: {len(table)} rows, each mnemonic once',
         'given twice: ' + ', '.join(twice))
    bad = [f'{n}: alias of {f[2]}, not a VX_OP row' for n, (k, f) in table.items()
           if k == 'ALIAS' and table.get(f[2], ('',))[0] != 'OP']
    bad += [f'{n}: tier {f[3] if k == "OP" else f[1]}' for n, (k, f) in table.items()
            if (k == 'OP' and f[3] not in ('FAST', 'GEN')) or
            (k == 'ALIAS' and f[1] not in ('FAST', 'GEN'))]
    t.ok(not bad, 'every alias names a row, every tier is FAST or GEN', '\n'.join(bad))
    fast = [n for n, (k, f) in table.items()
            if (k == 'OP' and f[3] == 'FAST') or (k == 'ALIAS' and f[1] == 'FAST')]
    t.ok(len(fast) > 30, f'{len(fast)} rows have a lane loop as well')
    # The exec cases run every kernel through both tiers: a FAST row no
    # case names would have a lane loop nothing compares.
    cases = ''.join(open(os.path.join(root, 'tests', 'exec', n)).read()
                    for n in sorted(os.listdir(os.path.join(root, 'tests', 'exec')))
                    if n.startswith('cases_') and n.endswith('.py'))
    unrun = [n for n in fast
             if not re.search(r'\b' + re.escape(n[:-4] if n.endswith('_e64') else n) +
                              r'(_e32|_e64)?\b', cases)]
    t.ok(not unrun, 'every row with a lane loop is run by an exec case (through both tiers)',
         'no case: ' + ', '.join(unrun))
    for name, tier in (('vx_vop.c', 'the general frame'), ('vx_fast.c', 'the lane loops')):
        text = open(os.path.join(EXEC, name)).read()
        t.ok('#include "vx_vop.def"' in text, f'{tier} ({name}) expands the table')
    stray = []
    for name in sorted(os.listdir(EXEC)):
        if not name.endswith(('.c', '.h')) or name == 'vx_vop.def':
            continue
        lines, owner = where(os.path.join(EXEC, name))
        for i, line in enumerate(lines):
            for op in re.findall(r'ISA_VOP3_(v_\w+)', line):
                if op in table and f'{name}:{owner[i]}' not in FRAME and \
                        not line.startswith('#define ISA_VOP3_'):
                    stray.append(f'{name}:{i + 1} ({owner[i]}): {op}')
    t.ok(not stray, 'no engine file names a row\'s opcode outside the table and the frame',
         '\n'.join(stray))
    return t.done()


if __name__ == '__main__':
    sys.exit(main())
