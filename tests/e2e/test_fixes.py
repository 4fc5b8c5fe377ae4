#!/usr/bin/env python3
"""A fix must work on the memory it is offered for.  Each finding below is
made by a kernels/ program on a virtual GPU; every remedy its fix text
offers is applied by running the program variant that does what the text
says (the same program with the other allocation, the CAS build of the
same kernel, the other HSA_XNACK), and that run must print a right result
with no finding of the rule.  A remedy offered where the table below
knows it fails (hipMemAdviseSetCoarseGrain on hipHostMalloc memory: the
driver refuses the advice) is a failure; one no variant applies is a
skip, named.

usage: test_fixes.py HIPGRAIN KERNELS_DIR
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir = sys.argv[1:3]
VGPU = 'MI210'

# (program, memory argument(s), HSA_XNACK or None, the rule it makes)
FINDINGS = [
    ('arraysum_unsafe', ['hostmalloc'], None, 'fp-atomic-fine-grain'),
    ('arraysum_unsafe', ['managed'], None, 'fp-atomic-fine-grain'),
    ('arraysum_fastflag', ['hostmalloc'], None, 'fp-atomic-fine-grain'),
    ('arraysum_fastflag', ['managed-coarse-half'], None, 'fp-atomic-fine-grain'),
    ('arraysum_cas', ['malloc'], None, 'pageable-kernel-arg-no-xnack'),
    ('histogram', ['min', 'hostmalloc'], None, 'int-atomic-fine-host'),
    ('histogram', ['fetchsub', 'hostmalloc'], None, 'int-atomic-fine-host'),
]


def with_mem(args, mem):
    return args[:-1] + [mem]


def cas(prog, args, xnack):
    return ('arraysum_cas', args, xnack) if prog.startswith('arraysum') else None


# Remedies by the words that offer them (a regular expression: "instead
# of hipMallocManaged" offers no hipMallocManaged): the variant that
# applies each to (program, args, xnack), or None where none does yet.
REMEDIES = {
    r'with hipMalloc\b|\(hipMalloc\)':
        lambda p, a, x: (p, with_mem(a, 'hipmalloc'), x),
    r'hipHostMallocNonCoherent':
        lambda p, a, x: (p, with_mem(a, 'hostmalloc-noncoherent'), x),
    r'hipMemAdviseSetCoarseGrain':
        lambda p, a, x: (p, with_mem(a, 'managed-coarse'), x),
    r'CAS loop': cas,
    r'or hipMallocManaged': lambda p, a, x: (p, with_mem(a, 'managed'), x),
    r'HSA_XNACK=1': lambda p, a, x: (p, a, '1'),
    r'hipHostRegister': lambda p, a, x: None,
    r'atomicAdd/atomicExch/atomicCAS':
        lambda p, a, x: (p, ['sub'] + a[1:], x)
        if a[0] == 'fetchsub' else None,
}
# Remedies that fail on some memory: offering one there is the bug.
FAILS_ON = {
    'hipMemAdviseSetCoarseGrain': {'hostmalloc', 'hostmalloc-noncoherent'},
    'hipHostMallocNonCoherent': {'managed', 'managed-coarse-half', 'malloc'},
}


def traced(prog, args, xnack):
    t = hgrun.run(hipgrain, [os.path.join(kdir, prog)] + args,
                  env=hgrun.vgpu_env(xnack), extra=('--virtual-gpu', VGPU))
    try:
        _, rep = hgrun.report(hipgrain, t.trace)
        out = t.proc.stdout.split()
        return (out[-1] if out else None), rep
    finally:
        t.close()


def fix_of(rep, rule):
    f = next((f for f in (rep or {}).get('findings', []) if f['rule'] == rule),
             None)
    return f and (f.get('fix_at') or f.get('fix'))


tap = hgrun.Tap()
missing = hgrun.not_built()
for prog, args, xnack, rule in FINDINGS:
    name = f'{prog} {" ".join(args)}'
    if prog in missing:
        tap.skip(name, f'{prog} not built: {missing[prog]}')
        continue
    said, rep = traced(prog, args, xnack)
    fix = fix_of(rep, rule)
    # Wrong: a wrong result, or no result at all (the fault that pageable
    # memory with XNACK off gives ends the program first).
    tap.ok(said != 'OK' and fix, f'{name}: wrong, and {rule} offers a fix',
           (said, fix))
    if not fix:
        continue
    offered = [w for w in REMEDIES if re.search(w, fix)]
    tap.ok(offered, f'{name}: the fix offers a remedy this test knows', fix)
    wrong = [w for w in offered if args[-1] in FAILS_ON.get(w, ())]
    tap.ok(not wrong, f'{name}: no remedy that fails on {args[-1]} memory',
           (wrong, fix))
    for w in offered:
        variant = REMEDIES[w](prog, args, xnack)
        what = f'{name}: "{re.search(w, fix).group(0)}"'
        if variant is None or variant[0] in missing:
            tap.skip(what, 'no kernels/ variant applies it')
            continue
        said2, rep2 = traced(*variant)
        left = [f['rule'] for f in (rep2 or {}).get('findings', [])
                if f['rule'] == rule]
        tap.ok(said2 == 'OK' and rep2 is not None and not left,
               f'{what} applied ({variant[0]} {" ".join(variant[1])}'
               f'{" HSA_XNACK=" + variant[2] if variant[2] else ""}): right, '
               f'and no {rule}', (said2, left))
sys.exit(tap.done())
