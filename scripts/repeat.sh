#!/bin/sh
# A flake finder: run one meson test suite N times and name every test
# that failed in any round, with its whole log, so that an intermittent
# failure is seen here rather than in CI.  Run it on every suite a change
# to the preload, the tracer or the virtual GPU touches.
#
#   scripts/repeat.sh [-C BUILD] SUITE N [TEST]...      in BUILD (build)
#   scripts/repeat.sh --release sid SUITE N [TEST]...  in that release's
#                         chroot (scripts/releases.sh; root; tests HEAD)
#
# TEST names keep only those tests of the suite.  The environment goes
# through to the tests (HGTEST_STRESS_REPS=50 makes each stress round
# longer).
# Each round's meson log is kept in BUILD/meson-logs/repeat-SUITE/.  Ends
# with a line per test (how many runs passed, and TAP subtests) and
# "SUITE: R of N rounds passed"; exits non-zero when any round failed.
set -u
cd "$(dirname "$0")/.."
usage="usage: scripts/repeat.sh [-C BUILD | --release trixie|sid] SUITE N [TEST]..."
build=build
release=""
while [ $# -gt 0 ]; do
	case $1 in
	-C) build=${2:?$usage}; shift 2 ;;
	--release) release=${2:?$usage}; shift 2 ;;
	-*) echo "$usage" >&2; exit 64 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "$usage" >&2; exit 64; }
suite=$1
n=$2
shift 2
case $n in '' | *[!0-9]*) echo "$usage" >&2; exit 64 ;; esac

if [ -n "$release" ]; then
	exec scripts/releases.sh "$release" --suite "$suite" --repeat "$n" \
		${1:+--tests "$*"}
fi

logs=$build/meson-logs/repeat-$suite
rm -rf "$logs"
mkdir -p "$logs"
i=1
while [ "$i" -le "$n" ]; do
	# A round that could not start (a build error) writes no log of its
	# own: the last round's must not pass for it.
	rm -f "$build/meson-logs/testlog.json"
	meson test -C "$build" --suite "$suite" --num-processes 2 "$@" \
		>"$logs/round-$i.out" 2>&1
	cp "$build/meson-logs/testlog.json" "$logs/round-$i.json" 2>/dev/null
	i=$((i + 1))
done

python3 - "$logs" "$suite" "$n" <<'PY'
import json, os, sys
logs, suite, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
failed_rounds, runs, fails = 0, {}, []
for i in range(1, n + 1):
    path = os.path.join(logs, f'round-{i}.json')
    bad = not os.path.exists(path)
    if bad:
        fails.append((i, '(no test log: see ' +
                      os.path.join(logs, f'round-{i}.out') + ')', None))
    for line in open(path) if os.path.exists(path) else ():
        r = json.loads(line)
        name = r.get('name')
        ok = r.get('result') in ('OK', 'EXPECTEDFAIL', 'SKIP')
        tally = runs.setdefault(name, [0, 0, 0, 0])
        tally[0 if ok else 1] += 1
        for text in (r.get('stdout') or '').split('\n'):  # TAP lines
            if text.startswith(('ok ', 'not ok ')):
                tally[2 if text.startswith('ok ') else 3] += 1
        if not ok:
            bad = True
            fails.append((i, name, r))
    failed_rounds += bad
for i, name, r in fails:
    print(f'repeat: round {i}: {name}: '
          f'{r.get("result") if r else "did not run"}')
    if r:
        out = (r.get('stdout') or '') + (r.get('stderr') or '')
        for text in out.rstrip('\n').split('\n'):
            print(f'  | {text}')
for name, (good, bad, sub_ok, sub_bad) in sorted(runs.items()):
    if bad:
        print(f'repeat: {name}: failed {bad} of {good + bad} runs')
    else:
        print(f'{name}: {good} of {good} runs passed, '
              f'{sub_ok} of {sub_ok + sub_bad} subtests')
print(f'{suite}: {n - failed_rounds} of {n} rounds passed')
sys.exit(1 if failed_rounds else 0)
PY
