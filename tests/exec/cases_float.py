# SPDX-License-Identifier: MIT
"""Float edge cases: division as LLVM compiles it (div_scale, rcp, the fma
chain, div_fmas, div_fixup) in f32 and f64, where operands near the ends
of the exponent range need the scaling; denormals as the MODE register
says; NaN; conversions and their rounding; rcp, rsq and sqrt at their
special values.  Inputs come per lane from a table after the code."""
import math
import random
import struct
from fractions import Fraction

from exec_host import f32, from32, round32, f64, rows

QNAN = 0x7fc00000
MIN_DEN, MAX = 1, 0x7f7fffff


def div32(a, b):
    x, y = from32(a), from32(b)
    sign = (a ^ b) & 0x80000000
    if math.isnan(x) or math.isnan(y) or (x == 0 and y == 0) or \
            (math.isinf(x) and math.isinf(y)):
        return QNAN
    if math.isinf(x) or y == 0:
        return sign | 0x7f800000
    if math.isinf(y) or x == 0:
        return sign
    return sign | round32(abs(Fraction(x) / Fraction(y)))


def pairs32():
    """Numerators and denominators, the edge cases first."""
    special = [
        (1.0, 3.0), (2.0, 7.0), (-5.0, 3.0), (1e30, 1e-10), (1e-30, 1e10),
        (1.0, 1e-39), (1e-39, 1e-39), (3e-39, 7e-39), (1e38, 0.5), (1e38, 3e38),
        (1.0, 0.0), (0.0, 0.0), (math.inf, math.inf), (math.inf, 2.0), (2.0, math.inf),
        (math.nan, 1.0), (-0.0, 5.0), (1.0, MAX), (MAX, 0.5), (MAX, 2.0),
        (2.0 ** -126, 2.0 ** 100), (2.0 ** -149, 2.0), (3 * 2.0 ** -149, 2.0),
        (2.0 ** 127, 2.0 ** -127), (2.0 ** -127, 2.0 ** 127), (6.0, -0.0),
        (1e-45, 1e-40), (3.4e38, 1e-5), (1.1754942e-38, 3.0), (7.0, 1.1754942e-38),
    ]
    out = [(f32(a) if not isinstance(a, int) else a, f32(b) if not isinstance(b, int) else b)
           for a, b in special]
    out = [(a, MAX if b == MAX else b) for a, b in out]
    out[17] = (f32(1.0), MAX)
    out[18] = (MAX, f32(0.5))
    out[19] = (MAX, f32(2.0))
    rnd = random.Random(37)
    while len(out) < 64:
        out.append((rnd.getrandbits(32) & 0x7fffffff | rnd.getrandbits(1) << 31,
                    rnd.getrandbits(32) & 0x7fffffff))
    # random bits include NaNs with payloads: the quotient of one is the
    # quiet default NaN here, as v_div_fixup makes it
    return [(a if (a & 0x7f800000) != 0x7f800000 else f32(1.5), b) for a, b in out]


PAIRS = pairs32()

DIV_F32 = '''
global_load_dword v2, v1, s[20:21]
global_load_dword v3, v1, s[20:21] offset:256
s_waitcnt vmcnt(0)
v_div_scale_f32 v4, s[8:9], v3, v3, v2
v_div_scale_f32 v5, vcc, v2, v3, v2
v_rcp_f32 v6, v4
v_fma_f32 v7, -v4, v6, 1.0
v_fma_f32 v6, v7, v6, v6
v_mul_f32 v7, v5, v6
v_fma_f32 v8, -v4, v7, v5
v_fma_f32 v7, v8, v6, v7
v_fma_f32 v4, -v4, v7, v5
v_div_fmas_f32 v4, v4, v6, v7
v_div_fixup_f32 v4, v4, v3, v2
global_store_dword v1, v4, s[4:5]
'''


def pairs64():
    special = [(1.0, 3.0), (1e300, 1e-300), (1e-300, 1e300), (1.0, 5e-324),
               (5e-324, 2.0), (1.5e-323, 2.0), (2.0 ** 1023, 2.0 ** -1022),
               (2.0 ** -1022, 2.0 ** 1023), (1.7976931348623157e308, 0.5),
               (-7.0, 0.0), (0.0, 0.0), (math.inf, 3.0), (3.0, math.inf), (1e-310, 1e-310),
               (2.2250738585072014e-308, 3.0), (10.0, 4.0)]
    rnd = random.Random(64)
    while len(special) < 64:
        special.append((rnd.uniform(-1e6, 1e6) * 2.0 ** rnd.randint(-1000, 1000),
                        rnd.uniform(1, 2) * 2.0 ** rnd.randint(-1000, 1000)))
    return special


