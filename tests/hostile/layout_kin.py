# SPDX-License-Identifier: MIT
"""The packet layout's hostile kin: every integer a reader trusts to find
its packets, set to its type's extremes, one at a time.

fz_trace once found a trace whose metadata declared uint64_t 28 bits wide:
packet_size moved, and babeltrace2 2.1 read it as 0 and indexed the same
packet until it held 1.9 GB.  Its kin, made here from a real LTTng trace of
the analyzer's fixtures (CTF 1.8 whatever the release's LTTng writes):

- each integer typealias of the metadata, its size and its alignment set
  to 0, 1, a width that moves what follows, and past what CTF allows;
- each field of the metadata's own packet header (packetized TSDL);
- each field of a stream file's packet header and context.

Each must end in a report or a clear error, in bounded memory (an address
space cap, MEM_MB) and without hanging.  Fields a reader sizes packets by
must be named when they are wrong.
"""
import os
import re
import struct

from hostile import Case, says_any

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, '..', 'analyzer', 'fixtures', 'schema6',
                       'arraysum_unsafe-hostmalloc', 'ust', 'uid', '0',
                       '64-bit')
CORPUS = os.path.join(HERE, '..', '..', 'fuzz', 'corpus', 'trace')
# Well under what the trace-oom input cost (1.9 GB), well over a report's
# own address space.
MEM_MB = 512
STREAM = 'hipgrain_1'

# The typealiases the packet header and context are made of.
PACKET_TYPES = ('uint8_t', 'uint32_t', 'uint64_t', 'unsigned long',
                'uint64_clock_monotonic_t')
SIZES = (0, 1, 28, 65, 2**32 - 1)
ALIGNS = (0, 1, 3, 2**31, 2**64 - 1)

# LTTng's metadata packet header: (name, offset, struct format).
META_HEADER = (('magic', 0, '<I'), ('checksum', 20, '<I'),
               ('content_size', 24, '<I'), ('packet_size', 28, '<I'),
               ('compression_scheme', 32, 'B'), ('encryption_scheme', 33, 'B'),
               ('checksum_scheme', 34, 'B'), ('major', 35, 'B'),
               ('minor', 36, 'B'))
# LTTng-UST's stream packet header and context (64-bit).
STREAM_HEADER = (('magic', 0, '<I'), ('stream_id', 20, '<I'),
                 ('stream_instance_id', 24, '<Q'),
                 ('timestamp_begin', 32, '<Q'), ('timestamp_end', 40, '<Q'),
                 ('content_size', 48, '<Q'), ('packet_size', 56, '<Q'),
                 ('packet_seq_num', 64, '<Q'), ('events_discarded', 72, '<Q'),
                 ('cpu_id', 80, '<I'))
# Fields that decide where packets are: a wrong one is named.
SIZING = ('magic', 'content_size', 'packet_size')


def tsdl(metadata):
    """Packetized metadata's text, joined."""
    out, at = b'', 0
    while at + 37 <= len(metadata):
        content, packet = struct.unpack_from('<II', metadata, at + 24)
        out += metadata[at + 37:at + content // 8]
        at += packet // 8
    return out


def trace(work, name, metadata, stream=None):
    """A trace directory: the fixture's streams, no index (babeltrace
    then walks the packets itself, as on a node that died mid-write)."""
    d = os.path.join(work, name)
    os.makedirs(d)
    open(os.path.join(d, 'metadata'), 'wb').write(metadata)
    for f in ('hipgrain_0', STREAM):
        data = stream if f == STREAM and stream is not None else \
            open(os.path.join(FIXTURE, f), 'rb').read()
        open(os.path.join(d, f), 'wb').write(data)
    return d


def case(hg, name, d, check=None, expect=None):
    return Case(name, [hg, 'report', '--format', 'json', d], expect,
                json_out=True, check=check, mem_mb=MEM_MB)


def typealias_cases(hg, work):
    text = tsdl(open(os.path.join(FIXTURE, 'metadata'), 'rb').read())
    alias = re.compile(rb'typealias integer \{([^}]*)\} := ([^;]+);')
    cases = []
    for m in alias.finditer(text):
        name = m.group(2).decode().strip()
        if name not in PACKET_TYPES:
            continue
        for attr, values in ((b'size', SIZES), (b'align', ALIGNS)):
            for v in values:
                body = re.sub(attr + rb' = \d+', attr + b' = %d' % v,
                              m.group(1))
                meta = text[:m.start(1)] + body + text[m.end(1):]
                tag = 'meta-%s-%s-%d' % (name.replace(' ', '_'),
                                         attr.decode(), v)
                cases.append(case(hg, 'metadata: %s %s = %d' % (
                    name, attr.decode(), v), trace(work, tag, meta)))
    return cases


def extremes(fmt):
    return (0, (1 << (8 * struct.calcsize(fmt))) - 1)


def meta_header_cases(hg, work):
    base = open(os.path.join(FIXTURE, 'metadata'), 'rb').read()
    cases = []
    for name, off, fmt in META_HEADER:
        for v in extremes(fmt):
            meta = bytearray(base)
            struct.pack_into(fmt, meta, off, v)
            tag = 'metahdr-%s-%d' % (name, v)
            cases.append(case(hg, 'metadata packet header: %s = %#x' % (
                name, v), trace(work, tag, bytes(meta))))
    return cases


def stream_cases(hg, work):
    meta = open(os.path.join(FIXTURE, 'metadata'), 'rb').read()
    base = open(os.path.join(FIXTURE, STREAM), 'rb').read()
    cases = []
    for name, off, fmt in STREAM_HEADER:
        for v in extremes(fmt):
            data = bytearray(base)
            struct.pack_into(fmt, data, off, v)
            check = says_any(name) if name in SIZING else None
            tag = 'pkt-%s-%d' % (name, v)
            cases.append(case(hg, 'stream packet: %s = %#x' % (name, v),
                              trace(work, tag, meta, bytes(data)), check))
    return cases


def corpus_cases(hg, work):
    """Every input fz_trace kept (fuzz/corpus/trace), unpacked as the
    harness does: a report or a clear error, in bounded memory."""
    cases = []
    for f in sorted(os.listdir(CORPUS)):
        data = open(os.path.join(CORPUS, f), 'rb').read()
        n, = struct.unpack_from('<I', data)
        d = os.path.join(work, 'corpus-' + f)
        os.makedirs(d)
        open(os.path.join(d, 'metadata'), 'wb').write(data[4:4 + n])
        open(os.path.join(d, 'stream_0'), 'wb').write(data[4 + n:])
        check, expect = None, None
        if f == 'trace-oom-packet-size':
            check, expect = says_any('content_size'), (1,)
        cases.append(case(hg, 'regression: fuzz corpus input %s' % f, d,
                          check, expect))
    return cases


def layout_cases(hg, work):
    return (corpus_cases(hg, work) + typealias_cases(hg, work) +
            meta_header_cases(hg, work) + stream_cases(hg, work))
