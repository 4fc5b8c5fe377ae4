#!/bin/sh
# Install what is missing, build (warnings are errors), and run the whole
# test suite twice: the normal build, then the parts that may be sanitized
# (analyzer, scanner, registry) under ASan+UBSan; then once more
# under each release in HIPGRAIN_RELEASES (default: sid, ROCm 6.4.3 with
# hipcc 7.0.2 and LLVM 21; "trixie sid" adds ROCm 5.7.1; empty: none), in
# a debootstrap chroot (scripts/releases.sh; it tests the commit, HEAD).
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."

scripts/bootstrap.sh -Dwerror=true || exit 1
status=0
meson test -C build --print-errorlogs --num-processes 2 || status=1

# No fuzzers there: every build compiles them with clang's own ASan and
# UBSan, the same harnesses run on the same inputs in the normal build.
if [ ! -f build-sanitize/build.ninja ]; then
	meson setup build-sanitize -Db_sanitize=address,undefined -Db_lto=false \
		-Dwerror=true -Db_lundef=false -Dfuzz=false || exit 1
fi
ninja -C build-sanitize || exit 1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-sanitize --print-errorlogs --num-processes 2 || status=1

logs="build/meson-logs/testlog.json build-sanitize/meson-logs/testlog.json"
for rel in ${HIPGRAIN_RELEASES-sid}; do
	scripts/releases.sh "$rel" || status=1
	# Missing when the release could not be set up: tally counts it failed.
	logs="$logs /var/tmp/hipgrain-releases/$rel/build/meson-logs/testlog.json"
done

python3 scripts/tally.py $logs || status=1
exit $status
