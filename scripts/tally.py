#!/usr/bin/env python3
"""Sum meson's test logs into the one closing line CI reads:
'N passed, N failed, N skipped'."""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line).get('result')
                if r in ('OK', 'EXPECTEDFAIL'):
                    passed += 1
                elif r == 'SKIP':
                    skipped += 1
                else:
                    failed += 1
    except OSError as e:
        print(f'tally: {path}: {e.strerror}', file=sys.stderr)
        failed += 1
print(f'{passed} passed, {failed} failed, {skipped} skipped')
sys.exit(1 if failed else 0)