PAIRS64 = pairs64()


def div64(x, y):
    if math.isnan(x) or math.isnan(y) or (x == 0 and y == 0) or \
            (math.isinf(x) and math.isinf(y)):
        return 0x7ff8000000000000
    if y == 0:
        return f64(math.copysign(math.inf, x) * math.copysign(1, y))
    try:
        return f64(x / y)
    except OverflowError:
        return f64(math.copysign(math.inf, x * math.copysign(1, y)))


DIV_F64 = '''
v_lshlrev_b32 v9, 3, v0
global_load_dwordx2 v[2:3], v9, s[20:21]
global_load_dwordx2 v[4:5], v9, s[20:21] offset:512
s_waitcnt vmcnt(0)
v_div_scale_f64 v[6:7], s[8:9], v[4:5], v[4:5], v[2:3]
v_rcp_f64 v[10:11], v[6:7]
v_fma_f64 v[12:13], -v[6:7], v[10:11], 1.0
v_fma_f64 v[10:11], v[10:11], v[12:13], v[10:11]
v_fma_f64 v[12:13], -v[6:7], v[10:11], 1.0
v_fma_f64 v[10:11], v[10:11], v[12:13], v[10:11]
v_div_scale_f64 v[12:13], vcc, v[2:3], v[4:5], v[2:3]
v_mul_f64 v[14:15], v[12:13], v[10:11]
v_fma_f64 v[6:7], -v[6:7], v[14:15], v[12:13]
v_div_fmas_f64 v[6:7], v[6:7], v[10:11], v[14:15]
v_div_fixup_f64 v[6:7], v[6:7], v[4:5], v[2:3]
global_store_dwordx2 v9, v[6:7], s[4:5]
'''


def words64(vals):
    out = []
    for v in vals:
        u = f64(v)
        out += [u & 0xffffffff, u >> 32]
    return out


def div64_rows():
    out = []
    for x, y in PAIRS64:
        u = div64(x, y)
        out += [u & 0xffffffff, u >> 32]
    return out


# One input per lane for the conversions and the special functions.
CVT_IN = [math.nan, 3e9, -3e9, -1.5, 2.5, -2.5, 0.5, -0.5, 1.0 + 2.0 ** -11,
          1.0 + 3 * 2.0 ** -11, 65520.0, 65519.0, 1e-45, -0.0, math.inf, -math.inf,
          2.0 ** 31, -2.0 ** 31, 4294967040.0, 5e9, 16777217.0, 0.0, 4.0, 2.0, 0.25,
          1e-40, -1e-40, 2.0 ** -24, 3 * 2.0 ** -25, 2.0 ** -25, 6e-8, 1.5]
CVT_IN += [float(i) * 0.75 - 10.0 for i in range(64 - len(CVT_IN))]
CVT_BITS = [QNAN if math.isnan(x) else f32(x) for x in CVT_IN]
# the values as the kernel sees them, rounded to f32
CVT_IN = [math.nan if math.isnan(x) else from32(b) for x, b in zip(CVT_IN, CVT_BITS)]


def cvt_i32(x):
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return 0x7fffffff if x > 0 else 0x80000000
    return max(-2 ** 31, min(2 ** 31 - 1, int(x))) & 0xffffffff


def cvt_u32(x):
    if math.isnan(x) or x <= 0:
        return 0
    return 0xffffffff if math.isinf(x) else min(2 ** 32 - 1, int(x))


def cvt_f16(x):
    if math.isnan(x):
        return 0x7e00
    try:
        return struct.unpack('<H', struct.pack('<e', x))[0]
    except OverflowError:
        return 0xfc00 if x < 0 else 0x7c00


def special(fn, x):
    try:
        r = fn(x)
    except (ValueError, ZeroDivisionError, OverflowError):
        r = math.nan
    return QNAN if math.isnan(r) else f32(r)


def rcp(x):
    if x == 0:
        return math.copysign(math.inf, x)
    return float(round32_val(Fraction(1) / Fraction(x))) if math.isfinite(x) else \
        (math.nan if math.isnan(x) else math.copysign(0.0, x))


def round32_val(q):
    return from32(round32(abs(q))) * (1 if q >= 0 else -1)


def sqrt_bits(x):
    if math.isnan(x) or x < 0:
        return QNAN
    if x == 0 or math.isinf(x):
        return f32(x)
    return f32(math.sqrt(x))


