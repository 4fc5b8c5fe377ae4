#!/usr/bin/env python3
"""isa/isa_ops.def is what LLVM's disassembler says of every gfx9 opcode:
regenerated with the LLVM it was made from (Debian 12's llvm-mc-15) and
compared row for row.  Another LLVM names some forms otherwise (gfx940's
renamed MFMA forms among them), so the check runs where that LLVM is.

usage: test_isa_table.py SRCDIR"""
import os
import shutil
import subprocess
import sys

src = sys.argv[1]
print('1..1')
mc = os.environ.get('LLVM_MC', 'llvm-mc-15')
if not shutil.which(mc):
    print(f'ok 1 # SKIP {mc} is not installed: the table was made with LLVM 15')
    sys.exit(0)
p = subprocess.run([sys.executable, os.path.join(src, 'isa', 'gen_ops.py'),
                    '--check', os.path.join(src, 'isa', 'isa_ops.def')],
                   capture_output=True, text=True, env=dict(os.environ, LLVM_MC=mc))
if p.returncode == 0:
    print('ok 1 - ' + p.stdout.strip().removeprefix('ok - '))
else:
    print('not ok 1 - isa_ops.def differs from what llvm-mc says')
    sys.stdout.write(''.join('# ' + ln + '\n' for ln in (p.stdout + p.stderr).splitlines()[:60]))
