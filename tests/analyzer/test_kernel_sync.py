#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A kernel event's sys_sites (synchronization at system scope, issue 49)
through tracegen, the analyzer's replay and a summary: kernel_sync checks
each kernel's field, and one kernel that says none keeps it empty (the
old-traces-* tests read traces that lack the field).

usage: test_kernel_sync.py TRACEGEN KERNEL_SYNC
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'lib'))
from lttng_session import Tracing  # noqa: E402

TRACEGEN, CHECK = sys.argv[1:3]
SITES = "0+load^s@flag.hip:8;0+acquire^s@flag.hip:8;?+release^s"
SCRIPT = f"""process ppid=1 exe=/bin/app version=0.1.0
function handle=0x1000 name=_Z9wait_flagPiS_S_
kernel handle=0x1000 name=_Z9wait_flagPiS_S_ target=gfx942 xnack=1 arg_kind=2,2,2 sys_sites={SITES}
function handle=0x2000 name=_Z10near_agentPiS_S_
kernel handle=0x2000 name=_Z10near_agentPiS_S_ target=gfx942 xnack=1 arg_kind=2,2,2
"""

tmp = tempfile.mkdtemp(prefix='hgksync-')
try:
    script = os.path.join(tmp, 'sync.tg')
    with open(script, 'w') as f:
        f.write(SCRIPT)
    out = os.path.join(tmp, 'trace')
    with Tracing(out) as t:
        r = t.run([TRACEGEN, script])
        if r.returncode:
            sys.exit(f"tracegen: {r.stderr}")
    r = subprocess.run([CHECK, out, '0x1000', SITES, '0x2000', ''],
                       capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    sys.exit(r.returncode)
finally:
    shutil.rmtree(tmp, True)