def rcp_bits(x):
    if math.isnan(x):
        return QNAN
    if x == 0:
        return f32(math.copysign(math.inf, x))
    if math.isinf(x):
        return f32(math.copysign(0.0, x))
    q = Fraction(1) / Fraction(x)
    return (0x80000000 if x < 0 else 0) | round32(abs(q))


CASES = [
    ('division f32 as compiled: correctly rounded at the ends of the range', ['gfx90a', 'gfx908', 'gfx940'],
     DIV_F32, lambda arch: [div32(a, b) for a, b in PAIRS],
     {'data': [a for a, _ in PAIRS] + [b for _, b in PAIRS]}),
    ('division f64 as compiled: correctly rounded at the ends of the range', ['gfx90a', 'gfx940'],
     DIV_F64, lambda arch: div64_rows(),
     {'data': words64([x for x, _ in PAIRS64]) + words64([y for _, y in PAIRS64])}),
    ('conversions: saturation, NaN, rounding to nearest even, rpi and flr', ['gfx90a', 'gfx940'], '''
global_load_dword v2, v1, s[20:21]
s_waitcnt vmcnt(0)
v_cvt_i32_f32 v3, v2
v_cvt_u32_f32 v4, v2
v_cvt_f16_f32 v5, v2
v_cvt_rpi_i32_f32 v6, v2
v_cvt_flr_i32_f32 v7, v2
v_cvt_u32_f32 v8, v2
v_cvt_f32_u32 v8, v8
v_cvt_f64_f32 v[10:11], v2
v_cvt_f32_f64 v12, v[10:11]
v_cvt_i32_f64 v13, v[10:11]
''' + ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
              for i, r in enumerate([3, 4, 5, 6, 7, 8, 12, 13])),
     lambda arch: ([cvt_i32(x) for x in CVT_IN] + [cvt_u32(x) for x in CVT_IN] +
                   [cvt_f16(x) for x in CVT_IN] +
                   [cvt_i32(math.floor(x + 0.5)) if math.isfinite(x) else cvt_i32(x)
                    for x in CVT_IN] +
                   [cvt_i32(math.floor(x)) if math.isfinite(x) else cvt_i32(x) for x in CVT_IN] +
                   [f32(float(cvt_u32(x))) for x in CVT_IN] +
                   [QNAN if math.isnan(x) else f32(x) for x in CVT_IN] +
                   [cvt_i32(x) for x in CVT_IN]),
     {'data': CVT_BITS}),
    ('rcp, sqrt, rsq at zeros, infinities, NaN and denormals', ['gfx90a', 'gfx940'], '''
global_load_dword v2, v1, s[20:21]
s_waitcnt vmcnt(0)
v_rcp_f32 v3, v2
v_sqrt_f32 v4, v2
v_rsq_f32 v5, v2
v_mul_f32 v6, v2, v2
''' + ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
              for i, r in enumerate([3, 4])),
     lambda arch: [rcp_bits(x) for x in CVT_IN] + [sqrt_bits(x) for x in CVT_IN],
     {'data': CVT_BITS}),
    ('denormals: MODE flushes f32 inputs and results when set so', ['gfx90a', 'gfx940'], '''
global_load_dword v2, v1, s[20:21]
s_waitcnt vmcnt(0)
v_mul_f32 v3, 0.5, v2
v_add_f32 v4, v2, 0
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
v_mul_f32 v5, 0.5, v2
v_add_f32 v6, v2, 0
v_mov_b32 v9, 0x90
v_cmp_class_f32 vcc, v2, v9
v_cndmask_b32 v7, 0, 1, vcc
v_mov_b32 v8, v2
''' + ''.join(f'global_store_dword v1, v{r}, s[4:5] offset:{256 * i}\n'
              for i, r in enumerate([3, 4, 5, 6, 7, 8])),
     lambda arch: ([f32(x * 0.5) if not math.isnan(x) else QNAN for x in CVT_IN] +
                   [f32(x + 0.0) if not math.isnan(x) else QNAN for x in CVT_IN] +
                   [flushed(lambda v: v * 0.5, x) for x in CVT_IN] +
                   [flushed(lambda v: v + 0.0, x) for x in CVT_IN] +
                   [1 if is_den(x) else 0 for x in CVT_IN] + CVT_BITS),
     {'data': CVT_BITS}),
]


def is_den(x):
    return x != 0 and math.isfinite(x) and abs(x) < 2.0 ** -126


def flushed(op, x):
    """op's result with a denormal input taken as zero and a denormal
    result flushed, signs kept."""
    if math.isnan(x):
        return QNAN
    r = op(math.copysign(0.0, x) if is_den(x) else x)
    if is_den(r):
        r = math.copysign(0.0, r)
    return f32(r)
