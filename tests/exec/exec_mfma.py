# SPDX-License-Identifier: MIT
"""MFMA's lane layout, from AMD's matrix instruction guide, for the host
side of cases_mfma.py: where each element of A, B, C and D lives, and the
product worked out exactly."""
import struct
from fractions import Fraction

from exec_host import f32, from32, round32


def half(u):
    return struct.unpack('<e', struct.pack('<H', u & 0xffff))[0]


def small_half(v):
    """An f16 pattern of a small integer (-4..4), from any 16 bits."""
    return struct.unpack('<H', struct.pack('<e', float((v % 9) - 4)))[0]


def small_bf16(v):
    return f32(float((v % 9) - 4)) >> 16


def f8(b, bf8):
    """gfx940's fp8 (4 exponent bits, bias 8, 3 of mantissa) or bf8 (5, bias
    16, 2): no infinity, no negative zero, 0x80 their NaN."""
    if b == 0x80:
        return float('nan')
    mb, bias = (2, 16) if bf8 else (3, 8)
    e, m = (b & 0x7f) >> mb, b & ((1 << mb) - 1)
    x = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias) if e == 0 else \
        (1 + Fraction(m, 1 << mb)) * Fraction(2) ** (e - bias)
    return -x if b & 0x80 else x


def small_f8(v, bf8):
    """An 8-bit pattern of a small integer (-4..4), from any bits: the one
    of the 256 whose value it is (bf8's range would make sums inexact)."""
    want = (v % 9) - 4
    return next(b for b in range(256) if b != 0x80 and f8(b, bf8) == want)


class Shape:
    def __init__(self, m, k, blocks, kpl, typ, btyp=None):
        self.m, self.k, self.blocks, self.kpl, self.typ = m, k, blocks, kpl, typ
        self.btyp = btyp or typ

    def describe(self):
        t = self.typ if self.btyp == self.typ else f'{self.typ} x {self.btyp}'
        return f'{self.m}x{self.m}x{self.k}, {self.blocks} block(s), {t}'

    def src_regs(self):
        bits = {'f32': 32, 'f16': 16, 'bf16': 16, 'i8': 8, 'fp8': 8, 'bf8': 8}[self.typ]
        return max(1, self.kpl * bits // 32)

    def d_regs(self):
        return self.m * self.m * self.blocks // 64

    def sanitize(self, rows):
        """Source words whose elements are small integers of the type (A's
        rows, then B's)."""
        out = []
        for n, row in enumerate(rows):
            new = []
            typ = self.typ if n < len(rows) // 2 else self.btyp
            for w in row:
                if typ == 'fp8':
                    # any value but the NaN, subnormals too: every product
                    # is a multiple of 2^-20 below 2^16, so sums stay exact
                    new.append(sum((0 if b == 0x80 else b) << (8 * i) for i in range(4)
                                   for b in [w >> (8 * i) & 0xff]))
                elif typ == 'bf8':
                    new.append(sum(small_f8(w >> (8 * i), True) << (8 * i)
                                   for i in range(4)))
                elif self.typ == 'f32':
                    new.append(f32(float((w % 17) - 8)))
                elif self.typ in ('f16', 'bf16'):
                    fn = small_half if self.typ == 'f16' else small_bf16
                    new.append(fn(w) | fn(w >> 16) << 16)
                else:
                    new.append(w)
            out.append(new)
        return out

    def c_value(self, seed, r, lane):
        v = (seed * 31 + r * 7 + lane * 3) % 23 - 11
        return v & 0xffffffff if self.typ == 'i8' else f32(float(v))

    def elem(self, regs, lane, e, typ=None):
        """Element e (of kpl) of a lane's operand registers."""
        if typ in ('fp8', 'bf8'):
            return f8(regs[e // 4][lane] >> (8 * (e % 4)) & 0xff, typ == 'bf8')
        if self.typ == 'f32':
            return Fraction(from32(regs[0][lane]))
        if self.typ in ('f16', 'bf16'):
            w = regs[e // 2][lane] >> (16 * (e % 2)) & 0xffff
            return Fraction(half(w) if self.typ == 'f16' else from32(w << 16))
        b = regs[e // 4][lane] >> (8 * (e % 4)) & 0xff
        return b - 256 if b >= 128 else b

    def a_at(self, regs, x, k, b, typ=None):
        """A's row x (B's column x, of B's type) at depth k of block b."""
        groups = self.k // self.kpl
        return self.elem(regs, x + self.m * (k // self.kpl + groups * b), k % self.kpl,
                         typ or self.typ)

    def d_at(self, i, j, b):
        """(lane, register) of D's row i, column j, block b."""
        if self.m == 4:
            return j + 4 * b, i
        groups = 64 // self.m
        return j + self.m * ((i // 4) % groups), i % 4 + 4 * (i // 4 // groups) + \
            self.m * self.m // 64 * b


def f64_words(v):
    """The low and high words of a double."""
    u = struct.unpack('<Q', struct.pack('<d', v))[0]
    return u & 0xffffffff, u >> 32


def f64_of(lo, hi):
    return struct.unpack('<d', struct.pack('<Q', lo | hi << 32))[0]


class ShapeF64:
    """The f64 forms, a register pair per element: 16x16x4 in one block, or
    4x4x4 in four.  A's row i at depth k of block b in lane 4b + 16k + i (B's
    column j likewise); D's row i, column j in lane 16 (i % 4) + 4b + j of
    pair i // 4 (the calculator's --detail-instruction for CDNA2 and 3)."""

    def __init__(self, m):
        self.m, self.blocks = m, 4 if m == 4 else 1

    def describe(self):
        return f'{self.m}x{self.m}x4, {self.blocks} block(s), f64'

    def src_regs(self):
        return 2

    def d_regs(self):
        return 8 if self.m == 16 else 2

    def sanitize(self, rows):
        out = []
        for lo, hi in zip(rows[0::2], rows[1::2]):
            words = [f64_words(float((w % 17) - 8)) for w in lo]
            out += [[x for x, _ in words], [y for _, y in words]]
        return out

    def c_value(self, seed, r, lane):
        v = float((seed * 31 + r // 2 * 7 + lane * 3) % 23 - 11)
        return f64_words(v)[r % 2]

    def mfma(self, a, b, c):
        d = [row[:] for row in c]
        for blk in range(self.blocks):
            for i in range(self.m):
                for j in range(self.m):
                    lane, p = 16 * (i % 4) + 4 * blk + j, i // 4
                    acc = f64_of(c[2 * p][lane], c[2 * p + 1][lane])
                    for k in range(4):
                        la, lb = 4 * blk + 16 * k + i, 4 * blk + 16 * k + j
                        acc += f64_of(a[0][la], a[1][la]) * f64_of(b[0][lb], b[1][lb])
                    d[2 * p][lane], d[2 * p + 1][lane] = f64_words(acc)
        return d


def mfma(s, a, b, c):
    if isinstance(s, ShapeF64):
        return s.mfma(a, b, c)
    d = [row[:] for row in c]
    for blk in range(s.blocks):
        for i in range(s.m):
            for j in range(s.m):
                lane, reg = s.d_at(i, j, blk)
                acc = sum(s.a_at(a, i, k, blk) * s.a_at(b, j, k, blk, s.btyp)
                          for k in range(s.k))
                if s.typ == 'i8':
                    cv = c[reg][lane]
                    cv = cv - (1 << 32) if cv >= 1 << 31 else cv
                    d[reg][lane] = (acc + cv) & 0xffffffff
                else:
                    d[reg][lane] = round32(acc + Fraction(from32(c[reg][lane])))
    return d
