#!/usr/bin/env python3
"""Sum meson's test logs into the one closing line CI reads:
'N passed, N failed, N skipped'.

CI keeps only the end of a run's output, so a failed test is named here,
with the last lines it printed, right above that line: the earlier
--print-errorlogs copy scrolls out of sight behind the sanitized build and
the releases.  Above it too, the slowest tests of the run with their times,
which doc/testing.md lists to keep CI's time bounded."""
import json
import sys

TAIL = 40
SLOWEST = 10

passed = failed = skipped = 0
failures = []
timed = []
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                result = r.get('result')
                timed.append((r.get('duration', 0), r.get('name'), path))
                if result in ('OK', 'EXPECTEDFAIL'):
                    passed += 1
                elif result == 'SKIP':
                    skipped += 1
                else:
                    failed += 1
                    failures.append((path, r))
    except OSError as e:
        print(f'tally: {path}: {e.strerror}', file=sys.stderr)
        failed += 1

for path, r in failures:
    out = (r.get('stdout') or '') + (r.get('stderr') or '')
    out = out.rstrip('\n').split('\n')
    print(f'tally: {r.get("name")}: {r.get("result")} '
          f'after {r.get("duration", 0):.1f} s ({path}); its last lines:')
    for text in out[-TAIL:]:
        print(f'  | {text}')
for secs, name, path in sorted(timed, key=lambda t: -t[0])[:SLOWEST]:
    print(f'tally: slow: {secs:6.1f} s  {name} ({path})')
print(f'{passed} passed, {failed} failed, {skipped} skipped')
sys.exit(1 if failed else 0)
