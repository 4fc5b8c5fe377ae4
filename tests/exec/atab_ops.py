# SPDX-License-Identifier: MIT
"""The operations of AMD's atomics tables (atomics/amd-atomics.tsv), as the
oracle (test_atab_oracle.py) needs them: each one's width, the hardware
instruction a compiler emits for it, what it computes (worked out here on
the host), the operands each lane gives it, and the VALU code by which a
compare-and-swap loop computes the new value from the loaded one."""
import functools
import struct

from exec_host import f32, f16, from32, from16

M32, M64 = 0xffffffff, 0xffffffffffffffff


def sx(v, bits):
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def _f(u):
    return from32(u)


def _d(u):
    return struct.unpack('<d', struct.pack('<Q', u))[0]


def _du(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def _pk(o, s, half_add):
    return half_add(o & 0xffff, s & 0xffff) | half_add(o >> 16, s >> 16) << 16


def _f16_add(a, b):
    return f16(from16(a) + from16(b))


def _bf16_add(a, b):
    # The operands below make every sum exact in bfloat16, so the
    # rounding of the f32 sum is no question.
    return f32(from32(a << 16) + from32(b << 16)) >> 16


# op: (width in bytes, instruction, host function of (old, operand)).
# cas-* take the operand as (new, compare).
OPS = {
    'add-i32': (4, 'global_atomic_add', lambda o, s: (o + s) & M32),
    'sub-i32': (4, 'global_atomic_sub', lambda o, s: (o - s) & M32),
    'min-i32': (4, 'global_atomic_smin', lambda o, s: min(sx(o, 32), sx(s, 32)) & M32),
    'max-i32': (4, 'global_atomic_smax', lambda o, s: max(sx(o, 32), sx(s, 32)) & M32),
    'inc-i32': (4, 'global_atomic_inc', lambda o, s: 0 if o >= s else o + 1),
    'dec-i32': (4, 'global_atomic_dec', lambda o, s: s if o == 0 or o > s else o - 1),
    'add-i64': (8, 'global_atomic_add_x2', lambda o, s: (o + s) & M64),
    'min-i64': (8, 'global_atomic_smin_x2', lambda o, s: min(sx(o, 64), sx(s, 64)) & M64),
    'max-i64': (8, 'global_atomic_smax_x2', lambda o, s: max(sx(o, 64), sx(s, 64)) & M64),
    'add-f32': (4, 'global_atomic_add_f32', lambda o, s: f32(_f(o) + _f(s))),
    'min-f32': (4, 'global_atomic_min_f32', lambda o, s: f32(min(_f(o), _f(s)))),
    'max-f32': (4, 'global_atomic_max_f32', lambda o, s: f32(max(_f(o), _f(s)))),
    'add-f64': (8, 'global_atomic_add_f64', lambda o, s: _du(_d(o) + _d(s))),
    'min-f64': (8, 'global_atomic_min_f64', lambda o, s: _du(min(_d(o), _d(s)))),
    'max-f64': (8, 'global_atomic_max_f64', lambda o, s: _du(max(_d(o), _d(s)))),
    'add-pk-f16': (4, 'global_atomic_pk_add_f16', lambda o, s: _pk(o, s, _f16_add)),
    'add-pk-bf16': (4, 'global_atomic_pk_add_bf16', lambda o, s: _pk(o, s, _bf16_add)),
    'exch-i32': (4, 'global_atomic_swap', lambda o, s: s),
    'cas-i32': (4, 'global_atomic_cmpswap', lambda o, s: s[0] if o == s[1] else o),
    'and-i32': (4, 'global_atomic_and', lambda o, s: o & s),
    'or-i32': (4, 'global_atomic_or', lambda o, s: o | s),
    'xor-i32': (4, 'global_atomic_xor', lambda o, s: o ^ s),
    'exch-i64': (8, 'global_atomic_swap_x2', lambda o, s: s),
    'cas-i64': (8, 'global_atomic_cmpswap_x2', lambda o, s: s[0] if o == s[1] else o),
    'and-i64': (8, 'global_atomic_and_x2', lambda o, s: o & s),
    'or-i64': (8, 'global_atomic_or_x2', lambda o, s: o | s),
    'xor-i64': (8, 'global_atomic_xor_x2', lambda o, s: o ^ s),
}


def _mix(*xs):
    """A fixed pseudo-random 64-bit value of xs (splitmix64's finaliser)."""
    z = 0
    for x in xs:
        z = (z + x + 0x9e3779b97f4a7c15) & M64
        z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9 & M64
        z = (z ^ z >> 27) * 0x94d049bb133111eb & M64
        z ^= z >> 31
    return z


@functools.lru_cache(maxsize=None)
def lane_values(op, lane):
    """(memory's value before, operand) of lane for op: values whose result
    differs from the memory's in (nearly) every lane, so that an atomic
    that did nothing shows; signed and unsigned orders both met."""
    i = list(OPS).index(op)
    r0, r1 = _mix(i, lane, 1), _mix(i, lane, 2)
    w = OPS[op][0]
    mask = M32 if w == 4 else M64
    if op in ('inc-i32', 'dec-i32'):
        return lane * 7 % 50, 20 + lane % 30
    if op.startswith('cas-'):
        init = r0 & mask | 1
        return init, (r1 & mask, init if lane % 2 == 0 else init ^ 0x10)
    if op.endswith('-f32'):
        return f32((lane - 31.5) * 1.25), f32((17.5 - lane) * 0.75)
    if op.endswith('-f64'):
        return _du((lane - 20.25) * 3.5), _du(lane * 0.5 - 7.75)
    if op.startswith('add-pk-'):
        conv = f16 if op == 'add-pk-f16' else (lambda x: f32(x) >> 16)
        lo, hi = (lane - 32) * 0.5, lane * 0.25 + 0.5
        return conv(lo) | conv(hi) << 16, conv(1.5) | conv(-lane * 0.125 - 0.25) << 16
    return r0 & mask | 1, r1 & mask


# The VALU code of a compare-and-swap loop: the new value from the loaded
# one (32-bit: v10, operand v2, new v12, scratch v15-v17; 64-bit: v[10:11],
# operand v[2:3], new v[12:13]; s[18:19] scratch).  Tuples start at even
# registers, as gfx90a wants.
_LOOP32 = {
    'add-i32': 'v_add_u32 v12, v10, v2',
    'sub-i32': 'v_sub_u32 v12, v10, v2',
    'min-i32': 'v_min_i32 v12, v10, v2',
    'max-i32': 'v_max_i32 v12, v10, v2',
    'inc-i32': 'v_add_u32 v12, 1, v10\nv_cmp_lt_u32 vcc, v10, v2\n'
               'v_cndmask_b32 v12, 0, v12, vcc',
    'dec-i32': 'v_add_u32 v12, -1, v10\nv_cmp_eq_u32_e64 s[18:19], 0, v10\n'
               'v_cmp_gt_u32 vcc, v10, v2\ns_or_b64 vcc, vcc, s[18:19]\n'
               'v_cndmask_b32 v12, v12, v2, vcc',
    'add-f32': 'v_add_f32 v12, v10, v2',
    'min-f32': 'v_min_f32 v12, v10, v2',
    'max-f32': 'v_max_f32 v12, v10, v2',
    'add-pk-f16': 'v_pk_add_f16 v12, v10, v2',
    # no bf16 arithmetic: each half widened to f32, added, and cut back
    # (exact here, see _bf16_add)
    'add-pk-bf16': 'v_lshlrev_b32 v15, 16, v10\nv_lshlrev_b32 v16, 16, v2\n'
                   'v_add_f32 v15, v15, v16\nv_and_b32 v17, 0xffff0000, v10\n'
                   'v_and_b32 v16, 0xffff0000, v2\nv_add_f32 v17, v17, v16\n'
                   'v_lshrrev_b32 v15, 16, v15\nv_and_b32 v17, 0xffff0000, v17\n'
                   'v_or_b32 v12, v15, v17',
    'exch-i32': 'v_mov_b32 v12, v2',
    'and-i32': 'v_and_b32 v12, v10, v2',
    'or-i32': 'v_or_b32 v12, v10, v2',
    'xor-i32': 'v_xor_b32 v12, v10, v2',
}
_LOOP64 = {
    'add-i64': 'v_add_co_u32 v12, vcc, v10, v2\nv_addc_co_u32 v13, vcc, v11, v3, vcc',
    'min-i64': 'v_cmp_lt_i64 vcc, v[10:11], v[2:3]\nv_cndmask_b32 v12, v2, v10, vcc\n'
               'v_cndmask_b32 v13, v3, v11, vcc',
    'max-i64': 'v_cmp_gt_i64 vcc, v[10:11], v[2:3]\nv_cndmask_b32 v12, v2, v10, vcc\n'
               'v_cndmask_b32 v13, v3, v11, vcc',
    'add-f64': 'v_add_f64 v[12:13], v[10:11], v[2:3]',
    'min-f64': 'v_min_f64 v[12:13], v[10:11], v[2:3]',
    'max-f64': 'v_max_f64 v[12:13], v[10:11], v[2:3]',
    'exch-i64': 'v_mov_b32 v12, v2\nv_mov_b32 v13, v3',
    'and-i64': 'v_and_b32 v12, v10, v2\nv_and_b32 v13, v11, v3',
    'or-i64': 'v_or_b32 v12, v10, v2\nv_or_b32 v13, v11, v3',
    'xor-i64': 'v_xor_b32 v12, v10, v2\nv_xor_b32 v13, v11, v3',
}


def loop_valu(op):
    """The loop's VALU code for op; None for compare-and-swap itself."""
    return _LOOP32.get(op) or _LOOP64.get(op)
