#!/usr/bin/env python3
"""hipgrain-events(7) documents every event and field the provider defines.
usage: test_events_doc.py hg_tp.h hipgrain-events.7.scd"""
import re
import sys

tp, page = (open(p).read() for p in sys.argv[1:3])
n = failed = 0
classes = {}
for m in re.finditer(r'LTTNG_UST_TRACEPOINT_EVENT(?:_CLASS)?\(hipgrain,\s*(\w+),'
                     r'(.*?)\n\)\n', tp, re.S):
    fields = re.findall(r'lttng_ust_field_\w+\((?:[\w ]+,\s*)?(\w+),', m.group(2))
    classes[m.group(1)] = fields
events = dict(classes)
instances = re.findall(r'EVENT_INSTANCE\(hipgrain,\s*(\w+),\s*hipgrain,\s*(\w+)', tp)
for cls, ev in instances:
    events[ev] = classes[cls]
for cls, _ in instances:  # a class is no event of its own
    events.pop(cls, None)
rows = {}
twice = []
# A row names one event, or several with the same fields ("a, b").
for m in re.finditer(r'^\|\s+(\w+(?:, \w+)*)\n:\s+(.*?)\n:', page,
                     re.S | re.M):
    for ev in m.group(1).split(', '):
        if ev in rows:
            twice.append(ev)
        rows[ev] = set(re.findall(r'\w+', m.group(2)))
for ev, fields in sorted(events.items()):
    n += 1
    missing = [f for f in fields if f not in rows.get(ev, set())]
    ok = ev in rows and not missing
    failed += not ok
    print(f'{"" if ok else "not "}ok {n} - event {ev} documented with its fields')
    if not ok:
        print(f'#   missing: {missing if ev in rows else "the whole event"}')
n += 1
extra = sorted(set(rows) - set(events))
failed += bool(extra)
print(f'{"" if not extra else "not "}ok {n} - no documented event is gone {extra}')
n += 1
failed += bool(twice)
print(f'{"" if not twice else "not "}ok {n} - no event is documented twice {twice}')
print(f'1..{n}')
sys.exit(1 if failed else 0)
