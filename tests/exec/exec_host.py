# SPDX-License-Identifier: MIT
"""What the hardware computes, worked out here on the host, for the
family cases (cases_*.py): IEEE values as bit patterns, f32 rounding of
exact results, f16 and bf16."""
import struct
from fractions import Fraction


def f32(x):
    """The f32 bit pattern nearest x (a float, rounded once)."""
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def f64_words(x):
    u = f64(x)
    return [u & 0xffffffff, u >> 32]


def from32(u):
    return struct.unpack('<f', struct.pack('<I', u))[0]


def f16(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def from16(u):
    return struct.unpack('<e', struct.pack('<H', u))[0]


def bf16(x):
    """Round-to-nearest-even of f32(x) to bfloat16."""
    u = f32(x)
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16 & 0xffff


def round32(q):
    """An exact rational rounded once to f32 (nearest, ties to even)."""
    q = Fraction(q)
    if q == 0:
        return 0
    sign = 0x80000000 if q < 0 else 0
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, -126)
    scaled = q / Fraction(2) ** (e - 23)
    m = scaled.numerator // scaled.denominator
    rest = scaled - m
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and m & 1):
        m += 1
    if m >= 1 << 24:
        m >>= 1
        e += 1
    if e > 127:
        return sign | 0x7f800000
    if m < 1 << 23:
        return sign | m            # denormal
    return sign | (e + 127) << 23 | (m - (1 << 23))


def fma32(a, b, c):
    """fmaf on f32 values, rounded once."""
    return round32(Fraction(from32(f32(a))) * Fraction(from32(f32(b))) +
                   Fraction(from32(f32(c))))


def s32(v):
    return v & 0xffffffff


LANES = range(64)


def store_sgprs(regs):
    """Code that stores each scalar register (or any VALU source) in regs
    across the wave, a 256-byte row each; and the words those rows hold,
    given the registers' values."""
    code = ''.join(f'v_mov_b32 v2, {r}\nglobal_store_dword v1, v2, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))
    return code


def rows(values):
    """The output page's words when row i holds values[i] in every lane
    (values[i] a number) or lane by lane (a list)."""
    out = []
    for v in values:
        out += v if isinstance(v, list) else [v & 0xffffffff] * 64
    return out


def store_vgprs(regs):
    """Like store_sgprs, for per-lane results already in VGPRs."""
    return ''.join(f'global_store_dword v1, {r}, s[4:5] offset:{256 * i}\n'
                   for i, r in enumerate(regs))
