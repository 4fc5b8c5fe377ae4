#!/bin/sh
# Build hipgrain and run its test suite under another Debian release's ROCm:
# trixie (Debian 13, ROCm 5.7.1) or sid (ROCm 6.4.3, hipcc 7.0.2, LLVM 21).
# The chroot is made with debootstrap from Debian's registry on first use
# and kept under ROOT (default /var/tmp/hipgrain-releases) for the next run,
# with its checkout and build; the source is this checkout's HEAD (cloned,
# then fetched on later runs), so uncommitted changes are not tested.
# Prints the suite's "N passed, N failed, N skipped" and exits non-zero
# when something failed.
#
# Each phase's wall time (chroot, packages, build, suite) goes to stderr, to
# judge whether CI could afford it.
#
# usage: scripts/releases.sh trixie|sid [--suite NAME]... [--repeat N
#        [--tests "TEST..."]] [ROOT]
#        (--suite is meson test's: only those suites; --repeat runs each
#        of them N times through scripts/repeat.sh, the flake finder,
#        --tests only those tests of them)
set -eu
cd "$(dirname "$0")/.."
usage="usage: scripts/releases.sh trixie|sid [--suite NAME]... [--repeat N [--tests 'TEST...']] [ROOT]"
rel=${1:?$usage}
shift
suites=""
repeat=""
tests=""
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suites="$suites --suite ${2:?$usage}"; shift 2 ;;
	--repeat) repeat=${2:?$usage}; shift 2 ;;
	--tests) tests=${2:?$usage}; shift 2 ;;
	-*) echo "$usage" >&2; exit 64 ;;
	*) break ;;
	esac
done
top=${1:-/var/tmp/hipgrain-releases}
root=$top/$rel
mirror=http://deb.debian.org/debian
t0=$(date +%s)
phase() { # phase NAME: the time since the last call
	t1=$(date +%s)
	echo "releases.sh: $rel: $1 took $((t1 - t0)) s" >&2
	t0=$t1
}

case $rel in
trixie) llvm=19 apt_opts="" ;;
sid) llvm=21 apt_opts="-o Acquire::Check-Valid-Until=false" ;;
*) echo "releases.sh: unknown release '$rel' (trixie or sid)" >&2; exit 64 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "releases.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }

# The release's names for what scripts/bootstrap.sh installs on Debian 12.
pkgs="hipcc libamdhip64-dev libamd-comgr-dev libhsa-runtime-dev
liblttng-ust-dev lttng-tools liblttng-ctl-dev babeltrace2 libbabeltrace2-dev
python3-bt2 libunwind-dev libelf-dev libdw-dev meson ninja-build pkg-config
llvm-$llvm clang-$llvm libomp-$llvm-dev zlib1g-dev libzstd-dev scdoc zzuf
python3 gcc g++ procps openmpi-bin libopenmpi-dev git ca-certificates
chromium python3-jsonschema fonts-dejavu-core nodejs"
# libomptarget and the AMDGPU device runtime, for the OpenMP programs: in
# libomp-N-dev up to LLVM 19, in liboffload-N-dev later (when the
# release has it); the new offload driver's packager and linker, which
# liboffload-N-dev brings along and libomp-N-dev does not; and the
# fuzzers' runtime (libclang-rt-N-dev).
opt_pkgs="liboffload-$llvm-dev clang-tools-$llvm lld-$llvm libclang-rt-$llvm-dev"

# Nothing of the last run may pass for this one's (scripts/test.sh reads
# the test log from the chroot); its checkout and build stay, see below.
rm -f "$root/build/meson-logs/testlog.json" "$root/build/meson-logs/testlog.txt"
command -v debootstrap >/dev/null || {
	apt-get update -q && apt-get install -y -q debootstrap; }
if [ ! -x "$root/usr/bin/apt-get" ]; then
	mkdir -p "$top"
	debootstrap --variant=minbase "$rel" "$root" "$mirror"
	phase "debootstrap"
fi

