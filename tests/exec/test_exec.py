#!/usr/bin/env python3
"""The interpreter by instruction family, against values computed here on
the host: small kernels assembled by LLVM (llvm-mc-15) run on vx-probe,
one work-group of 64 lanes, and what they store is compared word by word.
The cases of FAMILY are in cases_FAMILY.py: each names the architectures
it runs on, its body (or a function of the architecture that gives it;
after a prologue that loads the output page's address into s[4:5], the
fine page's into s[6:7] and the lane's byte offset into v1), the words the output page must hold, and optionally the
lanes whose atomics the product's memory must drop, words of data placed
after the code (whose address the prologue puts in s[20:21]), the
instruction the engine must stop at, as one it lacks, whether it must stop
at an access nothing backs (fault), the work-group's
size, the LDS bytes of its descriptor and its packet (lds) and what the
engine must refuse as more than a work-group has (too_large), and the bytes each region of memory must have given and taken
(region, lowest and highest byte, read, written; every row, any order),
the fine page's kind (kind, VX_PROBE_KIND's words), the stale reads
the L2 model must have served (lowest and highest byte, reads), the
stores a dispatch cut short must have left in it (unwritten: lowest and
highest byte, bytes), the instruction budget it stops at (budget,
VX_PROBE_BUDGET's; it must then stop there), and how
many dispatches run one after another (repeat, VX_PROBE_REPEAT's).

usage: test_exec.py VX_PROBE FAMILY"""
import importlib
import os
import shutil
import subprocess
import sys
import tempfile

probe, family = sys.argv[1:3]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
CASES = importlib.import_module('cases_' + family).CASES
MC = os.environ.get('LLVM_MC', 'llvm-mc-15')
OBJCOPY = os.environ.get('LLVM_OBJCOPY', 'llvm-objcopy-15')

PROLOGUE = '''
s_load_dwordx4 s[4:7], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
'''


DATA_PROLOGUE = '''
s_getpc_b64 s[20:21]
.Lpc:
s_add_u32 s20, s20, data-.Lpc
s_addc_u32 s21, s21, 0
'''


def assemble(tmp, n, arch, body, data):
    src, obj, blob = (os.path.join(tmp, f'k{n}.{e}') for e in ('s', 'o', 'bin'))
    text = '.text\n' + PROLOGUE + (DATA_PROLOGUE if data else '') + body + 's_endpgm\n'
    if data:
        text += '.p2align 8\ndata:\n' + ''.join(f'.long {w & 0xffffffff:#x}\n' for w in data)
    with open(src, 'w') as f:
        f.write(text)
    mc = subprocess.run([MC, '-arch=amdgcn', '-mcpu=' + arch, '-filetype=obj', src, '-o', obj],
                        capture_output=True, text=True)
    if mc.returncode:
        raise ValueError(mc.stderr.strip().splitlines()[0] if mc.stderr.strip() else MC)
    subprocess.run([OBJCOPY, '-O', 'binary', '--only-section=.text', obj, blob], check=True)
    return blob


def run_case(tmp, n, arch, case):
    name, archs, body, want = case[:4]
    opts = case[4] if len(case) > 4 else {}
    exp = want(arch)
    try:
        blob = assemble(tmp, n, arch, body(arch) if callable(body) else body,
                        opts.get('data'))
    except ValueError as e:
        return False, [f'{MC} refused the kernel: {e}']
    diag = []
    ok = True
    # Each kernel three times: the common vector forms by their own loops
    # as the host runs them best, by the loops built for the baseline
    # x86-64 (the same where the host has nothing wider), then every form
    # through the general frame; all must give the values.
    for tier in ('', 'BASELINE', 'GENERAL'):
        good, d = probe_once(blob, arch, exp, opts, tier)
        ok = ok and good
        diag += [(f'({tier.lower()}) ' if tier else '') + x for x in d]
    return ok, diag


def l2_rows(lines, want, word):
    """(the rows the probe printed after word, those wanted), sorted, as
    LO-HI:COUNT; both None when the case says nothing of them."""
    if want is None or not lines:
        return None, None
    toks = lines[0].split()
    return (sorted(toks[i + 1] for i, t in enumerate(toks[:-1]) if t == word),
            sorted(f'{lo:x}-{hi:x}:{n}' for lo, hi, n in want))


