"""Read a hipgrain trace into plain Python values, through babeltrace2's own
Python bindings (Debian's python3-bt2), for tests to assert on."""
import bt2


def _value(f):
    if isinstance(f, bt2._StringFieldConst):
        return str(f)
    if isinstance(f, (bt2._ArrayFieldConst,)):
        return [_value(x) for x in f]
    if isinstance(f, bt2._StructureFieldConst):
        return {k: _value(v) for k, v in f.items()}
    if isinstance(f, (bt2._IntegerFieldConst, bt2._EnumerationFieldConst)):
        return int(f)
    if isinstance(f, bt2._RealFieldConst):
        return float(f)
    return f


WORDS = 4  # HG_LAUNCH_WORDS (common/hg_events.h)
HEAD = 7  # HG_LAUNCH_HEAD
# Where schema 4 cuts each word into two values (common/hg_pack.h):
# (the fixed words, then the launch's per-argument words over again).
SHAPES = {'hipgrain:alloc': ((0, 0, 0, 0, 0, 32, 32), ()),
          'hipgrain:free': ((0, 0, 0, 0, 32), ()),
          'hipgrain:launch': ((0, 0, 32, 32, 32, 32, 32), (0, 0, 16)),
          # schema 10 on; written in `text` as schema 9's alloc
          'hipgrain:memcpy': ((0, 0, 0, 0, 0, 0, 0, 32, 0), ()),
          'hipgrain:memset': ((0, 0, 0, 0, 0, 32, 0), ())}
BYTE_WORDS = 3  # HG_LAUNCH_BYTE_WORDS: id, offset (or value), codes
# Schema 5's `pack` (hg_shape_launch5): the launch's head and arguments cut
# otherwise; alloc and free as in schema 4.
SHAPES5 = dict(SHAPES, **{'hipgrain:launch': ((0, 0, 0, 0, 0, 32, 0),
                                              (0, 0, 0))})
# Schema 6's launch `ref` (hg_pack_launch_ref): its head's number and its
# repeat less one, then schema 5's arguments; the head is a `head` event's.
SHAPES6 = {'hipgrain:launch': ((0, 0), (0, 0, 0))}


def unpack_bytes(name, b, shapes=SHAPES):
    """Schema 4's bytes and schema 5's pack (common/hg_pack.h; shapes=SHAPES5)
    as the words they hold (schema 5's still transformed: undo_v5): values
    in pairs after a tag byte of two lengths; a word is one or two values.
    Stops at the end or at damage, as the analyzer does."""
    vals, pos = [], 0
    while pos < len(b):
        tag = b[pos]
        pos += 1
        for n in (tag & 15, tag >> 4):
            if n > 8 or pos + n > len(b):
                break
            vals.append(int.from_bytes(bytes(b[pos:pos + n]), 'little'))
            pos += n
        else:
            continue
        break
    head, rep = shapes[name]
    words, i = [], 0
    while True:
        k = len(words)
        split = head[k] if k < len(head) else (
            rep[(k - len(head)) % len(rep)] if rep else 0)
        need = 2 if split else 1
        if i + need > len(vals):
            return words
        words.append(vals[i] | (vals[i + 1] << split if split else 0))
        i += need


def _plus1(h):
    return (h + 1) & 0xffffffff


def undo_v5(name, w, blocks):
    """Schema 5's transformed words back as schema 4 wrote them
    (common/hg_pack.h): a known block's free gets the block's address and
    size (blocks: (addr, size) by id; None where no alloc was read); a
    launch its head (grid.x-1 | grid.y-1 << 32, block.x-1 | block.y-1 << 32,
    grid.z-1 | block.z-1 << 32, shmem | rc << 32, repeat-1 | (api ^ 90) <<
    32) and each argument its index, memory class and granularity
    ((mem | gran << 4) ^ 0x11, and the index's step above bit 8)."""
    w = list(w)
    if name == 'hipgrain:free' and len(w) > 2 and w[0]:
        w[1], w[2] = blocks.get(w[0], (None, None))
    if name != 'hipgrain:launch' or len(w) < HEAD:
        return w
    g, b, z = w[2], w[3], w[4]
    w[2] = _plus1(g) | _plus1(g >> 32) << 32
    w[3] = _plus1(z) | _plus1(b) << 32
    w[4] = _plus1(b >> 32) | _plus1(z >> 32) << 32
    w[6] = _plus1(w[6]) | ((w[6] >> 32) ^ 90) << 32
    return w[:HEAD] + undo_codes(w[HEAD:])


