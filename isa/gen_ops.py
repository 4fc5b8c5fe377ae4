#!/usr/bin/env python3
# The instruction table from LLVM's disassembler: each opcode of each gfx9
# format is encoded with a few operand choices and disassembled for gfx908,
# gfx90a and gfx940; the first choice LLVM accepts names the form.
import os, re, subprocess, sys
def w2b(*ws):
    return ",".join("0x%02x" % ((w >> (8*i)) & 0xff) for w in ws for i in range(4))
V=256
def fmts():
    for op in range(0x60): yield "SOP2", op, [(0x80000000 | op<<23 | 2<<16 | 1<<8 | 0,)]
    for op in range(0x20): yield "SOPK", op, [(0xB0000000 | op<<23 | 2<<16 | 0x12,), (0xB0000000 | op<<23 | 2<<16 | 0x12, 0x55)]
    for op in range(0x100): yield "SOP1", op, [(0xBE800000 | op<<8 | 2<<16 | 4,)]
    for op in range(0x80): yield "SOPC", op, [(0xBF000000 | op<<16 | 1<<8 | 0,)]
    for op in range(0x80): yield "SOPP", op, [(0xBF800000 | op<<16 | 0,)]
    for op in range(0x100): yield "SMEM", op, [(0xC0000000 | op<<18 | 1<<17 | 8<<6 | 2, 0x10), (0xC0000000 | op<<18 | 1<<17 | 8<<6 | 0, 0x10), (0xC0000000 | op<<18 | 8<<6, 0), (0xC0000000 | op<<18, 0), (0xC0000000 | op<<18 | 1<<17, 0)]
    for op in range(0x40): yield "VOP2", op, [(op<<25 | 1<<17 | 3<<9 | (V+2),), (op<<25 | 1<<17 | 3<<9 | (V+2), 0x3f800000)]
    for op in range(0x100): yield "VOP1", op, [(0x7E000000 | op<<9 | 1<<17 | (V+2),)]
    for op in range(0x100): yield "VOPC", op, [(0x7C000000 | op<<17 | 3<<9 | (V+2),)]
    for op in range(0x400): yield "VOP3", op, [(0xD0000000 | op<<16 | 4, s) for s in ((V+1) | (V+2)<<9 | (V+3)<<18, (V+2) | (V+4)<<9 | (V+6)<<18, (V+1) | (V+2)<<9, (V+2) | (V+4)<<9, (V+1), V+2, 0)]
    for op in range(0x80): yield "VOP3P", op, [(0xD3800000 | op<<16 | 4, s | 3<<27) for s in ((V+1) | (V+2)<<9 | (V+3)<<18, (V+2) | (V+4)<<9 | (V+6)<<18, (V+1) | (V+2)<<9, (V+2) | (V+4)<<9, V+2, V+1, (V+0) | (V+4)<<9 | (V+8)<<18)]
    # the global wave sync forms need the gds bit
    for op in range(0x100): yield "DS", op, [(0xD8000000 | op<<17, a | d0<<8 | d1<<16 | vd<<24) for a in (1,2) for d0 in (2,4,0) for d1 in (3,6,0) for vd in (4,8,0)] + [(0xD8010000 | op<<17, a | d0<<8 | vd<<24) for a in (0,1) for d0 in (0,2) for vd in (0,4)]
    for seg in range(3):
        sa = 0 if seg == 0 else 0x7f
        for op in range(0x80): yield ("FLAT","SCRATCH","GLOBAL")[seg], op, [(0xDC000000 | seg<<14 | op<<18, a | d<<8 | sa<<16 | vd<<24) for a in (2,) for d in (4,0) for vd in (6,0)] + [(0xDC000000 | seg<<14 | op<<18, a | d<<8 | sa<<16 | vd<<24) for a in (1,) for d in (4,0) for vd in (6,0)]
    # the cache controls take no operands at all
    for op in range(0x80): yield "MUBUF", op, [(0xE0000000 | op<<18 | 1<<12, 2 | d<<8 | 2<<16 | 0x80<<24) for d in (4,8)] + [(0xE0000000 | op<<18, 0)]
def run(cpu):
    items=list(fmts())
    lines=[]; owner=[]
    for i,it in enumerate(items):
        for c in it[2]:
            lines.append(w2b(*c, 0xBF800000)); owner.append((i,c))
            lines.append(w2b(0xBF8F0007)); owner.append(None)
    p=subprocess.run([os.environ.get("LLVM_MC", "llvm-mc-15"),"--disassemble","-arch=amdgcn","-mcpu="+cpu],input="\n".join(lines)+"\n",capture_output=True,text=True)
    outs=[l.strip() for l in p.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    groups=[[]]
    for l in outs:
        if l=="s_setprio 7": groups.append([])
        else: groups[-1].append(l)
    bad=set(int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: warning: invalid instruction encoding",p.stderr))
    res={}
    k=0
    for ln,o in enumerate(owner):
        if o is None: continue
        g=groups[k]; k+=1
        i,c=o
        key=(items[i][0],items[i][1])
        if key in res or ln+1 in bad or not g: continue
        res[key]=(g[0], c)
    return res

FAMS = {"gfx908": "G908", "gfx90a": "G90A", "gfx940": "G940"}
ORDER = ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC",
         "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF"]
HEADER = """/* SPDX-License-Identifier: MIT */
/*
 * Every gfx9 instruction form hipgrain knows by name: format, opcode, the
 * families that have it, and LLVM's mnemonic.  Made by asking LLVM's
 * disassembler about each opcode of each format (isa/gen_ops.py); the
 * 'isa-table' test asks it again and fails on any difference, so a wrong
 * row cannot hide.  A VOP3 row below 0x200 is a VOP1, VOP2 or VOPC
 * instruction in its 64-bit form.
 *
 * ISA_OP(format, opcode, families, mnemonic)
 */
"""


def table():
    rows = {}
    for cpu, fam in FAMS.items():
        named = {}
        for (fmt, op), (text, _) in sorted(run(cpu).items()):
            if fmt == "VOP3" and op >= 0x380:
                continue  # VOP3P's encoding space
            name = text.split()[0]
            if named.setdefault((fmt, name), op) != op:
                continue  # a higher opcode LLVM decodes as an alias
            rows.setdefault((fmt, op, name), []).append(fam)
    out = []
    for fmt in ORDER:
        for (f, op, name), fams in sorted((k, v) for k, v in rows.items() if k[0] == fmt):
            mask = "GALL" if len(fams) == 3 else "|".join(fams)
            out.append("ISA_OP(%s, 0x%03x, %s, %s)" % (fmt, op, mask, name))
    return HEADER + "\n".join(out) + "\n"


if __name__ == "__main__":
    # gen_ops.py            print the table
    # gen_ops.py --check F  exit 1 when F differs from what LLVM says now
    text = table()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        old = open(sys.argv[2]).read()
        if old != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), sys.argv[2], "llvm-mc"))
            sys.exit(1)
        print("ok - %d rows agree with llvm-mc" % text.count("ISA_OP("))
    else:
        sys.stdout.write(text)
