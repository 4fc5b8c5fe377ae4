#!/usr/bin/env python3
"""kernels/graph under `hipgrain run` against the test double: a kernel node
(added, or captured from a stream) is a launch at each hipGraphLaunch with
its arguments resolved, and nowhere else; memory from pools and from
hipMemCreate + hipMemMap has the granularity its properties give, and so
do handles and pools imported from a file descriptor, as far as the runtime
tells (where it cannot, the granularity is unknown and the trace says why).

usage: test_graph.py HIPGRAIN KERNELS_DIR FAKEHIP_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
import hgrun  # noqa: E402

hipgrain, kdir, fakehip = sys.argv[1:4]
# common/hg_events.h
API = {'hipMalloc': 20, 'hipHostMalloc': 22, 'hipMallocAsync': 28,
       'hipMallocFromPoolAsync': 29, 'hipMemMap': 31,
       'hipMemPoolImportPointer': 36, 'hipLaunchKernel': 90,
       'hipGraphLaunch': 95}
GRAN = {'unknown': 0, 'coarse': 1, 'fine': 2}
WARN_UNREAD = 8  # common/hg_events.h: properties could not be read
# What the test double claims to be, for a run "VARIANT@rocm7".
LATER = {'rocm7': '70000000'}
RULE = 'fp-atomic-fine-grain'
KERNEL = 'accumulate(double*, double const*, int)'

# variant: (rules, allocator of acc, its granularity)
CASES = {
    'node-fine': ({RULE}, 'hipHostMalloc', 'fine'),
    'node-coarse': (set(), 'hipMalloc', 'coarse'),
    'node-unlaunched': (set(), 'hipHostMalloc', 'fine'),
    'capture-fine': ({RULE}, 'hipHostMalloc', 'fine'),
    'capture-coarse': (set(), 'hipMalloc', 'coarse'),
    # The executable graph's node changed to a fine buffer: the launch's.
    'exec-set': ({RULE}, 'hipHostMalloc', 'fine'),
    # The graph's node changed before instantiation: the launch's.
    'graph-set': ({RULE}, 'hipHostMalloc', 'fine'),
    # The graph's node changed after instantiation: not the launch's.
    'graph-set-late': (set(), 'hipMalloc', 'coarse'),
    # A copy node from pageable memory is staged at each launch.
    'copy-pageable': ({'async-copy-pageable'}, 'hipMalloc', 'coarse'),
    'copy-pinned': (set(), 'hipMalloc', 'coarse'),
    'pool-default': (set(), 'hipMallocAsync', 'coarse'),
    'pool-device': (set(), 'hipMallocFromPoolAsync', 'coarse'),
    'pool-host': ({RULE}, 'hipMallocFromPoolAsync', 'fine'),
    # The device's current pool, set to a host one: hipMallocAsync's.
    'pool-set-host': ({RULE}, 'hipMallocAsync', 'fine'),
    'vm-pinned': (set(), 'hipMemMap', 'coarse'),
    'vm-uncached': ({RULE}, 'hipMemMap', 'fine'),
    # Imported handles: the runtime describes them.
    'vm-import': (set(), 'hipMemMap', 'coarse'),
    'vm-import-uncached': ({RULE}, 'hipMemMap', 'fine'),
    # A descriptor the runtime cannot describe: unknown, and said.
    'vm-import-foreign': (set(), 'hipMemMap', 'unknown'),
    # Before ROCm 7 a pool is coarse device memory, whatever it was asked;
    # from ROCm 7 only its exporter knows.
    'pool-import': (set(), 'hipMemPoolImportPointer', 'coarse'),
    'pool-import@rocm7': (set(), 'hipMemPoolImportPointer', 'unknown'),
}
UNREAD = {'vm-import-foreign', 'pool-import@rocm7'}


def traced(case):
    variant, _, later = case.partition('@')
    env = hgrun.fake_env(fakehip)
    if later:
        env['HGFAKE_RUNTIME_VERSION'] = LATER[later]
    return hgrun.run_read(hipgrain, [os.path.join(kdir, 'graph'), variant],
                          env, '--inventory')


def acc_alloc(ev, api):
    """The alloc events of the buffer the kernel adds into: the program's
    allocations of one double (a mapping: its granularity's size) by api."""
    return [e for e in ev if e['event'] == 'alloc' and e['rc'] == 0 and
            e['size'] in (8, 4096) and e['api'] == API[api]]


def launches(ev):
    return [e for e in ev if e['event'] == 'launch']


tap = hgrun.Tap()
for variant, (rules, api, gran) in CASES.items():
    proc, ev, rep = traced(variant)
    tap.ok(proc.returncode == 0 and
           f'graph {variant.partition("@")[0]}: ' in proc.stdout,
           f'{variant}: the program runs through', proc.stderr)
    warned = [e for e in ev if e['event'] == 'warning' and
              e['code'] == WARN_UNREAD]
    tap.ok(len(warned) == (variant in UNREAD),
           f'{variant}: ' + ('one warning says the properties could not be '
                             'read' if variant in UNREAD else
                             'no warning about properties'), warned)
    got = {f['rule'] for f in rep['findings']} if rep else None
    tap.ok(got == rules, f'{variant}: rules {sorted(rules) or "none"}',
           rep and [f['message'] for f in rep['findings']])
    fs = [f for f in (rep or {}).get('findings', []) if f['rule'] == RULE]
    if RULE in rules:
        tap.ok(len(fs) == 1 and fs[0]['kernel']['demangled'] == KERNEL and
               fs[0]['allocation']['api'] == api,
               f'{variant}: the finding names the kernel and {api}', fs)
    # Memory placed by properties: the fix names the properties to change.
    fix = {'hipMemMap': 'hipMemAllocationTypePinned on '
                        'hipMemLocationTypeDevice',
           'hipMallocAsync': 'from a pool on the device',
           'hipMallocFromPoolAsync': 'from a pool on the device'}.get(api)
    if RULE in rules and fix:
        tap.ok(fs and fix in fs[0].get('fix_at', ''),
               f'{variant}: the fix says "{fix}"', fs and fs[0].get('fix_at'))
    inv = (rep or {}).get('inventory', {}).get('by_allocator', [])
    tap.ok(any(b['api'] == api and b['granularity'] == gran for b in inv),
           f'{variant}: the inventory has {api}, {gran}-grained', inv)

    acc = acc_alloc(ev, api)
    ln = launches(ev)
    if variant == 'node-unlaunched':
        tap.ok(not ln, f'{variant}: a graph never launched launches nothing',
               ln)
        continue
    want = API['hipGraphLaunch' if variant.startswith(
        ('node', 'capture', 'exec', 'graph', 'copy')) else 'hipLaunchKernel']
    # A captured launch runs only with its graph: one launch, the graph's.
    tap.ok(len(acc) == 1 and len(ln) == 1 and ln[0]['api'] == want and
           ln[0]['rc'] == 0 and ln[0]['arg_index'][:1] == [0] and
           ln[0]['arg_id'][:1] == [acc[0]['id']] and
           ln[0]['arg_gran'][:1] == [GRAN[gran]],
           f'{variant}: one launch (api {want}), argument 0 resolved to acc, '
           f'{gran}-grained', (acc, ln))
    if variant.startswith('copy'):
        inp = [e['id'] for e in ev if e['event'] == 'alloc' and
               e['api'] == API['hipMalloc'] and e['size'] == 8192]
        cp = [e for e in ev if e['event'] == 'memcpy' and
              e['api'] == API['hipGraphLaunch']]
        tap.ok(len(cp) == 1 and cp[0]['dst_id'] == inp[0] and
               cp[0]['async'] == 1 and cp[0]['size'] == 8192,
               f'{variant}: the copy node is an asynchronous copy into the '
               'input at the graph launch', cp)
sys.exit(tap.done())
