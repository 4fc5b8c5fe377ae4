# SPDX-License-Identifier: MIT
"""The event record classes' ids of a CTF trace, by name, from its metadata:
CTF 2 (JSON fragments, each after a record separator: LTTng 2.16 writes
them) read here, CTF 1.8 (TSDL, packetized by LTTng) through babeltrace2's
`--output-format=ctf-metadata`.  A metadata stream that yields no id at all
raises: a caller checking the ids must not mistake an unread stream for an
empty one."""
import json
import os
import re
import subprocess

RS = b'\x1e'


def _ctf2(raw):
    ids = {}
    for frag in raw.split(RS):
        if not frag.strip():
            continue
        o = json.loads(frag)
        if o.get('type') == 'event-record-class' and 'name' in o:
            ids[o['name']] = int(o.get('id', 0))
    return ids


def _ctf1(trace_dir, bt):
    p = subprocess.run([bt, '--output-format=ctf-metadata', trace_dir],
                       capture_output=True, text=True, timeout=60)
    if p.returncode:
        raise ValueError('%s: babeltrace2 cannot print the metadata: %s'
                         % (trace_dir, p.stderr.strip()))
    return {n: int(i) for n, i in
            re.findall(r'name = "([^"]+)";\s*id = (\d+);', p.stdout)}


def event_ids(metadata, bt='babeltrace2'):
    """{event class name: id} of the stream in file `metadata`."""
    with open(metadata, 'rb') as f:
        raw = f.read()
    ctf2 = raw.lstrip().startswith(RS)
    ids = _ctf2(raw) if ctf2 else _ctf1(os.path.dirname(metadata), bt)
    if not ids:
        raise ValueError('%s: no event record class ids in its %s metadata'
                         % (metadata, 'CTF 2' if ctf2 else 'CTF 1.8'))
    return ids
