#!/bin/sh
# Install what is missing, build (warnings are errors), and run the whole
# test suite twice: the normal build, then the parts that may be sanitized
# (analyzer, scanner, registry, fuzzers) under ASan+UBSan.
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."

scripts/bootstrap.sh -Dwerror=true || exit 1
status=0
meson test -C build --print-errorlogs --num-processes 2 || status=1

if [ ! -f build-sanitize/build.ninja ]; then
	meson setup build-sanitize -Db_sanitize=address,undefined -Db_lto=false \
		-Dwerror=true -Db_lundef=false || exit 1
fi
ninja -C build-sanitize || exit 1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-sanitize --print-errorlogs --num-processes 2 || status=1

python3 scripts/tally.py build/meson-logs/testlog.json \
	build-sanitize/meson-logs/testlog.json || status=1
exit $status
