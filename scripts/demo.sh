#!/bin/sh
# Install what is missing, build, and trace one demo program with
# `hipgrain run`: the silently wrong atomic sum (unsafeAtomicAdd on
# hipHostMalloc memory) of AMD's "AMD Node Memory Model" talk.  On a machine
# with an MI100/MI200 it runs there; without a GPU it runs on a virtual
# MI210 (the real ROCm runtime; hipgrain's interpreter runs the kernels
# with MI210's memory semantics).  Either way the report names the hazard
# and the allocation; then the fixed variant (coarse-grained host memory)
# shows the right sum.
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
echo "demo: the same sum on coarse-grained host memory (hipHostMallocNonCoherent):"
fixed=$(mktemp -d /tmp/hipgrain-demo.XXXXXX)
build/cli/hipgrain run --output "$fixed/trace" $gpu -- \
	build/kernels/arraysum_unsafe hostmalloc-noncoherent || status=$?
rm -rf "$fixed"
echo
echo "demo: the program exited with status $status; the trace is in $out"
echo "demo: explore it with: build/cli/hipgrain report --inventory $out"
