# SPDX-License-Identifier: MIT
"""Hand-made CTF 1.8 traces: plain-text metadata and one stream file.

LTTng writes every sequence with its own length field, even where the
producer uses one count for several (the launch event's parallel argument
arrays).  A real trace can therefore only disagree with itself by damage;
this writer builds such a trace on purpose, byte for byte reproducible.
Schema 2 packs a launch's arguments into one sequence (`args`, four words
each); its damage is a length that is not a multiple of four.  Schema 3
writes the whole launch as one sequence (`words`: a head of seven, then the
arguments'), and alloc and free as an array of words each; their damage is a
sequence shorter than its head, or a partial last group.  Schema 4 writes
the same words as bytes, a launch's arguments in three words each
(common/hg_pack.h, packed here by a writer of its own); its damage is also
a length over 8, or bytes missing mid-value.  Schema 5 writes schema 4's
bytes in a field named `pack`, a few words transformed (common/hg_events.h:
dimensions and repeat less one, an argument's index as a step and mem |
gran << 4, a known block's free without address and size); its damage is
also a codes word wider than 24 bits.  Schema 6 writes the bytes that fit
one of an event's sizes as that size's event (launch12, alloc20, free8
here), a fixed array, a value widened to fill it, and a launch as the
number of a head declared by a `head` event, its repeat less one and its
arguments (`ref`); its damage is bytes that do not fill a size as a record
would, and a launch of a head never declared.  Schema 9 writes schema 7's
bytes as one string of text (`text`, `reftext`: common/hg_text.h, encoded
here by a writer of its own); its damage is also a character out of the
alphabet, a group out of range, and a length no text has.  Schema 10
writes a memcpy and a memset the same way (`text`).
"""
import os
import struct

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
trace {
    major = 1; minor = 8; byte_order = le;
    packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
stream { id = 0; event.header := struct { uint32_t id; }; };
event {
    name = "hipgrain:launch"; id = 0; stream_id = 0;
    fields := struct {
        uint8_t api; uint64_t handle; int32_t rc;
        uint16_t _arg_index_length; uint16_t arg_index[_arg_index_length];
        uint16_t _arg_value_length; uint64_t arg_value[_arg_value_length];
        uint16_t _arg_id_length; uint64_t arg_id[_arg_id_length];
        uint16_t _arg_offset_length; uint64_t arg_offset[_arg_offset_length];
        uint16_t _arg_mem_length; uint8_t arg_mem[_arg_mem_length];
        uint16_t _arg_gran_length; uint8_t arg_gran[_arg_gran_length];
    };
};
event {
    name = "hipgrain:launch"; id = 1; stream_id = 0;
    fields := struct {
        uint8_t api; uint64_t handle; int32_t rc;
        uint16_t _args_length; uint64_t args[_args_length];
        uint32_t repeat;
    };
};
event {
    name = "hipgrain:launch"; id = 2; stream_id = 0;
    fields := struct { uint16_t _words_length; uint64_t words[_words_length]; };
};
event {
    name = "hipgrain:alloc"; id = 3; stream_id = 0;
    fields := struct { uint64_t words[7]; };
};
event {
    name = "hipgrain:free"; id = 4; stream_id = 0;
    fields := struct { uint64_t words[5]; };
};
event {
    name = "hipgrain:launch"; id = 5; stream_id = 0;
    fields := struct { uint16_t _bytes_length; uint8_t bytes[_bytes_length]; };
};
event {
    name = "hipgrain:alloc"; id = 6; stream_id = 0;
    fields := struct { uint16_t _bytes_length; uint8_t bytes[_bytes_length]; };
};
event {
    name = "hipgrain:free"; id = 7; stream_id = 0;
    fields := struct { uint16_t _bytes_length; uint8_t bytes[_bytes_length]; };
};
event {
    name = "hipgrain:launch"; id = 8; stream_id = 0;
    fields := struct { uint16_t _pack_length; uint8_t pack[_pack_length]; };
};
event {
    name = "hipgrain:alloc"; id = 9; stream_id = 0;
    fields := struct { uint16_t _pack_length; uint8_t pack[_pack_length]; };
};
event {
    name = "hipgrain:free"; id = 10; stream_id = 0;
    fields := struct { uint16_t _pack_length; uint8_t pack[_pack_length]; };
};
event {
    name = "hipgrain:launch12"; id = 11; stream_id = 0;
    fields := struct { uint8_t ref[12]; };
};
event {
    name = "hipgrain:alloc20"; id = 12; stream_id = 0;
    fields := struct { uint8_t pack[20]; };
};
event {
    name = "hipgrain:free8"; id = 13; stream_id = 0;
    fields := struct { uint8_t pack[8]; };
};
event {
    name = "hipgrain:launch"; id = 14; stream_id = 0;
    fields := struct { uint16_t _ref_length; uint8_t ref[_ref_length]; };
};
event {
    name = "hipgrain:alloc20"; id = 16; stream_id = 0;
    fields := struct { uint32_t pack[5]; };
};
event {
    name = "hipgrain:free8"; id = 17; stream_id = 0;
    fields := struct { uint32_t pack[2]; };
};
event {
    name = "hipgrain:launch12"; id = 18; stream_id = 0;
    fields := struct { uint32_t ref[3]; };
};
event {
    name = "hipgrain:launch"; id = 19; stream_id = 0;
    fields := struct { uint16_t _ref_length; uint32_t ref[_ref_length]; };
};
event {
    name = "hipgrain:alloc"; id = 20; stream_id = 0;
    fields := struct { string text; };
};
event {
    name = "hipgrain:free"; id = 21; stream_id = 0;
    fields := struct { string text; };
};
event {
    name = "hipgrain:launch"; id = 22; stream_id = 0;
    fields := struct { string reftext; };
};
event {
    name = "hipgrain:memcpy"; id = 23; stream_id = 0;
    fields := struct { string text; };
};
event {
    name = "hipgrain:memset"; id = 24; stream_id = 0;
    fields := struct { string text; };
};
event {
    name = "hipgrain:head"; id = 15; stream_id = 0;
    fields := struct { uint32_t _id; uint8_t _api; uint64_t _handle;
                       uint64_t _stream; uint32_t _grid[3];
                       uint32_t _block[3]; uint32_t _shmem; int32_t _rc; };
};
"""

CTF_MAGIC = 0xC1FC1FC1


def _seq(fmt, values):
    return struct.pack('<H', len(values)) + b''.join(
        struct.pack('<' + fmt, v) for v in values)


def launch(index, value, ids, offset, mem, gran, handle=0x1000):
    """One hipgrain:launch event, each array as long as its list."""
    return (struct.pack('<I', 0) + struct.pack('<BQi', 90, handle, 0) +
            _seq('H', index) + _seq('Q', value) + _seq('Q', ids) +
            _seq('Q', offset) + _seq('B', mem) + _seq('B', gran))


def launch_packed(words, handle=0x1000):
    """One schema-2 hipgrain:launch event holding words as its args."""
    return (struct.pack('<I', 1) + struct.pack('<BQi', 90, handle, 0) +
            _seq('Q', words) + struct.pack('<I', 1))


def launch_words(words):
    """One schema-3 hipgrain:launch event: its words, head and arguments."""
    return struct.pack('<I', 2) + _seq('Q', words)


def launch_head(handle=0x1000, rc=0, repeat=1, api=90):
    """A schema-3 launch's seven head words (common/hg_events.h)."""
    return [handle, 0, 1 | 1 << 32, 1 | 1 << 32, 1 | 1 << 32,
            (rc & 0xffffffff) << 32, repeat | api << 32]


def alloc_words(ident, addr, size, api=20, mem=1, gran=1):
    """One schema-3 hipgrain:alloc event (rc 0, device 0, callsite 0)."""
    return struct.pack('<I', 3) + struct.pack(
        '<7Q', ident, addr, size, 0, 0, 0,
        api << 32 | mem << 40 | gran << 48)


def free_words(ident, addr, size, api=40, alloc_api=20):
    """One schema-3 hipgrain:free event (rc 0, callsite 0)."""
    return struct.pack('<I', 4) + struct.pack(
        '<5Q', ident, addr, size, 0, api << 32 | alloc_api << 40)


# Where schema 4 cuts each word in two (hipgrain-events(7), WORDS): the
# fixed words, then a launch's per-argument words over again.
CUTS = {5: ((0, 0, 32, 32, 32, 32, 32), (0, 0, 16)),
        6: ((0, 0, 0, 0, 0, 32, 32), ()), 7: ((0, 0, 0, 0, 32), ())}
CUTS.update({8: ((0, 0, 0, 0, 0, 32, 0), (0, 0, 0)), 9: CUTS[6],
             10: CUTS[7]})  # schema 5: the launch cut otherwise
CUTS[14] = ((0, 0), (0, 0, 0))  # schema 6's launch `ref`
CUTS[23] = ((0, 0, 0, 0, 0, 0, 0, 32, 0), ())  # schema 10's memcpy
CUTS[24] = ((0, 0, 0, 0, 0, 32, 0), ())  # and memset


def to_bytes(event_id, words):
    """Schema 4's bytes for words: values in pairs behind a tag byte."""
    head, rep = CUTS[event_id]
    vals = []
    for i, w in enumerate(words):
        cut = head[i] if i < len(head) else rep[(i - len(head)) % len(rep)]
        vals += [w & ((1 << cut) - 1), w >> cut] if cut else [w]
    out = b''
    for i in range(0, len(vals), 2):
        pair = vals[i:i + 2]
        lens = [(v.bit_length() + 7) // 8 for v in pair] + [15]
        out += bytes([lens[0] | lens[1] << 4]) + b''.join(
            v.to_bytes(n, 'little') for v, n in zip(pair, lens))
    return out


def packed(event_id, raw):
    """One schema-4 event (5 launch, 6 alloc, 7 free) or schema-5 event (8
    launch, 9 alloc, 10 free) holding raw bytes."""
    return struct.pack('<I', event_id) + _seq('B', raw)


def byte_words(words):
    """A launch's words as schema 4's bytes hold them: the head, then per
    argument (four words: value, id, offset, codes) three, id, the offset
    or, for id 0, the value, and codes.  A partial last group stays as it
    is."""
    out = list(words[:7])
    rest = words[7:]
    while len(rest) >= 4:
        value, ident, offset, codes = rest[:4]
        out += [ident, offset if ident else value, codes]
        rest = rest[4:]
    return out + rest


def launch_bytes(words):
    return packed(5, to_bytes(5, byte_words(words)))


def _less1(h):
    return (h - 1) & 0xffffffff


def v5_words(words):
    """A launch's schema-4 byte words (byte_words) as schema 5 transforms
    them: grid.x-1 | grid.y-1 << 32, block.x-1 | block.y-1 << 32, grid.z-1
    | block.z-1 << 32, shmem | rc << 32, repeat-1 | (api ^ 90) << 32, and
    each argument's codes as (mem | gran << 4) ^ 0x11 with its index's step
    from the one after the last above bit 8.  A partial last group stays as
    it is."""
    out = list(words)
    if len(out) >= 7:
        g, zb, yz = out[2], out[3], out[4]
        out[2] = _less1(g) | _less1(g >> 32) << 32
        out[3] = _less1(zb >> 32) | _less1(yz) << 32
        out[4] = _less1(zb) | _less1(yz >> 32) << 32
        out[6] = _less1(out[6]) | ((out[6] >> 32) ^ 90) << 32
    after = 0
    for i in range(9, len(out), 3):
        idx = out[i] & 0xffff
        out[i] = (((out[i] >> 16 & 15) | (out[i] >> 24 & 15) << 4) ^ 0x11) | \
            ((idx - after) & 0xffff) << 8
        after = idx + 1
    return out


def launch_pack(words):
    return packed(8, to_bytes(8, v5_words(byte_words(words))))


def alloc_pack(ident, addr, size, api=20, mem=1, gran=1):
    return packed(9, to_bytes(9, [ident, addr, size, 0, 0, 0,
                                  api << 32 | mem << 40 | gran << 48]))


def free_pack(ident, addr, size, api=40, alloc_api=20):
    """A known block's free (ident not 0) leaves addr and size out."""
    return packed(10, to_bytes(10, [ident, 0 if ident else addr,
                                    0 if ident else size, 0,
                                    api << 32 | alloc_api << 40]))


SIZED = {11: 12, 12: 20, 13: 8}  # launch12, alloc20, free8


def sized(event_id, raw):
    """One schema-6 event of a size (11 launch12, 12 alloc20, 13 free8)
    holding raw, exactly as long as the size."""
    assert len(raw) == SIZED[event_id]
    return struct.pack('<I', event_id) + bytes(raw)


QUAD = {16: 20, 17: 8, 18: 12, 19: None}  # alloc20, free8, launch12, launch


def quad(event_id, raw):
    """One schema-7 event (16 alloc20, 17 free8, 18 launch12: exactly as
    long as the size; 19 launch: any multiple of 4) holding raw as 32-bit
    little-endian elements, which are the bytes as they are."""
    size = QUAD[event_id]
    assert len(raw) == size if size else len(raw) % 4 == 0
    head = struct.pack('<I', event_id)
    return head + (bytes(raw) if size else
                   struct.pack('<H', len(raw) // 4) + bytes(raw))


TEXT = {20: 'alloc', 21: 'free', 22: 'launch', 23: 'memcpy', 24: 'memset'}


def text_digits(raw):
    """raw as schema 9's text (common/hg_text.h): every 4 bytes, a
    little-endian number, as 5 base-85 digits, most significant first; k
    trailing bytes as k + 1; the digits are '(' to '~' but '?' and
    backslash."""
    out = ''
    for i in range(0, len(raw), 4):
        chunk = raw[i:i + 4]
        v = int.from_bytes(chunk, 'little')
        digits = []
        for _ in range(len(chunk) + 1):
            digits.append(v % 85)
            v //= 85
        out += ''.join(chr(40 + d + (d >= 23) + (d >= 51))
                       for d in reversed(digits))
    return out


def text(event_id, raw=None, chars=None):
    """One schema-9 event (20 alloc, 21 free, 22 launch; schema 10: 23
    memcpy, 24 memset) holding raw as text, or chars as they are
    (damage)."""
    body = text_digits(raw) if chars is None else chars
    return struct.pack('<I', event_id) + body.encode('latin-1') + b'\0'


def widen(raw, size):
    """Schema 5's bytes made size bytes long as schema 6 does it: the last
    value takes zero bytes on top, its tag's length raised."""
    pos, last = 0, None
    while pos < len(raw):
        tag = raw[pos]
        lens = [tag & 15] + ([tag >> 4] if tag >> 4 != 15 else [])
        last = (pos, len(lens) - 1)
        pos += 1 + sum(lens)
    k = size - len(raw)
    assert 0 <= k and ((raw[last[0]] >> 4 * last[1]) & 15) + k <= 8
    out = bytearray(raw) + bytes(k)
    out[last[0]] += k << (4 * last[1])
    return bytes(out)


def head(ident, handle=0x1000, rc=0, api=90, grid=(1, 1, 1),
         block=(1, 1, 1)):
    """A schema-6 `head` event: a launch head declared as number ident."""
    return struct.pack('<IIBQQ3I3IIi', 15, ident, api, handle, 0, *grid,
                       *block, 0, rc)


def launch_ref(ident, args, repeat=1):
    """A schema-6 launch's `ref` bytes: head ident, repeat, then args
    (four words each, as launch_words takes them) as schema 5 packs
    them."""
    w = ctf_v5_args(byte_words([0] * 7 + list(args))[7:])
    return to_bytes(14, [ident, repeat - 1] + w)


def ctf_v5_args(w):
    return v5_words([0, 0, 1, 1, 1, 0, 1] + list(w))[7:]


def alloc_bytes(ident, addr, size, api=20, mem=1, gran=1):
    return packed(6, to_bytes(6, [ident, addr, size, 0, 0, 0,
                                  api << 32 | mem << 40 | gran << 48]))


def free_bytes(ident, addr, size, api=40, alloc_api=20):
    return packed(7, to_bytes(7, [ident, addr, size, 0,
                                  api << 32 | alloc_api << 40]))


META_MAGIC = 0x75D11D57
META_HEADER = 37  # magic, uuid, checksum, content and packet sizes, 5 bytes


def packetized(text, packet=4096):
    """text as CTF 1.8 packetized metadata (what LTTng up to 2.15 writes;
    2.16 writes CTF 2's JSON fragments), in packets of packet bytes."""
    body, out = text.encode(), b''
    room = packet - META_HEADER
    for i in range(0, len(body), room):
        chunk = body[i:i + room]
        content = META_HEADER + len(chunk)
        out += (struct.pack('<I16sIIIBBBBB', META_MAGIC, bytes(16), 0,
                            content * 8, packet * 8, 0, 0, 0, 1, 8) +
                chunk + bytes(packet - content))
    return out


def write(d, events, packets=False):
    """d/metadata and d/stream_0 holding events (bytes, one packet); the
    metadata in packets when asked."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'metadata'), 'wb') as f:
        f.write(packetized(METADATA) if packets else METADATA.encode())
    with open(os.path.join(d, 'stream_0'), 'wb') as f:
        f.write(struct.pack('<II', CTF_MAGIC, 0) + b''.join(events))
    return d


ZERO_BIT_METADATA = """/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace {
    major = 1; minor = 8; byte_order = le;
    packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
stream { id = 0; };
event {
    name = "hipgrain:launch"; id = 0; stream_id = 0;
    fields := struct { uint32_t none[0]; };
};
"""


def seed_events():
    """One event of each form of every schema, schema 6's sizes too: the
    trace fuzzer's seed and the plugin's test of every form."""
    return [launch([0, 1], [0x7f0000000000, 8], [1, 2], [0, 8], [4, 1],
                   [2, 1]),
            launch_packed([0x7f0000000000, 1, 0, 4 << 16 | 2 << 24]),
            alloc_words(1, 0x7f0000000000, 64),
            launch_words(launch_head() + [0x7f0000000000, 1, 0,
                                          4 << 16 | 2 << 24]),
            free_words(1, 0x7f0000000000, 64),
            alloc_bytes(2, 0x7f0000001000, 64),
            launch_bytes(launch_head() + [0x7f0000001000, 2, 0,
                                          4 << 16 | 2 << 24]),
            free_bytes(2, 0x7f0000001000, 64),
            alloc_pack(3, 0x7f0000002000, 64),
            launch_pack(launch_head() + [
                0x7f0000002000, 3, 0, 4 << 16 | 2 << 24,
                0x7f0000002010, 3, 16, 2 | 4 << 16 | 2 << 24]),
            free_pack(3, 0x7f0000002000, 64),
            sized(12, widen(alloc_pack(4, 0x7f0000003000, 64)[6:], 20)),
            head(4),
            sized(11, widen(launch_ref(4, [0x7f0000003000, 4, 0,
                                           4 << 16 | 2 << 24]), 12)),
            packed(14, launch_ref(4, [0x7f0000003000, 4, 16,
                                      1 | 4 << 16 | 2 << 24])),
            sized(13, widen(free_pack(4, 0x7f0000003000, 64)[6:], 8)),
            quad(16, widen(alloc_pack(5, 0x7f0000004000, 64)[6:], 20)),
            quad(18, widen(launch_ref(4, [0x7f0000004000, 5, 0,
                                          4 << 16 | 2 << 24]), 12)),
            quad(19, widen(launch_ref(4, [0x7f0000004000, 5, 16,
                                          1 | 4 << 16 | 2 << 24]), 12)),
            quad(17, widen(free_pack(5, 0x7f0000004000, 64)[6:], 8)),
            text(20, widen(alloc_pack(6, 0x7f0000005000, 64)[6:], 20)),
            text(22, widen(launch_ref(4, [0x7f0000005000, 6, 0,
                                          4 << 16 | 2 << 24]), 12)),
            text(21, widen(free_pack(6, 0x7f0000005000, 64)[6:], 8)),
            # longer than a reader's window, and not a multiple of 4
            text(22, launch_ref(4, [0x7f0000005000, 6, 8,
                                    4 << 16 | 2 << 24] * 12)),
            text(23, up4(to_bytes(23, [0x7f0000005000, 0x550000001000, 64,
                                       6, 0, 0x1234, 0, 1,
                                       51 | 1 << 8 | 6 << 16 | 1 << 24]))),
            text(24, up4(to_bytes(24, [0x7f0000005010, 16, 6, 0, 0, 0xff,
                                       70 | 1 << 8])))]


def up4(raw):
    """raw widened to a multiple of 4 bytes, as schema 7 on writes it."""
    return widen(raw, -(-len(raw) // 4) * 4)


def zero_bit_events(d, payload=16):
    """A trace whose only event class takes no bits: a reader that trusts
    it delivers events forever without moving (babeltrace2 2.0 does)."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'metadata'), 'w') as f:
        f.write(ZERO_BIT_METADATA)
    with open(os.path.join(d, 'stream_0'), 'wb') as f:
        f.write(struct.pack('<II', CTF_MAGIC, 0) + bytes(payload))
    return d
