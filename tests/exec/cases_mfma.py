# SPDX-License-Identifier: MIT
"""MFMA: the forms compiled code uses, by the lane layout of AMD's matrix
instruction guide (restated in exec_mfma.py, apart from the engine's):
single- and multi-block f32, f16, bf16 (the gfx90a _1k and gfx908's two
per register), i8, f64 and gfx940's fp8 and bf8 (either for A and B), results in AccVGPRs, C from registers or zero.
Inputs are small integers, so every sum is exact whatever its order."""
import random

from exec_mfma import Shape, ShapeF64, mfma

M = 0xffffffff


def inputs(seed, nregs):
    """Per-lane words for A and B (nregs each) and a C seed row."""
    rnd = random.Random(seed)
    return [[rnd.getrandbits(32) for _ in range(64)] for _ in range(2 * nregs)]


def case(archs, mnemonic, shape, acc_c, seed):
    na = shape.src_regs()
    words = shape.sanitize(inputs(seed, na))
    nd = shape.d_regs()
    c = [[(shape.c_value(seed, r, l)) for l in range(64)] for r in range(nd)] if acc_c \
        else [[0] * 64 for _ in range(nd)]
    loads = ''.join(f'global_load_dword v{10 + i}, v1, s[20:21] offset:{256 * i}\n'
                    for i in range(2 * na))
    init = ''.join(f'v_add_u32 v9, {(2 * na + r) * 256}, v1\n'
                   f'global_load_dword v8, v9, s[20:21]\ns_waitcnt vmcnt(0)\n'
                   f'v_accvgpr_write_b32 a{r}, v8\n' for r in range(nd))
    a = 'v[10:11]' if na == 2 else 'v10'
    b = f'v[{10 + na}:{11 + na}]' if na == 2 else f'v{10 + na}'
    d = f'a[0:{nd - 1}]'
    body = loads + 's_waitcnt vmcnt(0)\n' + init + \
        f'{mnemonic} {d}, {a}, {b}, {d}\ns_nop 7\ns_nop 7\n' + \
        ''.join(f'v_accvgpr_read_b32 v8, a{r}\nv_add_u32 v9, {r * 256}, v1\n'
                f'global_store_dword v9, v8, s[4:5]\n' for r in range(nd))
    data = [w for row in words for w in row] + [w for row in c for w in row]

    def want(arch):
        out = mfma(shape, words[:na], words[na:], c)
        return [w & M for row in out for w in row]
    return (f'{mnemonic}: {shape.describe()}{", C from AccVGPRs" if acc_c else ""}',
            archs, body, want, {'data': data})


CASES = [
    case(['gfx90a', 'gfx908', 'gfx940'], 'v_mfma_f32_32x32x2f32', Shape(32, 2, 1, 1, 'f32'), True, 1),
    case(['gfx90a', 'gfx908', 'gfx940'], 'v_mfma_f32_16x16x4f32', Shape(16, 4, 1, 1, 'f32'), False, 2),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_4x4x1f32', Shape(4, 1, 16, 1, 'f32'), True, 3),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_32x32x1f32', Shape(32, 1, 2, 1, 'f32'), False, 4),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_16x16x1f32', Shape(16, 1, 4, 1, 'f32'), True, 5),
    case(['gfx90a', 'gfx908', 'gfx940'], 'v_mfma_f32_16x16x16f16', Shape(16, 16, 1, 4, 'f16'), True, 6),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_32x32x8f16', Shape(32, 8, 1, 4, 'f16'), False, 7),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_4x4x4f16', Shape(4, 4, 16, 4, 'f16'), False, 8),
    case(['gfx90a', 'gfx940'], 'v_mfma_f32_32x32x8bf16_1k', Shape(32, 8, 1, 4, 'bf16'), True, 9),
    case(['gfx90a', 'gfx908'], 'v_mfma_f32_32x32x2bf16', Shape(32, 2, 2, 2, 'bf16'), False, 10),
    case(['gfx90a', 'gfx908'], 'v_mfma_i32_16x16x16i8', Shape(16, 16, 1, 4, 'i8'), True, 11),
    case(['gfx940'], 'v_mfma_f32_32x32x2_f32', Shape(32, 2, 1, 1, 'f32'), True, 12),
    case(['gfx940'], 'v_mfma_f32_16x16x16_f16', Shape(16, 16, 1, 4, 'f16'), False, 13),
    case(['gfx940'], 'v_mfma_f32_16x16x4_4b_f16', Shape(16, 4, 4, 4, 'f16'), True, 14),
    case(['gfx90a'], 'v_mfma_f64_16x16x4f64', ShapeF64(16), True, 15),
    case(['gfx90a'], 'v_mfma_f64_4x4x4f64', ShapeF64(4), True, 16),
    case(['gfx940'], 'v_mfma_f64_16x16x4_f64', ShapeF64(16), True, 17),
    case(['gfx940'], 'v_mfma_f64_4x4x4_4b_f64', ShapeF64(4), False, 18),
    case(['gfx940'], 'v_mfma_f32_16x16x32_fp8_fp8', Shape(16, 32, 1, 8, 'fp8'), True, 19),
    case(['gfx940'], 'v_mfma_f32_16x16x32_bf8_fp8', Shape(16, 32, 1, 8, 'bf8', 'fp8'), False, 20),
    case(['gfx940'], 'v_mfma_f32_32x32x16_fp8_bf8', Shape(32, 16, 1, 8, 'fp8', 'bf8'), True, 21),
    case(['gfx940'], 'v_mfma_f32_32x32x16_bf8_bf8', Shape(32, 16, 1, 8, 'bf8'), False, 22),
]
