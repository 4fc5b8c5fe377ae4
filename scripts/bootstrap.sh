#!/bin/sh
# Install what hipgrain needs from Debian 12 (only what is missing), then
# configure and build into ./build.  Idempotent: a second run changes nothing.
# Usage: scripts/bootstrap.sh [extra meson options...]
set -eu
cd "$(dirname "$0")/.."

PKGS="hipcc libamdhip64-dev libamd-comgr-dev rocm-device-libs
libhsa-runtime-dev liblttng-ust-dev lttng-tools liblttng-ctl-dev babeltrace2
libbabeltrace2-dev libunwind-dev libelf-dev libdw-dev meson ninja-build
pkg-config llvm-15 clang-15 heaptrack librocsparse0 zlib1g-dev libzstd-dev
scdoc zzuf python3 python3-bt2 gcc g++ procps openmpi-bin libopenmpi-dev
libomp-15-dev chromium python3-jsonschema fonts-dejavu-core nodejs"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "hipgrain: installing:$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -q
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
		--no-install-recommends $missing
fi

# The format tests drive Chromium with playwright-core and validate SARIF
# against the schema an npm package ships: installed from the committed lock.
if ! command -v npm >/dev/null 2>&1; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q \
		--no-install-recommends npm
fi
if [ ! -f tests/formats/node_modules/.package-lock.json ] ||
	! cmp -s tests/formats/package-lock.json \
		tests/formats/node_modules/.hipgrain-lock; then
	(cd tests/formats && npm ci --no-audit --no-fund --loglevel=error &&
		cp package-lock.json node_modules/.hipgrain-lock)
fi

if [ ! -f build/build.ninja ]; then
	meson setup build "$@"
elif [ $# -gt 0 ]; then
	meson configure build "$@"
fi
ninja -C build
