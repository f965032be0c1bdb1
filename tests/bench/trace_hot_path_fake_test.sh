#!/usr/bin/env bash
# bench/trace_hot_path_fake.sh runs end to end on this machine (the fake CUDA stand-in needs no GPU): every row has a
# time, and gpaprof's runs traced (their own share is printed). Not a timing test: no figure is compared.
# Usage: trace_hot_path_fake_test.sh <bench script> <build dir>
set -uo pipefail
script=$1 build=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/tmp"
# (BASE_GPAPROF: the same gpaprof again, as an earlier commit's would be, for its row.)
out=$(TMPDIR=$scratch/tmp LAUNCHES=20000 ROUNDS=2 BASE_GPAPROF=$build/bin/gpaprof bash "$script" "$build" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: the script exited $rc"; exit 1; }
# Its files go with it (437 MB with these settings; CI runs this test twice).
left=$(ls -A "$scratch/tmp")
[ -z "$left" ] || { echo "FAIL: the bench left files behind: $left"; exit 1; }
echo "$out" | grep -q "driver work: 32 KiB swept a callback, 2000 ns a launch" || { echo "FAIL: the header does not say the stand-in's work"; exit 1; }
for row in no-subscriber gpaprof-empty gpaprof gpaprof-F gpaprof-base; do
  echo "$out" | grep -Eq "^$row +[0-9]+\.[0-9] " || { echo "FAIL: no time for $row"; exit 1; }
done
# That gpaprof's rows measured gpaprof at all (a row of a gpaprof that did not subscribe would look like the
# floor): the stand-in counts the callbacks it delivered, 6 a launch (the runtime launch, the driver launch inside
# it and cudaGetLastError, each entered and left).
# (The output into a variable first: grep -q ending a pipe early would fail it under pipefail.)
check=$(GPAPROF_CUDA_TRACING_LIBRARY=$build/tests/tools/gpaprof/cuda/libgpaprof_fake_cuda.so \
  "$build/bin/gpaprof" -t --no-progress -o "$scratch/check" -- "$build/tests/tools/gpaprof/cuda/gpaprof_fake_cuda_app" \
  --launches 100 --driver-every 0 2>&1)
grep -q " 600 callbacks delivered" <<< "$check" || { echo "$check"; echo "FAIL: gpaprof did not subscribe"; exit 1; }
echo "PASS"
