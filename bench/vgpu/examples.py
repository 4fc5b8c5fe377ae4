#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/vgpu: ROCm's public HIP examples on the virtual MI210, by hand.

Builds every example that checks its own result with the machine's hipcc
for gfx90a (sources compiled directly, not through the examples' CMake or
Makefiles), runs each under `hipgrain run --virtual-gpu MI210` (two GCDs of
a virtual 4xMI250X node for the one that needs two GPUs) with a time
bound, and prints one line per example: whether it built, whether it
validated (by its own output and exit status), the wave-instructions the
interpreter executed (vgpu_dispatch events) and the CPU time it took
(HIPGRAIN_VGPU_TRACE's per-kernel lines), as wave-instructions and
lane-operations (64 a wave-instruction, masked lanes counted) per second of
CPU.  The examples left out (two GPUs, images, a display, libraries Debian
lacks, or no check of their own) are listed with the reason.

The checkouts are not part of hipgrain (nor of its tests); pass their
paths, e.g. extracted from ROCm's HIP-Examples and rocm-examples.

usage: examples.py --hipgrain HIPGRAIN --hip-examples DIR
                   --rocm-examples DIR [--timeout S] [--only NAME,...]
                   [--build-dir DIR [--build-only]] [--traces DIR]

--traces keeps each run's trace in DIR (named after the example) and adds
`hipgrain report`'s findings to its line, as rule x count: a stale read
(coarse-sync) or a race the example's code does not deserve is a bug of
the virtual GPU's L2 model or race check.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

ARCH = 'gfx90a'
CLANG_BIN = '/usr/lib/llvm-15/bin'

SDK_PASS = r'Passed!'
SDK_FAIL = r'^\s*Failed\s*$'
ROCM_PASS = r'^Validation passed'
ROCM_FAIL = r'Validation failed'


def hip(name, sources, args=(), ok=SDK_PASS, bad=SDK_FAIL, flags=()):
    return {'name': name, 'repo': 'hip', 'sources': sources, 'args': list(args),
            'ok': ok, 'bad': bad, 'flags': list(flags)}


def sdk(app, args=('-e',)):
    """One of HIP-Examples-Applications: -e asks it to check its result."""
    return hip('HIP-Examples/' + app,
               ['HIP-Examples-Applications/%s/%s.cpp' % (app, app)],
               args, flags=['-I{S}/HIP-Examples-Applications/include'])


def rocm(name, sources=None, args=(), ok=ROCM_PASS, bad=ROCM_FAIL, steps=None,
         flags=(), profile='MI210'):
    return {'name': 'rocm-examples/' + name, 'repo': 'rocm', 'args': list(args),
            'profile': profile,
            'sources': sources or [name + '/main.hip'], 'ok': ok, 'bad': bad,
            'steps': steps, 'flags': ['-std=c++17', '-I{S}/Common'] + list(flags)}


def skip(name, why):
    return {'name': name, 'skip': why}


# Steps for the examples whose build is more than one hipcc line: each is an
# argv run in the build directory, {S} the checkout, {B} the build directory.
HC = ['hipcc', '-std=c++17', '-I{S}/Common', '--offload-arch=' + ARCH]
MODULE_API = [
    HC + ['--genco', '-o', '{B}/module.co', '{S}/HIP-Basic/module_api/module.hip'],
    HC + ['-o', '{B}/prog', '{S}/HIP-Basic/module_api/main.hip'],
]
STATIC_DEVICE = [
    HC + ['-fgpu-rdc', '-c', '-o', '{B}/library.o',
          '{S}/HIP-Basic/static_device_library/library/library.hip'],
    ['ar', 'rcsD', '{B}/libdev.a', '{B}/library.o'],
    # The device link runs the lld beside the clang hipcc calls, which on
    # Debian 12 is LLVM 14's and cannot read the LLVM 15 bitcode hipcc made.
    HC + ['-fgpu-rdc', '-B' + CLANG_BIN, '-o', '{B}/prog',
          '-I{S}/HIP-Basic/static_device_library/library', '{B}/libdev.a',
          '{S}/HIP-Basic/static_device_library/main.hip'],
]
STATIC_HOST = [
    HC + ['--emit-static-lib', '-fPIC', '-o', '{B}/libhghost.a',
          '{S}/HIP-Basic/static_host_library/library/library.hip'],
    HC + ['-I{S}/HIP-Basic/static_host_library/library', '-o', '{B}/prog',
          '{S}/HIP-Basic/static_host_library/main.cpp', '-L{B}', '-lhghost'],
]


def bundled(name, device):
    """A host object and a device object bundled by hand, as the
    toolchain examples' Makefiles do."""
    d = '{S}/HIP-Basic/' + name
    return [
        HC + ['-c', '--cuda-host-only', '-o', '{B}/main.o', d + '/main.hip'],
    ] + device(d) + [
        [CLANG_BIN + '/clang-offload-bundler', '-type=o', '-bundle-align=4096',
         '-targets=host-x86_64-unknown-linux,hipv4-amdgcn-amd-amdhsa--' + ARCH,
         '-input=/dev/null', '-input={B}/dev.o', '-output={B}/offload_bundle.hipfb'],
        [CLANG_BIN + '/llvm-mc', '-triple', 'x86_64-unknown-linux-gnu', '--filetype=obj',
         '-o', '{B}/main_device.o', d + '/hip_obj_gen.mcin'],
        ['hipcc', '-o', '{B}/prog', '{B}/main.o', '{B}/main_device.o'],
    ]


ASSEMBLY = bundled('assembly_to_executable', lambda d: [
    [CLANG_BIN + '/clang', '-target', 'amdgcn-amd-amdhsa', '-mcpu=' + ARCH,
     '-o', '{B}/dev.o', d + '/main_%s.s' % ARCH]])
LLVM_IR = bundled('llvm_ir_to_executable', lambda d: [
    HC + ['--cuda-device-only', '-c', '-emit-llvm', '-o', '{B}/dev.bc', d + '/main.hip'],
    [CLANG_BIN + '/llvm-dis', '-o', '{B}/dev.ll', '{B}/dev.bc'],
    [CLANG_BIN + '/clang', '-target', 'amdgcn-amd-amdhsa', '-mcpu=' + ARCH,
     '-nogpulib', '-o', '{B}/dev.o', '{B}/dev.ll']])

# Its input picture is a file it reads beside the program, not a GPU image.
GAUSSIAN = [
    ['hipcc', '--offload-arch=' + ARCH, '-I{S}/HIP-Examples-Applications/include',
     '-o', '{B}/prog', '{S}/HIP-Examples-Applications/RecursiveGaussian/RecursiveGaussian.cpp'],
    ['cp', '{S}/HIP-Examples-Applications/RecursiveGaussian/RecursiveGaussian_Input.bmp',
     '{B}/'],
]

# hipify-perl is not in Debian; for this source its rewrite is the prefix.
HIPIFY = [
    ['sh', '-c', "sed -e 's,cuda_runtime.h,hip/hip_runtime.h,' "
     "-e 's/cudaDeviceProp /hipDeviceProp_t /' -e 's/cuda/hip/g' "
     "'{S}/HIP-Basic/hipify/main.cu' > '{B}/main.hip'"],
    HC + ['-o', '{B}/prog', '{B}/main.hip'],
]

# runtime_compilation prints its first results for a reader to judge rather
# than checking them: a*x+y with a = 5.1, x[i] = i + 1, y[i] = 2(i + 1).
RTC_PRINTS = r'\[ 7\.1, 14\.2, 21\.3, 28\.4, 35\.5, 42\.6, 49\.7, 56\.8, 63\.9, 71 \]'

# convolution prints the root-mean-square difference from its host loop and
# leaves the judging to the reader.  The device code contracts each
# multiply-add into one fma, the host's does not, so on sums of thousands
# the two differ in the last bits: a difference below a hundredth passes.
CONV_RMS = r'result is (0|[0-9.]+e-0?[3-9]|0\.00[0-9]*)$'

EXAMPLES = [
    hip('HIP-Examples/vectorAdd', ['vectorAdd/vectoradd_hip.cpp'],
        ok=r'^PASSED', bad=r'FAILED'),
    hip('HIP-Examples/reduction', ['reduction/reduction.cpp'], ['1048576'],
        ok=r'result is CORRECT', bad=r'INCORRECT'),
    sdk('BinomialOption'), sdk('BitonicSort'), sdk('FastWalshTransform'),
    sdk('FloydWarshall'), sdk('HelloWorld', ()), sdk('Histogram'),
    sdk('MatrixMultiplication'), sdk('PrefixSum'), sdk('SimpleConvolution'),
    sdk('dct'), sdk('dwtHaar1D'),
    dict(sdk('RecursiveGaussian'), steps=GAUSSIAN),
    # add4 says nothing when its check passes: its closing table then counts.
    hip('HIP-Examples/add4', ['add4/hip-stream.cpp', 'add4/common.cpp'],
        ['--arraysize', '1048576', '--numtimes', '4'], ok=r'^GEOMEAN',
        bad=r'Validation failed', flags=['-std=c++11', '-O3']),
    skip('HIP-Examples/cuda-stream, gpu-burn, mini-nbody, rtm8, '
         'strided-access, openmp-helloworld', 'do not check their results'),
    skip('HIP-Examples/GPU-STREAM, mixbench', 'git submodules, empty in the checkout'),
    rocm('HIP-Basic/bit_extract'), rocm('HIP-Basic/cooperative_groups'),
    rocm('HIP-Basic/device_globals'), rocm('HIP-Basic/dynamic_shared'),
    rocm('HIP-Basic/events'), rocm('HIP-Basic/gpu_arch'),
    rocm('HIP-Basic/inline_assembly'), rocm('HIP-Basic/matrix_multiplication'),
    rocm('HIP-Basic/moving_average'),
    rocm('HIP-Basic/runtime_compilation', ok=RTC_PRINTS, bad=r'(?!)'),
    rocm('HIP-Basic/shared_memory'), rocm('HIP-Basic/warp_shuffle'),
    rocm('HIP-Basic/module_api', steps=MODULE_API),
    rocm('HIP-Basic/static_device_library', steps=STATIC_DEVICE),
    rocm('HIP-Basic/static_host_library', steps=STATIC_HOST),
    rocm('HIP-Basic/assembly_to_executable', steps=ASSEMBLY, ok=r'PASSED',
         bad=r'FAILED'),
    rocm('HIP-Basic/llvm_ir_to_executable', steps=LLVM_IR, ok=r'PASSED',
         bad=r'FAILED'),
    rocm('HIP-Basic/hipify', steps=HIPIFY, ok=r'PASSED', bad=r'FAILED'),
    rocm('Applications/bitonic_sort'), rocm('Applications/floyd_warshall'),
    rocm('Applications/histogram'), rocm('Applications/prefix_sum'),
    rocm('Applications/convolution', ['Applications/convolution/main.hip'], ['-i', '1'],
         ok=CONV_RMS, bad=r'(?!)'),
] + [
    # The reduction tutorial's steps, each a kernel better than the last.
    rocm('Tutorials/reduction/v%d' % v, ['Tutorials/reduction/example/v%d.hip' % v],
         ok=r'^Validation passed', bad=r'Validation FAILED',
         flags=['-std=c++20', '-I{S}/Tutorials/reduction/include'])
    for v in range(1, 10)
] + [
    # Two GPUs with peer access: two GCDs of a virtual LUMI-G node.
    rocm('HIP-Basic/multi_gpu_data_transfer', profile='4xMI250X'),
    skip('rocm-examples/HIP-Basic/texture_management', 'needs images (textures)'),
    skip('rocm-examples/HIP-Basic/opengl_interop, vulkan_interop',
         'need a display and a graphics API'),
    skip('rocm-examples/Applications/monte_carlo_pi',
         'needs hipCUB, which Debian 12 does not package'),
    skip('rocm-examples/HIP-Basic/hello_world, hello_world_cuda, saxpy, streams, '
         'bandwidth, device_query, occupancy', 'do not check their results'),
]

CPU_LINE = re.compile(r'ran: status (-?\d+), (\d+) wave-instructions in (\d+) us of CPU')


def fill(arg, src, bdir):
    return arg.replace('{S}', src).replace('{B}', bdir)


def build(ex, src, bdir):
    """Builds the example into bdir/prog; None or the first error line."""
    prog = os.path.join(bdir, 'prog')
    if os.path.exists(prog):
        return None
    steps = ex.get('steps')
    if not steps:
        steps = [['hipcc', '--offload-arch=' + ARCH] + ex['flags'] +
                 ['-o', '{B}/prog'] + ['{S}/' + s for s in ex['sources']]]
    for step in steps:
        argv = [fill(a, src, bdir) for a in step]
        r = subprocess.run(argv, cwd=bdir, capture_output=True, text=True)
        if r.returncode:
            errs = [e for e in r.stderr.splitlines() if 'error' in e]
            return (errs or r.stderr.splitlines() or ['exit %d' % r.returncode])[0][:160]
    return None


def findings(hipgrain, trace):
    """The report's findings on the trace, as 'rule xN' joined, or 'none'."""
    r = subprocess.run([hipgrain, 'report', '--format', 'json', '-j', '1', trace],
                       capture_output=True, text=True)
    try:
        found = json.loads(r.stdout)['findings']
    except (ValueError, KeyError):
        return 'no report (exit %d)' % r.returncode
    count = {}
    for f in found:
        count[f['rule']] = count.get(f['rule'], 0) + f.get('count', 1)
    return ', '.join('%s x%d' % kv for kv in sorted(count.items())) or 'none'


def run(ex, hipgrain, bdir, timeout, keep=None):
    env = dict(os.environ, HIPGRAIN_VGPU_TRACE='1')
    with tempfile.TemporaryDirectory(prefix='hg-ex-') as tmp:
        trace = os.path.join(keep or tmp, ex['name'].replace('/', '_') + '.trace')
        # hipgrain run writes no trace over an earlier one (exit 125)
        shutil.rmtree(trace, ignore_errors=True)
        argv = [hipgrain, 'run', '--virtual-gpu', ex.get('profile', 'MI210'), '--no-report',
                '-o', trace, '--', os.path.join(bdir, 'prog')] + ex['args']
        t0 = time.monotonic()
        # Its own process group, so that a hang takes the program down
        # with hipgrain rather than leaving it spinning on a shared host.
        p = subprocess.Popen(argv, cwd=bdir, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, errors='replace',
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                out, err = p.communicate()
            return {'verdict': 'hang (over %d s)' % timeout, 'wall': timeout,
                    'stderr': err, 'insns': 0, 'timed': 0, 'cpu': 0, 'found': ''}
        r = subprocess.CompletedProcess(argv, p.returncode, out, err)
        wall = time.monotonic() - t0
        out = r.stdout
        ok = re.search(ex['ok'], out, re.M) and not re.search(ex['bad'], out, re.M)
        if r.returncode == 0 and ok:
            verdict = 'validated'
        elif re.search(ex['bad'], out, re.M):
            verdict = 'wrong result'
        else:
            verdict = 'not validated (exit %d)' % r.returncode
        insns = cpu = 0
        for m in CPU_LINE.finditer(r.stderr):
            insns += int(m.group(2))
            cpu += int(m.group(3))
        dump = subprocess.run([hipgrain, 'dump', '--event', 'vgpu_dispatch', trace],
                              capture_output=True, text=True).stdout
        traced = sum(int(w.split('=')[1].rstrip(',')) for line in dump.splitlines()
                     for w in line.split() if w.startswith('insns='))
        # The rate takes the stderr count, the same kernels as the CPU time.
        found = findings(hipgrain, trace) if keep else ''
        return {'verdict': verdict, 'wall': wall, 'stderr': r.stderr,
                'insns': traced, 'timed': insns, 'cpu': cpu, 'found': found}


def why(stderr):
    """The interpreter's or the runtime's own words on what went wrong."""
    for pat in (r'the interpreter lacks (\S+)', r'memory access fault.*',
                r'Memory access fault.*', r'not executed: .*'):
        m = re.search(pat, stderr)
        if m:
            return m.group(0)[:120]
    return ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hipgrain', required=True)
    ap.add_argument('--hip-examples', required=True)
    ap.add_argument('--rocm-examples', required=True)
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--only', default='')
    ap.add_argument('--build-dir', help='keep the builds here (reused if present)')
    ap.add_argument('--build-only', action='store_true')
    ap.add_argument('--traces', help='keep the traces here and list the findings')
    a = ap.parse_args()
    hipgrain = os.path.abspath(a.hipgrain)
    roots = {'hip': os.path.abspath(a.hip_examples),
             'rocm': os.path.abspath(a.rocm_examples)}
    only = [w for w in a.only.split(',') if w]
    if a.traces:
        a.traces = os.path.abspath(a.traces)
        os.makedirs(a.traces, exist_ok=True)
    top = a.build_dir or tempfile.mkdtemp(prefix='hg-examples-')
    tot_insns = tot_cpu = 0
    try:
        for ex in EXAMPLES:
            if only and not any(w in ex['name'] for w in only):
                continue
            if 'skip' in ex:
                print('%-45s not run: %s' % (ex['name'], ex['skip']), flush=True)
                continue
            bdir = os.path.join(top, ex['name'].replace('/', '_'))
            os.makedirs(bdir, exist_ok=True)
            err = build(ex, roots[ex['repo']], bdir)
            if err:
                print('%-45s not built: %s' % (ex['name'], err), flush=True)
                continue
            if a.build_only:
                print('%-45s built' % ex['name'], flush=True)
                continue
            r = run(ex, hipgrain, bdir, a.timeout, a.traces)
            line = '%-45s built, %s, %.1f s' % (ex['name'], r['verdict'], r['wall'])
            if r['insns']:
                line += ', %d wave-instructions' % r['insns']
            if r['cpu']:
                line += ' in %.3f s of CPU: %.2f M wave-insn/s, %.0f M lane-ops/s' % (
                    r['cpu'] / 1e6, r['timed'] / r['cpu'],
                    64 * r['timed'] / r['cpu'])
                tot_insns += r['timed']
                tot_cpu += r['cpu']
            cause = why(r['stderr']) if r['verdict'] != 'validated' else ''
            if cause:
                line += ': ' + cause
            if r['found']:
                line += '; findings: ' + r['found']
            print(line, flush=True)
    finally:
        if not a.build_dir:
            shutil.rmtree(top, ignore_errors=True)
    if tot_cpu:
        print('all kernels: %d wave-instructions in %.2f s of CPU: %.2f M wave-insn/s, '
              '%.0f M lane-ops/s' % (tot_insns, tot_cpu / 1e6, tot_insns / tot_cpu,
                                     64 * tot_insns / tot_cpu))


if __name__ == '__main__':
    main()
