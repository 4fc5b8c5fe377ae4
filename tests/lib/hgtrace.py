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


def unpack_launch(d):
    """Schema 2 writes a launch's per-argument data as one sequence, four
    words per pointer argument; tests read the six lists of schema 1."""
    w = d.pop('args')
    g = [w[i:i + WORDS] for i in range(0, len(w) - WORDS + 1, WORDS)]
    d['arg_value'] = [x[0] for x in g]
    d['arg_id'] = [x[1] for x in g]
    d['arg_offset'] = [x[2] for x in g]
    d['arg_index'] = [x[3] & 0xffff for x in g]
    d['arg_mem'] = [x[3] >> 16 & 0xff for x in g]
    d['arg_gran'] = [x[3] >> 24 & 0xff for x in g]


def events(path, prefix=''):
    """Every event of the trace(s) under path, in time order, as dicts with
    'event' (its name), the payload fields, and the 'vpid' context."""
    out = []
    discarded = 0
    for msg in bt2.TraceCollectionMessageIterator(path):
        if isinstance(msg, bt2._DiscardedEventsMessageConst):
            discarded += msg.count or 0
            continue
        if not isinstance(msg, bt2._EventMessageConst):
            continue
        ev = msg.event
        if not ev.name.startswith(prefix):
            continue
        d = {'event': ev.name}
        if ev.common_context_field is not None:
            d.update(_value(ev.common_context_field))
        if ev.payload_field is not None:
            d.update(_value(ev.payload_field))
        if ev.name == 'hipgrain:launch' and 'args' in d:
            unpack_launch(d)
        out.append(d)
    return out


def hipgrain_events(path):
    return [dict(e, event=e['event'].split(':', 1)[1])
            for e in events(path, 'hipgrain:')]