mounted=""
cleanup() {
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM
bind() { # bind SRC DST [rbind]
	mountpoint -q "$2" && return 0
	mount "--${3:-bind}" "$1" "$2"
	mounted="$2 $mounted"
}
# The root a mount point of its own: tests make private mount namespaces
# (unshare --propagation private), which a bare chroot refuses.
bind "$root" "$root"
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc"; mounted="$root/proc $mounted"; }
bind /dev "$root/dev" rbind
bind /sys "$root/sys"

# Paths this machine's environment names (a TMPDIR, a cache) do not exist
# in the chroot: its own /tmp, and no cache of the host's.
in_root() { chroot "$root" env -u XDG_CACHE_HOME TMPDIR=/tmp sh -c "$1"; }
# A chroot whose last install was interrupted refuses every apt-get until
# dpkg has configured what it unpacked, and what it could not configure
# for want of a dependency apt's -f brings in with the rest.
# The package set is refreshed from the registry once a day (or when the
# list changes, or HIPGRAIN_RELEASES_REFRESH=1): CI runs more often than
# the release moves, and an update and no-op install cost it a minute.
stamp=$root/var/lib/hipgrain-packages
want="$pkgs $opt_pkgs"
if [ "${HIPGRAIN_RELEASES_REFRESH:-0}" = 1 ] || [ ! -f "$stamp" ] ||
	[ "$(cat "$stamp")" != "$(echo $want)" ] ||
	[ -n "$(find "$stamp" -mmin +1440)" ]; then
	rm -f "$stamp"
	in_root "DEBIAN_FRONTEND=noninteractive dpkg --configure -a;
		apt-get $apt_opts update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -f -y -q --no-install-recommends $(echo $pkgs)"
	for p in $opt_pkgs; do
		if in_root "apt-cache show $p >/dev/null 2>&1"; then
			in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $p"
		fi
	done
	echo $want >"$stamp"
fi
phase "packages"

# The last run's checkout moves to this HEAD in place, so that only the
# files that changed look new and ninja rebuilds only what they reach
# (a fresh clone would rebuild all of it, kernels and fuzzers included).
src=$root/src
if [ -d "$src/.git" ] && git -C "$src" fetch -q "$PWD" HEAD; then
	git -C "$src" checkout -q -f FETCH_HEAD
	git -C "$src" clean -q -fdx -e /tests/formats/node_modules/
else
	rm -rf "$src" "$root/build"
	git clone -q . "$src"
fi
# What scripts/bootstrap.sh does for the format tests: the locked npm set,
# again only when the lock changed.  Pure JavaScript, so it is installed
# from here, with this machine's npm and network settings (the chroot has
# neither this machine's proxy nor its CA).
fmt=$src/tests/formats
if ! cmp -s "$fmt/package-lock.json" "$fmt/node_modules/.hipgrain-lock"; then
	(cd "$fmt" && npm ci --no-audit --no-fund --loglevel=error)
	cp "$fmt/package-lock.json" "$fmt/node_modules/.hipgrain-lock"
fi
in_root "cd /src && { [ -f /build/build.ninja ] ||
	meson setup /build -Dwerror=true >/dev/null; } && ninja -C /build"
phase "build"
set +e
if [ -n "$repeat" ]; then
	[ -n "$suites" ] || { echo "releases.sh: --repeat needs --suite" >&2; exit 64; }
	for s in $suites; do
		[ "$s" = --suite ] && continue
		in_root "cd /src && sh scripts/repeat.sh -C /build $s $repeat $tests"
	done 2>&1 | tee "$top/$rel-repeat.log"
	# The pipe hides each round's status: a suite passed when it says so
	# and names no failed test.
	grep -q ' rounds passed$' "$top/$rel-repeat.log" &&
		! grep -q '^repeat: ' "$top/$rel-repeat.log"
	rc=$?
	set -e
	phase "suite, $repeat rounds"
	echo "releases.sh: $rel log in $top/$rel-repeat.log" >&2
	exit $rc
fi
in_root "cd /build && meson test --num-processes 2 --print-errorlogs$suites" >"$top/$rel-test.log" 2>&1
rc=$?
set -e
phase "suite"
python3 - "$top/$rel-test.log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
n = {k: int(v) for k, v in re.findall(r'^(Ok|Fail|Skipped|Timeout|Expected Fail|Unexpected Pass):\s+(\d+)', log, re.M)}
print(f"{n.get('Ok', 0)} passed, {n.get('Fail', 0) + n.get('Timeout', 0) + n.get('Unexpected Pass', 0)} failed, {n.get('Skipped', 0)} skipped")
PY
echo "releases.sh: $rel log in $top/$rel-test.log" >&2
exit $rc