def undo_codes(args):
    """Schema 5's arguments (three words each) with their codes words back
    as schema 4 wrote them: index | mem << 16 | gran << 24."""
    w, after = list(args), 0
    for i in range(2, len(w), BYTE_WORDS):
        c = w[i]
        idx = ((c >> 8) + after) & 0xffff
        after = idx + 1
        cls = (c & 0xff) ^ 0x11
        w[i] = 0 if c >> 24 else idx | (cls & 15) << 16 | (cls >> 4) << 24
    return w


def head_words(h, repeat1):
    """A `head` event's fields (h: None where none of its number was read,
    the kernel then unknown) and a launch's repeat less one as a launch's
    head words (common/hg_events.h)."""
    h = h or {'handle': 0, 'stream': 0, 'grid': [1, 1, 1],
              'block': [1, 1, 1], 'shmem': 0, 'rc': 0, 'api': 90}
    g, b = h['grid'], h['block']
    return [h['handle'], h['stream'], g[0] | g[1] << 32, g[2] | b[0] << 32,
            b[1] | b[2] << 32, h['shmem'] | (h['rc'] & 0xffffffff) << 32,
            (repeat1 + 1) & 0xffffffff | h['api'] << 32]


def _s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >> 31 else x


def _lo(x):
    return x & 0xffffffff


def byte_args(w, addr):
    """Schema 4's three words per argument as schema 3's four: a resolved
    pointer's value is its allocation's address (addr: by id) plus the
    offset; None where no alloc event of that id was read."""
    out = []
    for i in range(0, len(w) - BYTE_WORDS + 1, BYTE_WORDS):
        ident, where, codes = w[i:i + BYTE_WORDS]
        value = addr[ident] + where if ident in addr else None
        out += ([value, ident, where, codes] if ident
                else [where, 0, 0, codes])
    return out


def unpack_args(d, w):
    """A launch's per-argument words (schema 2 and later), four per pointer
    argument, as the six lists schema 1 wrote and tests read."""
    g = [w[i:i + WORDS] for i in range(0, len(w) - WORDS + 1, WORDS)]
    d['arg_value'] = [x[0] for x in g]
    d['arg_id'] = [x[1] for x in g]
    d['arg_offset'] = [x[2] for x in g]
    d['arg_index'] = [x[3] & 0xffff for x in g]
    d['arg_mem'] = [x[3] >> 16 & 0xff for x in g]
    d['arg_gran'] = [x[3] >> 24 & 0xff for x in g]


def unpack_words(name, d, addr):
    """Schemas 3 to 5 write alloc, free and launch as one field each, and
    schema 10 a memcpy and a memset (positions in common/hg_events.h);
    tests read the named fields of schema 2 (a memcpy's and a memset's of
    schema 9).  addr: each allocation's address by id, for the launches of
    schemas 4 and 5."""
    w = d.pop('words')
    if name == 'hipgrain:alloc':
        d.update(id=w[0], addr=w[1], size=w[2], extra=w[3], callsite=w[4],
                 flags=_lo(w[5]), rc=_s32(w[5] >> 32), device=_s32(w[6]),
                 api=w[6] >> 32 & 0xff, mem=w[6] >> 40 & 0xff,
                 gran=w[6] >> 48 & 0xff, lazy=w[6] >> 56)
    elif name == 'hipgrain:free':
        d.update(id=w[0], addr=w[1], size=w[2], callsite=w[3],
                 rc=_s32(w[4]), api=w[4] >> 32 & 0xff,
                 alloc_api=w[4] >> 40 & 0xff)
    elif name == 'hipgrain:memcpy':
        d.update(dst=w[0], src=w[1], size=w[2], dst_id=w[3], src_id=w[4],
                 stream=w[5], callsite=w[6], kind=_s32(w[7]),
                 rc=_s32(w[7] >> 32), api=w[8] & 0xff,
                 dst_mem=w[8] >> 8 & 0xff, src_mem=w[8] >> 16 & 0xff)
        d['async'] = w[8] >> 24 & 0xff  # a keyword: not an argument name
    elif name == 'hipgrain:memset':
        d.update(dst=w[0], size=w[1], dst_id=w[2], stream=w[3],
                 callsite=w[4], value=_s32(w[5]), rc=_s32(w[5] >> 32),
                 api=w[6] & 0xff, dst_mem=w[6] >> 8 & 0xff)
    else:
        d.update(handle=w[0], stream=w[1],
                 grid=[_lo(w[2]), w[2] >> 32, _lo(w[3])],
                 block=[w[3] >> 32, _lo(w[4]), w[4] >> 32],
                 shmem=_lo(w[5]), rc=_s32(w[5] >> 32), repeat=_lo(w[6]),
                 api=w[6] >> 32 & 0xff)
        unpack_args(d, byte_args(w[HEAD:], addr) if addr is not None
                    else w[HEAD:])


