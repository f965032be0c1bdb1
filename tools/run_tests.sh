#!/usr/bin/env bash
# Runs the whole test suite of a build directory (the README's test command calls this).
# Usage: tools/run_tests.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
# PoCL and the OpenCL ICD loader keep some allocations until exit by design; leak reports from them are
# suppressed (see tools/lsan.supp), every other leak still fails the run.
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# PoCL compiles kernels into a cache; keep it inside the build so runs do not depend on $HOME.
export POCL_CACHE_DIR="$PWD/$build/pocl-cache"
status=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" || status=$?

# ctest lists skipped tests without their reasons; print each distinct reason with how many tests gave it.
log="$build/Testing/Temporary/LastTest.log"
if [ -f "$log" ] && grep -q ": Skipped$" "$log"; then
  echo
  echo "Why tests were skipped (count, reason):"
  grep -A1 ": Skipped$" "$log" | grep -vE ": Skipped$|^--$" | sort | uniq -c | sort -rn
fi
exit $status