def probe_once(blob, arch, exp, opts, tier):
    env = dict(os.environ)
    env.pop('VX_PROBE_GENERAL', None)
    env.pop('VX_PROBE_BASELINE', None)
    env.pop('VX_PROBE_LDS', None)
    env.pop('VX_PROBE_KIND', None)
    env.pop('VX_PROBE_REPEAT', None)
    env.pop('VX_PROBE_BUDGET', None)
    if 'budget' in opts:
        env['VX_PROBE_BUDGET'] = str(opts['budget'])
    if 'repeat' in opts:
        env['VX_PROBE_REPEAT'] = str(opts['repeat'])
    if 'kind' in opts:
        env['VX_PROBE_KIND'] = opts['kind']
    if tier:
        env['VX_PROBE_' + tier] = '1'
    if 'lds' in opts:
        env['VX_PROBE_LDS'] = '%d,%d' % opts['lds']
    p = subprocess.run([probe, arch, blob, str(len(exp)), str(opts.get('items', 64))],
                       capture_output=True, text=True, timeout=60, env=env)
    lines = p.stdout.splitlines()
    got = [int(x, 16) for x in ' '.join(lines[1:]).split()]
    lacks = opts.get('lacks')
    status = (f'status 1 drops 0 lacks {lacks}' if lacks else
              'status 2' if opts.get('fault') else
              f'status 6 drops 0 too large: {opts["too_large"]}' if 'too_large' in opts else
              'status 7' if 'budget' in opts else
              'status 0')
    ok = p.returncode == 0 and bool(lines) and lines[0].startswith(status) and got == exp
    drops = opts.get('drops')
    if drops is not None and lines:
        want_drop = drops(arch)
        ok = ok and (f'dropped {want_drop}' in lines[0] if want_drop else
                     'drops 0' in lines[0])
    traffic, rows, want_rows = opts.get('traffic'), [], []
    if traffic is not None and lines:
        rows = sorted(t for t in lines[0].split() if ':' in t and '/' in t)
        want_rows = sorted(f'{r:x}:{lo:x}-{hi:x}:{rd}/{wr}' for r, lo, hi, rd, wr in traffic(arch))
        ok = ok and rows == want_rows
    races, want_races = [], None
    if opts.get('races') is not None and lines:
        races = sorted(t.split(':')[0] + ':' + t.split(':')[1]
                       for t in lines[0].split() if t.count(':') == 2 and '-' in t
                       and '/' not in t)
        want_races = sorted(opts['races'])
        ok = ok and races == want_races
    diag = []
    for what, opt in (('stale', 'stales'), ('unwritten', 'unwritten')):
        got_rows, want_rows_l2 = l2_rows(lines, opts.get(opt), what)
        ok = ok and got_rows == want_rows_l2
        if got_rows != want_rows_l2:
            diag.append(f'{what} {got_rows}, want {want_rows_l2}')
    if want_races is not None and races != want_races:
        diag.append(f'races {races}, want {want_races}')
    if rows != want_rows:
        diag.append(f'traffic {rows}, want {want_rows}')
    if not ok:
        diag.append(lines[0] if lines else p.stderr.strip())
        bad = [(i, hex(g), hex(e)) for i, (g, e) in enumerate(zip(got, exp)) if g != e]
        diag.append(f'first differences (word, got, want): {bad[:4]}')
    return ok, diag


def main():
    runs = sum(len(c[1]) for c in CASES)
    print(f'1..{runs}')
    if not shutil.which(MC) or not shutil.which(OBJCOPY):
        for n in range(1, runs + 1):
            print(f'ok {n} # SKIP {MC} or {OBJCOPY} is not installed')
        return 0
    failed = n = 0
    tmp = tempfile.mkdtemp(prefix='hgexec-')
    try:
        for case in CASES:
            for arch in case[1]:
                n += 1
                ok, diag = run_case(tmp, n, arch, case)
                failed += not ok
                print(f'{"" if ok else "not "}ok {n} - {arch}: {case[0]}')
                for d in diag:
                    print('#   ' + d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


sys.exit(main())
