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
        out.append(d)
    return out


def hipgrain_events(path):
    return [dict(e, event=e['event'].split(':', 1)[1])
            for e in events(path, 'hipgrain:')]
