#!/bin/sh
# Install what is missing, build, and trace one demo program with
# `hipgrain run`: the seed's silently wrong atomic sum (unsafeAtomicAdd on
# hipHostMalloc memory).  On a machine with an MI100/MI200 the report names
# the hazard and the allocation; without a GPU it names the failed calls and
# the kernel's static findings.
set -eu
cd "$(dirname "$0")/.."

scripts/bootstrap.sh
out=$(mktemp -d /tmp/hipgrain-demo.XXXXXX)
rmdir "$out"
status=0
build/cli/hipgrain run --output "$out" -- build/kernels/arraysum_unsafe hostmalloc ||
	status=$?
echo
echo "demo: the program exited with status $status; the trace is in $out"
echo "demo: explore it with: build/cli/hipgrain report --inventory $out"
