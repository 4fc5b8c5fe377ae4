#!/bin/sh
# Install what is missing, build, and trace one demo program with
# `hipgrain run`: the silently wrong atomic sum (unsafeAtomicAdd on
# hipHostMalloc memory) of AMD's "AMD Node Memory Model" talk.  On a machine
# with an MI100/MI200 it runs there; without a GPU it runs on a virtual
# MI210 (the real ROCm runtime, kernels not executed).  Either way the
# report names the hazard and the allocation.
set -eu
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
out=$(mktemp -d /tmp/hipgrain-demo.XXXXXX)
rmdir "$out"
gpu=""
[ -e /dev/kfd ] || gpu="--virtual-gpu MI210"
status=0
build/cli/hipgrain run --output "$out" $gpu -- build/kernels/arraysum_unsafe hostmalloc ||
	status=$?
echo
echo "demo: the program exited with status $status; the trace is in $out"
echo "demo: explore it with: build/cli/hipgrain report --inventory $out"