def kfd_svm_pairs(d):
    """A kfd_svm event's attrs, the ioctl's (type, value) pairs flattened,
    as the pairs (KFD_IOCTL_SVM_ATTR_* types): d['pairs']."""
    d.pop('_attrs_length', None)
    a = d.get('attrs', [])
    d['pairs'] = list(zip(a[0::2], a[1::2]))


def event_name(name):
    """Schema 6's sized events (hipgrain:launch24: a launch in 24 bytes) by
    the name of the event they are."""
    base = name.rstrip('0123456789')
    return base if name.startswith('hipgrain:') and base in SHAPES else name


def quad_bytes(payload, d):
    """Schema 7's `pack` and `ref`, 32-bit elements, as the bytes they hold
    (little-endian, common/hg_pack.h), the form schemas 5 and 6 wrote."""
    for name in ('pack', 'ref'):
        if name not in d or not isinstance(d[name], list):
            continue
        elem = payload[name].cls.element_field_class
        if getattr(elem, 'field_value_range', 8) == 32:
            d[name] = list(b''.join(int(x).to_bytes(4, 'little')
                                    for x in d[name]))


def text_bytes(d):
    """Schema 9's `text` and `reftext` as the bytes they hold
    (common/hg_text.h), in the fields schema 7 names them by: 5 base-85
    digits, most significant first, for every 4 little-endian bytes, k + 1
    for k trailing ones; the digits are '(' to '~' but '?' and backslash.
    A text no record has reads as no bytes."""
    for name, form in (('text', 'pack'), ('reftext', 'ref')):
        t = d.pop(name, None)
        if not isinstance(t, str):
            continue
        out = b''
        for i in range(0, len(t), 5):
            v, group = 0, t[i:i + 5]
            for c in group:
                o = ord(c)
                digit = o - 40 - (o > 63) - (o > 92)
                if o in (63, 92) or not 0 <= digit < 85:
                    v = None
                    break
                v = v * 85 + digit
            if v is None or len(group) < 2 or v >> 8 * (len(group) - 1):
                out = b''
                break
            out += v.to_bytes(len(group) - 1, 'little')
        d[form] = list(out)


def events(path, prefix=''):
    """Every event of the trace(s) under path, in time order, as dicts with
    'event' (its name), the payload fields, and the 'vpid' context."""
    out = []
    discarded = 0
    addrs = {}  # by vpid: each allocation's address by id
    blocks = {}  # by vpid: each allocation's (address, size) by id
    heads = {}  # by vpid: each launch head's fields by number
    for msg in bt2.TraceCollectionMessageIterator(path):
        if isinstance(msg, bt2._DiscardedEventsMessageConst):
            discarded += msg.count or 0
            continue
        if not isinstance(msg, bt2._EventMessageConst):
            continue
        ev = msg.event
        if not ev.name.startswith(prefix):
            continue
        name = event_name(ev.name)
        d = {'event': name}
        if ev.common_context_field is not None:
            d.update(_value(ev.common_context_field))
        if ev.payload_field is not None:
            d.update(_value(ev.payload_field))
            quad_bytes(ev.payload_field, d)
            text_bytes(d)
        addr = None  # schema 3's words
        blk = blocks.setdefault(d.get('vpid'), {})
        if name == 'hipgrain:head':
            heads.setdefault(d.get('vpid'), {})[d['id']] = d
        if 'ref' in d and name in SHAPES6:
            d.pop('_ref_length', None)
            w = unpack_bytes(name, d.pop('ref'), SHAPES6)
            h = heads.get(d.get('vpid'), {}).get(w[0]) if w else None
            d['words'] = head_words(h, w[1] if len(w) > 1 else 0) + \
                undo_codes(w[2:])
            addr = addrs.setdefault(d.get('vpid'), {})
        elif 'pack' in d and name in SHAPES:
            d.pop('_pack_length', None)
            d['words'] = undo_v5(name, unpack_bytes(name, d.pop('pack'),
                                                       SHAPES5), blk)
            addr = addrs.setdefault(d.get('vpid'), {})
        elif 'bytes' in d and name in SHAPES:
            d.pop('_bytes_length', None)
            d['words'] = unpack_bytes(name, d.pop('bytes'))
            addr = addrs.setdefault(d.get('vpid'), {})
        if 'words' in d and name.startswith('hipgrain:'):
            unpack_words(name, d, addr)
            if name == 'hipgrain:alloc' and addr is not None:
                addr[d['id']] = d['addr']
                blk[d['id']] = (d['addr'], d['size'])
        elif name == 'hipgrain:launch' and 'args' in d:
            unpack_args(d, d.pop('args'))
        elif name == 'hipgrain:kfd_svm':
            kfd_svm_pairs(d)
        out.append(d)
    return out


def hipgrain_events(path):
    return [dict(e, event=e['event'].split(':', 1)[1])
            for e in events(path, 'hipgrain:')]
